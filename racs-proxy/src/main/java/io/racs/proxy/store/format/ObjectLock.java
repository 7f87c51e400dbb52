package io.racs.proxy.store.format;

/**
 * The S3 object lock of one version: its retention (a mode and the time until which the version is
 * kept) and its legal hold. Immutable; stored in {@link VersionMeta#lock()} as the version was
 * written, and in lock records when it is changed later.
 *
 * @param mode {@link #GOVERNANCE}, {@link #COMPLIANCE}, or null for no retention
 * @param retainUntilMillis until when the retention keeps the version (epoch milliseconds); 0
 *     without a retention
 * @param legalHold true while a legal hold is on: the version is kept whatever the retention says
 */
public record ObjectLock(String mode, long retainUntilMillis, boolean legalHold) {
  /** A retention that may be shortened or removed by a request that bypasses it. */
  public static final String GOVERNANCE = "GOVERNANCE";

  /** A retention no one can shorten or remove. */
  public static final String COMPLIANCE = "COMPLIANCE";

  /** No retention, no legal hold. */
  public static final ObjectLock NONE = new ObjectLock(null, 0, false);

  /** Checks the mode; a retention without a mode has no time. */
  public ObjectLock {
    if (mode != null && !mode.equals(GOVERNANCE) && !mode.equals(COMPLIANCE)) {
      throw new IllegalArgumentException(
          "mode: " + mode + " (expected: " + GOVERNANCE + ", " + COMPLIANCE + " or none)");
    }
    if (mode == null) {
      retainUntilMillis = 0;
    }
  }

  /** True when there is a retention. */
  public boolean hasRetention() {
    return mode != null;
  }

  /** This lock with another retention ({@code mode} null: none). */
  public ObjectLock withRetention(String mode, long retainUntilMillis) {
    return new ObjectLock(mode, retainUntilMillis, legalHold);
  }

  /** This lock with the legal hold on or off. */
  public ObjectLock withLegalHold(boolean on) {
    return new ObjectLock(mode, retainUntilMillis, on);
  }
}
