package io.racs.proxy.s3.bridge;

import java.time.Instant;

/**
 * The S3 layer's view of one version's object lock.
 *
 * @param mode {@code GOVERNANCE}, {@code COMPLIANCE}, or null for no retention
 * @param retainUntil the end of the retention; null without one
 * @param legalHold true while a legal hold is on
 */
public record VersionLock(String mode, Instant retainUntil, boolean legalHold) {
  /** No retention, no legal hold. */
  public static final VersionLock NONE = new VersionLock(null, null, false);

  /** A retention without a mode has no end. */
  public VersionLock {
    if (mode == null) {
      retainUntil = null;
    }
  }
}
