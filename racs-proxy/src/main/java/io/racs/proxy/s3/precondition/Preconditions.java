package io.racs.proxy.s3.precondition;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * Evaluates conditional headers against an object's ETag and Last-Modified, in the order RFC 9110
 * gives and S3 follows:
 *
 * <ol>
 *   <li>{@code If-Match}: no match → 412; when present, {@code If-Unmodified-Since} is not
 *       evaluated (so If-Match true + If-Unmodified-Since false → 200, as S3 documents);
 *   <li>otherwise {@code If-Unmodified-Since}: modified after it → 412;
 *   <li>{@code If-None-Match}: a match → 304 for GET/HEAD (412 for a copy source or a write); when
 *       present, {@code If-Modified-Since} is not evaluated (If-None-Match false +
 *       If-Modified-Since true → 304);
 *   <li>otherwise {@code If-Modified-Since} (GET/HEAD only): not modified since → 304.
 * </ol>
 *
 * <p>ETags compare without quotes and weak prefixes; {@code *} matches any existing object. Dates
 * are HTTP-dates compared at second precision; an unparsable date is ignored, as RFC 9110 says.
 * Failures are thrown as {@code NotModified} (304, no body) or {@code PreconditionFailed} (412).
 */
public final class Preconditions {
  private Preconditions() {}

  /**
   * Evaluates the conditions of a GET or HEAD.
   *
   * @throws S3Exception {@code NotModified} or {@code PreconditionFailed}
   */
  public static void checkRead(Headers headers, String etag, Instant lastModified) {
    check(headers, "", etag, lastModified, S3ErrorCode.NOT_MODIFIED);
  }

  /**
   * Evaluates {@code x-amz-copy-source-if-*} against the copy source; every failure is 412.
   *
   * @throws S3Exception {@code PreconditionFailed}
   */
  public static void checkCopySource(Headers headers, String etag, Instant lastModified) {
    check(headers, "x-amz-copy-source-", etag, lastModified, S3ErrorCode.PRECONDITION_FAILED);
  }

  /**
   * Evaluates the conditions of a write (PutObject, CompleteMultipartUpload) against the current
   * object, if any: {@code If-None-Match: *} fails when it exists; {@code If-Match} fails when its
   * ETag differs, and answers {@code NoSuchKey} when there is no object.
   *
   * @param currentEtag the current object's ETag, empty when there is none
   * @throws S3Exception {@code PreconditionFailed} or {@code NoSuchKey}
   */
  public static void checkWrite(Headers headers, Optional<String> currentEtag) {
    String ifMatch = headers.get("if-match");
    String ifNoneMatch = headers.get("if-none-match");
    if (ifMatch != null) {
      if (currentEtag.isEmpty()) {
        throw S3Exception.of(S3ErrorCode.NO_SUCH_KEY);
      }
      if (!matches(ifMatch, currentEtag.get())) {
        throw S3Exception.of(S3ErrorCode.PRECONDITION_FAILED).withDetail("Condition", "If-Match");
      }
    }
    if (ifNoneMatch != null && currentEtag.isPresent() && matches(ifNoneMatch, currentEtag.get())) {
      throw S3Exception.of(S3ErrorCode.PRECONDITION_FAILED)
          .withDetail("Condition", "If-None-Match");
    }
  }

  private static void check(
      Headers headers, String prefix, String etag, Instant lastModified, S3ErrorCode notModified) {
    Instant modified = lastModified.truncatedTo(ChronoUnit.SECONDS);
    String ifMatch = headers.get(prefix + "if-match");
    if (ifMatch != null) {
      if (!matches(ifMatch, etag)) {
        throw failed(prefix + "If-Match");
      }
    } else {
      Instant since = httpDate(headers.get(prefix + "if-unmodified-since"));
      if (since != null && modified.isAfter(since)) {
        throw failed(prefix + "If-Unmodified-Since");
      }
    }
    String ifNoneMatch = headers.get(prefix + "if-none-match");
    if (ifNoneMatch != null) {
      if (matches(ifNoneMatch, etag)) {
        throw notModified == S3ErrorCode.NOT_MODIFIED
            ? S3Exception.of(S3ErrorCode.NOT_MODIFIED)
            : failed(prefix + "If-None-Match");
      }
    } else {
      Instant since = httpDate(headers.get(prefix + "if-modified-since"));
      if (since != null && !modified.isAfter(since)) {
        throw notModified == S3ErrorCode.NOT_MODIFIED
            ? S3Exception.of(S3ErrorCode.NOT_MODIFIED)
            : failed(prefix + "If-Modified-Since");
      }
    }
  }

  private static S3Exception failed(String condition) {
    return S3Exception.of(S3ErrorCode.PRECONDITION_FAILED).withDetail("Condition", condition);
  }

  /**
   * Whether a comma-separated list of (quoted, possibly weak) ETags or {@code *} has {@code etag}.
   */
  static boolean matches(String header, String etag) {
    String target = normalize(etag);
    for (String candidate : header.split(",")) {
      String c = candidate.strip();
      if (c.equals("*")) {
        return true;
      }
      if (normalize(c).equals(target)) {
        return true;
      }
    }
    return false;
  }

  private static String normalize(String etag) {
    String e = etag.strip();
    if (e.startsWith("W/")) {
      e = e.substring(2);
    }
    if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
      e = e.substring(1, e.length() - 1);
    }
    return e;
  }

  private static Instant httpDate(String value) {
    if (value == null) {
      return null;
    }
    try {
      return ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
