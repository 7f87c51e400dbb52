package io.racs.repos;

import java.util.Objects;

/**
 * An action that must have succeeded once before a repository's calls go on, such as creating a
 * missing bucket or container at start-up ({@code create: true}): {@link #ensure()} runs it on the
 * first call, and again on later calls only while it has not yet succeeded (a store that was down
 * at the first call is tried again at the next). Once it has succeeded it never runs again, so a
 * bucket deleted later reads as missing storage instead of being made anew, empty.
 *
 * <p>Thread-safe: concurrent first calls run the action once, the others wait for it; after success
 * {@link #ensure()} costs one volatile read.
 */
public final class OnFirstCall {
  private final Runnable action;
  private volatile boolean done;

  private OnFirstCall(Runnable action, boolean done) {
    this.action = action;
    this.done = done;
  }

  /** Runs {@code action} on the first call of {@link #ensure()}, until it succeeds. */
  public static OnFirstCall of(Runnable action) {
    return new OnFirstCall(Objects.requireNonNull(action, "action"), false);
  }

  /** Nothing to run: {@link #ensure()} does nothing. */
  public static OnFirstCall none() {
    return new OnFirstCall(() -> {}, true);
  }

  /**
   * Runs the action unless it has succeeded before; its exception, if it fails, is the caller's.
   */
  public void ensure() {
    if (!done) {
      runOnce();
    }
  }

  private synchronized void runOnce() {
    if (!done) {
      action.run();
      done = true;
    }
  }
}
