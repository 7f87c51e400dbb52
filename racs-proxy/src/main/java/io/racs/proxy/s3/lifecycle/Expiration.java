package io.racs.proxy.s3.lifecycle;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * When S3 considers an object expired. A rule of {@code Days} counts from the version's last
 * modification: S3 adds the days to that time and rounds the result up to the next midnight UTC (an
 * object written at 2026-03-01T10:00Z under {@code Days=1} expires at 2026-03-03T00:00Z). A rule of
 * {@code Date} expires everything it matches from that instant (always a midnight UTC). The same
 * rule, in days after initiation, ends an incomplete multipart upload.
 *
 * <p>Pure functions of their arguments; the caller brings the time ({@code now}) from a clock it
 * can control.
 */
public final class Expiration {
  private Expiration() {}

  /**
   * The instant an object last modified at {@code lastModified} expires under a rule of {@code
   * days} days: {@code lastModified + days}, rounded up to a midnight UTC (a time already at
   * midnight stays).
   *
   * @throws IllegalArgumentException for {@code days < 1}
   */
  public static Instant expiresAt(Instant lastModified, int days) {
    if (days < 1) {
      throw new IllegalArgumentException("days: " + days + " (expected: at least 1)");
    }
    Instant due = lastModified.plus(days, ChronoUnit.DAYS);
    Instant midnight = due.atOffset(ZoneOffset.UTC).truncatedTo(ChronoUnit.DAYS).toInstant();
    return midnight.equals(due) ? due : midnight.plus(1, ChronoUnit.DAYS);
  }

  /** True once an object last modified at {@code lastModified} expired under {@code days}. */
  public static boolean expired(Instant lastModified, int days, Instant now) {
    return !now.isBefore(expiresAt(lastModified, days));
  }

  /** True once {@code date} (a rule's {@code Date}) has come. */
  public static boolean dateReached(Instant date, Instant now) {
    return !now.isBefore(date);
  }
}
