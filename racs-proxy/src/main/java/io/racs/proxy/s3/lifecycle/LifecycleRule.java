package io.racs.proxy.s3.lifecycle;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * One rule of a LifecycleConfiguration, as far as the proxy carries it out: which current versions
 * and uploads it applies to ({@link Filter}), when a current version expires ({@code
 * expirationDays} or {@code expirationDate}), whether a delete marker left without versions is
 * removed ({@code expiredObjectDeleteMarker}), and after how many days an incomplete upload is
 * aborted. Other actions are refused when the configuration is parsed.
 *
 * @param id the rule's {@code ID}, at most 255 characters; null when not given
 * @param enabled {@code Status}: Enabled or Disabled
 * @param expirationDays null unless the rule expires current versions after that many days
 * @param expirationDate null unless the rule expires current versions from that midnight UTC
 * @param expiredObjectDeleteMarker null unless given
 * @param abortIncompleteUploadDays null unless the rule aborts uploads that many days after they
 *     were started
 */
public record LifecycleRule(
    String id,
    boolean enabled,
    Filter filter,
    Integer expirationDays,
    Instant expirationDate,
    Boolean expiredObjectDeleteMarker,
    Integer abortIncompleteUploadDays) {
  /** The longest rule id S3 accepts. */
  public static final int MAX_ID_CHARS = 255;

  /**
   * What a rule applies to: keys under {@code prefix}, carrying every one of {@code tags}, and
   * larger than {@code sizeGreaterThan} and smaller than {@code sizeLessThan} bytes when those are
   * set.
   *
   * @param legacy true when given as the rule's own {@code Prefix} (the form before {@code
   *     Filter}), so that it is written back the same way
   */
  public record Filter(
      String prefix,
      Map<String, String> tags,
      Long sizeGreaterThan,
      Long sizeLessThan,
      boolean legacy) {
    /** Copies the tags; no prefix is the empty prefix. */
    public Filter {
      prefix = prefix == null ? "" : prefix;
      tags = tags == null ? Map.of() : Map.copyOf(tags);
    }

    /** True when an object of this key, size and tags is one the rule applies to. */
    public boolean matches(String key, long sizeBytes, Map<String, String> objectTags) {
      return key.startsWith(prefix)
          && (sizeGreaterThan == null || sizeBytes > sizeGreaterThan)
          && (sizeLessThan == null || sizeBytes < sizeLessThan)
          && tags.entrySet().stream()
              .allMatch(t -> t.getValue().equals(objectTags.get(t.getKey())));
    }
  }

  /**
   * Checks what S3 checks of one rule.
   *
   * @throws S3Exception {@code InvalidArgument} (an id too long, days not positive, a date not at
   *     midnight UTC, sizes that exclude every object, an upload rule with a tag or size filter),
   *     {@code MalformedXML} (both days and date), {@code InvalidRequest} (no action)
   */
  public LifecycleRule {
    if (id != null && id.codePointCount(0, id.length()) > MAX_ID_CHARS) {
      throw invalid("ID length should not exceed allowed limit of " + MAX_ID_CHARS);
    }
    if (expirationDays != null && expirationDate != null) {
      throw S3Exception.of(S3ErrorCode.MALFORMED_XML);
    }
    if (expirationDays != null && expirationDays < 1) {
      throw invalid("'Days' for Expiration action must be a positive integer");
    }
    if (expirationDate != null
        && !expirationDate.equals(
            expirationDate.atOffset(ZoneOffset.UTC).truncatedTo(ChronoUnit.DAYS).toInstant())) {
      throw invalid("'Date' must be at midnight GMT");
    }
    if (abortIncompleteUploadDays != null && abortIncompleteUploadDays < 1) {
      throw invalid(
          "'DaysAfterInitiation' for AbortIncompleteMultipartUpload action must be a positive integer");
    }
    if (expirationDays == null
        && expirationDate == null
        && expiredObjectDeleteMarker == null
        && abortIncompleteUploadDays == null) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST, "At least one action needs to be specified in a rule");
    }
    if (expiredObjectDeleteMarker != null && (expirationDays != null || expirationDate != null)) {
      throw S3Exception.of(S3ErrorCode.MALFORMED_XML);
    }
    if (filter == null) {
      filter = new Filter("", Map.of(), null, null, false);
    }
    if (filter.sizeGreaterThan() != null && filter.sizeGreaterThan() < 0
        || filter.sizeLessThan() != null && filter.sizeLessThan() < 1) {
      throw invalid("Object size must be a non-negative number");
    }
    if (filter.sizeGreaterThan() != null
        && filter.sizeLessThan() != null
        && filter.sizeGreaterThan() >= filter.sizeLessThan()) {
      throw invalid(
          "ObjectSizeGreaterThan must be less than ObjectSizeLessThan in the and operator");
    }
    if (abortIncompleteUploadDays != null
        && (!filter.tags().isEmpty()
            || filter.sizeGreaterThan() != null
            || filter.sizeLessThan() != null)) {
      throw invalid(
          "AbortIncompleteMultipartUpload cannot be specified with Tags or object size filters.");
    }
  }

  /**
   * True when this rule, enabled, expires the current version of {@code key} (of that size, last
   * modified then, with those tags) at {@code now}.
   */
  public boolean expires(
      String key, long sizeBytes, Instant lastModified, Map<String, String> tags, Instant now) {
    if (!enabled || !filter.matches(key, sizeBytes, tags)) {
      return false;
    }
    if (expirationDays != null) {
      return Expiration.expired(lastModified, expirationDays, now);
    }
    return expirationDate != null && Expiration.dateReached(expirationDate, now);
  }

  /** True when this rule, enabled, aborts an upload of {@code key} started at {@code initiated}. */
  public boolean abortsUpload(String key, Instant initiated, Instant now) {
    return enabled
        && abortIncompleteUploadDays != null
        && key.startsWith(filter.prefix())
        && Expiration.expired(initiated, abortIncompleteUploadDays, now);
  }

  private static S3Exception invalid(String message) {
    return S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, message);
  }
}
