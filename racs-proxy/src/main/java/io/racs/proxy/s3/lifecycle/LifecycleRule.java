package io.racs.proxy.s3.lifecycle;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * One rule of a LifecycleConfiguration, as far as the proxy carries it out: which versions and
 * uploads it applies to ({@link Filter}), when a current version expires ({@code expirationDays} or
 * {@code expirationDate}), when a noncurrent version is removed for good ({@code noncurrentDays}
 * after it became noncurrent, keeping the {@code newerNoncurrentVersions} newest), whether a delete
 * marker left without versions is removed ({@code expiredObjectDeleteMarker}), and after how many
 * days an incomplete upload is aborted. Other actions are refused when the configuration is parsed.
 *
 * @param id the rule's {@code ID}, at most 255 characters; null when not given
 * @param enabled {@code Status}: Enabled or Disabled
 * @param expirationDays null unless the rule expires current versions after that many days
 * @param expirationDate null unless the rule expires current versions from that midnight UTC
 * @param expiredObjectDeleteMarker null unless given
 * @param abortIncompleteUploadDays null unless the rule aborts uploads that many days after they
 *     were started
 * @param noncurrentDays null unless the rule removes noncurrent versions that many days after they
 *     became noncurrent ({@code NoncurrentVersionExpiration})
 * @param newerNoncurrentVersions null, or how many of a key's newest noncurrent versions the
 *     noncurrent rule keeps whatever their age (1 to 100)
 */
public record LifecycleRule(
    String id,
    boolean enabled,
    Filter filter,
    Integer expirationDays,
    Instant expirationDate,
    Boolean expiredObjectDeleteMarker,
    Integer abortIncompleteUploadDays,
    Integer noncurrentDays,
    Integer newerNoncurrentVersions) {
  /** The longest rule id S3 accepts. */
  public static final int MAX_ID_CHARS = 255;

  /** The most noncurrent versions a rule may keep ({@code NewerNoncurrentVersions}). */
  public static final int MAX_NEWER_NONCURRENT = 100;

  /** A rule without noncurrent-version actions. */
  public LifecycleRule(
      String id,
      boolean enabled,
      Filter filter,
      Integer expirationDays,
      Instant expirationDate,
      Boolean expiredObjectDeleteMarker,
      Integer abortIncompleteUploadDays) {
    this(
        id,
        enabled,
        filter,
        expirationDays,
        expirationDate,
        expiredObjectDeleteMarker,
        abortIncompleteUploadDays,
        null,
        null);
  }

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
    if (noncurrentDays != null && noncurrentDays < 1) {
      throw invalid(
          "'NoncurrentDays' for NoncurrentVersionExpiration action must be a positive integer");
    }
    if (newerNoncurrentVersions != null
        && (newerNoncurrentVersions < 1 || newerNoncurrentVersions > MAX_NEWER_NONCURRENT)) {
      throw invalid(
          "'NewerNoncurrentVersions' for NoncurrentVersionExpiration action must be a positive"
              + " integer up to "
              + MAX_NEWER_NONCURRENT);
    }
    if (newerNoncurrentVersions != null && noncurrentDays == null) {
      throw S3Exception.of(S3ErrorCode.MALFORMED_XML);
    }
    if (expirationDays == null
        && expirationDate == null
        && expiredObjectDeleteMarker == null
        && abortIncompleteUploadDays == null
        && noncurrentDays == null) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST, "At least one action needs to be specified in a rule");
    }
    if (expiredObjectDeleteMarker != null && (expirationDays != null || expirationDate != null)) {
      throw S3Exception.of(S3ErrorCode.MALFORMED_XML);
    }
    if (filter == null) {
      filter = new Filter("", Map.of(), null, null, false);
    }
    if (Boolean.TRUE.equals(expiredObjectDeleteMarker)
        && (!filter.tags().isEmpty()
            || filter.sizeGreaterThan() != null
            || filter.sizeLessThan() != null)) {
      // A delete marker has neither tags nor a size: such a filter could only be ignored.
      throw invalid("ExpiredObjectDeleteMarker cannot be specified with a tag or size filter");
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

  /**
   * When this rule, enabled, expires the current version of {@code key} (of that size, last
   * modified then, with those tags): its {@code Days} counted from {@code lastModified}, or its
   * {@code Date}; empty when it does not apply (what {@code x-amz-expiration} tells).
   */
  public java.util.Optional<Instant> expiresAt(
      String key, long sizeBytes, Instant lastModified, Map<String, String> tags) {
    if (!enabled || !filter.matches(key, sizeBytes, tags)) {
      return java.util.Optional.empty();
    }
    if (expirationDays != null) {
      return java.util.Optional.of(Expiration.expiresAt(lastModified, expirationDays));
    }
    return java.util.Optional.ofNullable(expirationDate);
  }

  /**
   * True when this rule, enabled, removes a noncurrent version of {@code key} (of that size and
   * tags) that became noncurrent at {@code becameNoncurrent} (when its successor was written), and
   * of which {@code newerNoncurrent} newer noncurrent versions of the key exist, at {@code now}:
   * {@code NoncurrentDays} counted as {@code Days} are, from the successor's time, and only past
   * the {@code NewerNoncurrentVersions} newest.
   */
  public boolean expiresNoncurrent(
      String key,
      long sizeBytes,
      Map<String, String> tags,
      Instant becameNoncurrent,
      int newerNoncurrent,
      Instant now) {
    return enabled
        && noncurrentDays != null
        && filter.matches(key, sizeBytes, tags)
        && (newerNoncurrentVersions == null || newerNoncurrent >= newerNoncurrentVersions)
        && Expiration.expired(becameNoncurrent, noncurrentDays, now);
  }

  /**
   * True when this rule, enabled, removes a delete marker of {@code key} that is the key's only
   * version left ({@code ExpiredObjectDeleteMarker}).
   */
  public boolean removesExpiredMarker(String key) {
    return enabled
        && Boolean.TRUE.equals(expiredObjectDeleteMarker)
        && key.startsWith(filter.prefix());
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
