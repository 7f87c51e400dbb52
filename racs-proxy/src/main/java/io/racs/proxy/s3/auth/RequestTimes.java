package io.racs.proxy.s3.auth;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The request times of both signature versions: how {@code x-amz-date}, {@code Date} and the SigV4
 * basic format are read, and how far a request time may be from the server's clock.
 *
 * <p>Thread-safe; the clock is the only state.
 *
 * @param clock the server's clock
 * @param maxClockSkew the largest accepted difference between a request time and now
 */
record RequestTimes(Clock clock, Duration maxClockSkew) {
  /** The SigV4 basic format of {@code x-amz-date}, in UTC. */
  static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private static final String NO_VALID_DATE =
      "AWS authentication requires a valid Date or x-amz-date header";

  /** The weekday name an RFC 1123 date opens with, such as {@code "Tue, "}. */
  private static final Pattern WEEKDAY = Pattern.compile("^[A-Za-z]{3},\\s*");

  /** The server's time now. */
  Instant now() {
    return clock.instant();
  }

  /**
   * Checks that {@code requestTime} is within the allowed skew of now, either way.
   *
   * @throws S3Exception {@code RequestTimeTooSkewed} otherwise
   */
  void checkSkew(Instant requestTime) {
    Instant now = clock.instant();
    if (Duration.between(requestTime, now).abs().compareTo(maxClockSkew) > 0) {
      throw S3Exception.of(S3ErrorCode.REQUEST_TIME_TOO_SKEWED)
          .withDetail("RequestTime", requestTime.toString())
          .withDetail("ServerTime", now.toString())
          .withDetail("MaxAllowedSkewMilliseconds", Long.toString(maxClockSkew.toMillis()));
    }
  }

  /** Parses {@code yyyyMMdd'T'HHmmss'Z'}. */
  static Instant parseAmzDate(String value, S3ErrorCode onError) {
    try {
      return LocalDateTime.parse(value, AMZ_DATE).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      throw S3Exception.of(
          onError,
          onError == S3ErrorCode.ACCESS_DENIED
              ? NO_VALID_DATE
              : "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
    }
  }

  /**
   * Parses an RFC 1123 date, falling back to the SigV4 basic format some clients put there.
   *
   * <p>The weekday name is not checked against the date: S3 ignores it (as Go's {@code
   * http.ParseTime}, and so MinIO, does), and a client that got it wrong must hear that its time is
   * skewed, not that it sent no date. A date before 1970 is no valid request time at all.
   *
   * @throws S3Exception {@code AccessDenied} when the value is no date, or one before 1970
   */
  static Instant parseHttpDate(String value) {
    String stripped = value.strip();
    Instant parsed;
    try {
      // The weekday is optional in RFC_1123_DATE_TIME, which refuses one that is not the date's.
      parsed =
          ZonedDateTime.parse(
                  WEEKDAY.matcher(stripped).replaceFirst(""), DateTimeFormatter.RFC_1123_DATE_TIME)
              .toInstant();
    } catch (DateTimeParseException e) {
      parsed = parseAmzDate(stripped, S3ErrorCode.ACCESS_DENIED);
    }
    if (parsed.isBefore(Instant.EPOCH)) {
      throw S3Exception.of(S3ErrorCode.ACCESS_DENIED, NO_VALID_DATE);
    }
    return parsed;
  }
}
