package io.racs.proxy.s3.lifecycle;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.S3XmlResponses;
import io.racs.proxy.s3.xml.XmlWriter;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A bucket's validated lifecycle rules: 1 to 1,000, ids unique.
 *
 * @param rules in the order given
 */
public record LifecycleConfiguration(List<LifecycleRule> rules) {
  /** The most rules of one configuration. */
  public static final int MAX_RULES = 1000;

  /**
   * Checks what S3 checks of the whole configuration.
   *
   * @throws S3Exception {@code MalformedXML} (no rule, too many), {@code InvalidArgument} (an id
   *     given twice)
   */
  public LifecycleConfiguration {
    rules = List.copyOf(rules);
    if (rules.isEmpty() || rules.size() > MAX_RULES) {
      throw S3Exception.of(S3ErrorCode.MALFORMED_XML);
    }
    Set<String> ids = new HashSet<>();
    for (LifecycleRule rule : rules) {
      if (rule.id() != null && !ids.add(rule.id())) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_ARGUMENT,
            "Rule ID must be unique. Found same ID for more than one rule");
      }
    }
  }

  /** When a current version expires, and by which rule (its id). */
  public record Expiry(Instant at, String ruleId) {}

  /**
   * The earliest expiry the enabled {@code Expiration} rules give this current version, as S3 tells
   * it in {@code x-amz-expiration}; empty when none applies.
   */
  public java.util.Optional<Expiry> expiry(
      String key, long sizeBytes, Instant lastModified, Map<String, String> tags) {
    Expiry earliest = null;
    for (LifecycleRule rule : rules) {
      java.util.Optional<Instant> at = rule.expiresAt(key, sizeBytes, lastModified, tags);
      if (at.isPresent() && (earliest == null || at.get().isBefore(earliest.at()))) {
        earliest = new Expiry(at.get(), rule.id());
      }
    }
    return java.util.Optional.ofNullable(earliest);
  }

  /** True when an enabled rule expires this current version at {@code now}. */
  public boolean expires(
      String key, long sizeBytes, Instant lastModified, Map<String, String> tags, Instant now) {
    return rules.stream().anyMatch(r -> r.expires(key, sizeBytes, lastModified, tags, now));
  }

  /** True when an enabled rule removes this noncurrent version (see {@link LifecycleRule}). */
  public boolean expiresNoncurrent(
      String key,
      long sizeBytes,
      Map<String, String> tags,
      Instant becameNoncurrent,
      int newerNoncurrent,
      Instant now) {
    return rules.stream()
        .anyMatch(
            r -> r.expiresNoncurrent(key, sizeBytes, tags, becameNoncurrent, newerNoncurrent, now));
  }

  /** True when an enabled rule removes a delete marker of this key left without versions. */
  public boolean removesExpiredMarker(String key) {
    return rules.stream().anyMatch(r -> r.removesExpiredMarker(key));
  }

  /**
   * True when an enabled rule acts on versions that are not current (noncurrent versions, or delete
   * markers left alone), which only a versioned bucket has.
   */
  public boolean actsOnVersions() {
    return rules.stream()
        .anyMatch(
            r ->
                r.enabled()
                    && (r.noncurrentDays() != null
                        || Boolean.TRUE.equals(r.expiredObjectDeleteMarker())));
  }

  /** True when an enabled rule aborts this incomplete upload at {@code now}. */
  public boolean abortsUpload(String key, Instant initiated, Instant now) {
    return rules.stream().anyMatch(r -> r.abortsUpload(key, initiated, now));
  }

  /** True when some enabled rule's filter needs the objects' tags. */
  public boolean needsTags() {
    return rules.stream().anyMatch(r -> r.enabled() && !r.filter().tags().isEmpty());
  }

  /**
   * The LifecycleConfiguration of GetBucketLifecycleConfiguration (and the stored document), rule
   * by rule in the order stored; a rule given with the older rule-level {@code Prefix} is written
   * back so.
   */
  public byte[] toXml() {
    XmlWriter w = XmlWriter.document().root("LifecycleConfiguration");
    for (LifecycleRule rule : rules) {
      w.start("Rule").optional("ID", rule.id());
      LifecycleRule.Filter f = rule.filter();
      if (f.legacy()) {
        w.element("Prefix", f.prefix());
      } else {
        w.start("Filter");
        int conditions =
            (f.prefix().isEmpty() ? 0 : 1)
                + f.tags().size()
                + (f.sizeGreaterThan() == null ? 0 : 1)
                + (f.sizeLessThan() == null ? 0 : 1);
        if (conditions > 1) {
          w.start("And");
        }
        if (!f.prefix().isEmpty() || conditions == 0) {
          w.element("Prefix", f.prefix());
        }
        f.tags().forEach((k, v) -> w.start("Tag").element("Key", k).element("Value", v).end());
        if (f.sizeGreaterThan() != null) {
          w.element("ObjectSizeGreaterThan", f.sizeGreaterThan());
        }
        if (f.sizeLessThan() != null) {
          w.element("ObjectSizeLessThan", f.sizeLessThan());
        }
        if (conditions > 1) {
          w.end();
        }
        w.end();
      }
      w.element("Status", rule.enabled() ? "Enabled" : "Disabled");
      if (rule.expirationDays() != null
          || rule.expirationDate() != null
          || rule.expiredObjectDeleteMarker() != null) {
        w.start("Expiration");
        if (rule.expirationDays() != null) {
          w.element("Days", rule.expirationDays());
        }
        if (rule.expirationDate() != null) {
          w.element("Date", S3XmlResponses.timestamp(rule.expirationDate()));
        }
        if (rule.expiredObjectDeleteMarker() != null) {
          w.element("ExpiredObjectDeleteMarker", rule.expiredObjectDeleteMarker());
        }
        w.end();
      }
      if (rule.noncurrentDays() != null) {
        w.start("NoncurrentVersionExpiration").element("NoncurrentDays", rule.noncurrentDays());
        if (rule.newerNoncurrentVersions() != null) {
          w.element("NewerNoncurrentVersions", rule.newerNoncurrentVersions());
        }
        w.end();
      }
      if (rule.abortIncompleteUploadDays() != null) {
        w.start("AbortIncompleteMultipartUpload")
            .element("DaysAfterInitiation", rule.abortIncompleteUploadDays())
            .end();
      }
      w.end();
    }
    return w.toBytes();
  }
}
