package io.racs.proxy.admin;

/**
 * What the console may ask of the proxy's background work. The runtime implements it; every method
 * returns at once and is safe from any thread.
 */
public interface AdminActions {
  /** Starts a scrub now; false when one is running or the scrub is paused. */
  boolean startScrub();

  /** Pauses ({@code true}) or resumes the scrub; a running scrub stops before its next object. */
  void pauseScrub(boolean paused);

  /** Whether the scrub is paused. */
  boolean scrubPaused();

  /** Whether a scrub is running now. */
  boolean scrubRunning();
}
