package io.racs.proxy.s3.tagging;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.PercentCodec;
import io.racs.proxy.s3.xml.XmlWriter;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A validated set of tags, as S3 checks them: at most {@link #MAX_OBJECT_TAGS} on an object ({@link
 * #MAX_BUCKET_TAGS} on a bucket), keys of 1 to 128 and values of 0 to 256 characters (Unicode code
 * points), no key twice, no key starting with {@code aws:} (a prefix S3 reserves for its own tags).
 * Too many tags is {@code BadRequest}, as S3 answers; every other violation is {@code InvalidTag}.
 *
 * <p>Immutable. Tags are kept and rendered in key order: S3 promises no order, and one order makes
 * what is stored independent of how the client listed them.
 */
public final class TagSet {
  /** The most tags S3 allows on one object. */
  public static final int MAX_OBJECT_TAGS = 10;

  /** The most tags S3 allows on one bucket. */
  public static final int MAX_BUCKET_TAGS = 50;

  /** The longest key, in characters. */
  public static final int MAX_KEY_CHARS = 128;

  /** The longest value, in characters. */
  public static final int MAX_VALUE_CHARS = 256;

  private static final TagSet EMPTY = new TagSet(new TreeMap<>());

  private final SortedMap<String, String> tags;

  private TagSet(SortedMap<String, String> tags) {
    this.tags = Collections.unmodifiableSortedMap(tags);
  }

  /** No tags. */
  public static TagSet empty() {
    return EMPTY;
  }

  /**
   * The tags {@code pairs} (key, value; in the order given), validated against the limits for an
   * object ({@code maxTags} {@link #MAX_OBJECT_TAGS}) or a bucket ({@link #MAX_BUCKET_TAGS}).
   *
   * @throws S3Exception {@code BadRequest} (more than {@code maxTags}) or {@code InvalidTag}
   */
  public static TagSet of(List<Map.Entry<String, String>> pairs, int maxTags) {
    if (pairs.size() > maxTags) {
      throw S3Exception.of(
          S3ErrorCode.BAD_REQUEST,
          (maxTags == MAX_BUCKET_TAGS ? "Bucket" : "Object")
              + " tags cannot be greater than "
              + maxTags);
    }
    SortedMap<String, String> tags = new TreeMap<>();
    for (Map.Entry<String, String> pair : pairs) {
      String key = pair.getKey();
      String value = pair.getValue() == null ? "" : pair.getValue();
      int keyChars = key.codePointCount(0, key.length());
      if (keyChars == 0) {
        throw invalid("The TagKey you have provided is invalid");
      }
      if (keyChars > MAX_KEY_CHARS) {
        throw invalid("The TagKey you have provided is too long, max " + MAX_KEY_CHARS);
      }
      if (value.codePointCount(0, value.length()) > MAX_VALUE_CHARS) {
        throw invalid("The TagValue you have provided is too long, max " + MAX_VALUE_CHARS);
      }
      if (key.regionMatches(true, 0, "aws:", 0, 4)) {
        throw invalid("Your TagKey cannot be prefixed with aws:");
      }
      if (tags.put(key, value) != null) {
        throw invalid("Cannot provide multiple Tags with the same key");
      }
    }
    return tags.isEmpty() ? EMPTY : new TagSet(tags);
  }

  /** The tags of a stored record (validated when they were stored). */
  public static TagSet stored(Map<String, String> tags) {
    return tags == null || tags.isEmpty() ? EMPTY : new TagSet(new TreeMap<>(tags));
  }

  /**
   * The tags of an {@code x-amz-tagging} header or a form's {@code tagging} query form: {@code
   * key=value} pairs joined by {@code &}, each URL-encoded ({@code +} is a space); a pair without
   * {@code =} has an empty value, and an empty header no tags.
   *
   * @throws S3Exception {@code InvalidArgument} (a bad escape), else as {@link #of}
   */
  public static TagSet fromQuery(String header) {
    List<Map.Entry<String, String>> pairs = new java.util.ArrayList<>();
    if (header != null && !header.isEmpty()) {
      for (String pair : header.split("&", -1)) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        try {
          String key = PercentCodec.decode(eq < 0 ? pair : pair.substring(0, eq), true);
          String value = eq < 0 ? "" : PercentCodec.decode(pair.substring(eq + 1), true);
          pairs.add(Map.entry(key, value));
        } catch (IllegalArgumentException e) {
          throw S3Exception.of(
                  S3ErrorCode.INVALID_ARGUMENT,
                  "The header 'x-amz-tagging' shall be encoded as UTF-8 then URLEncoded URL query"
                      + " parameters without tag name duplicates.")
              .withDetail("ArgumentName", "x-amz-tagging")
              .withDetail("ArgumentValue", header);
        }
      }
    }
    return of(pairs, MAX_OBJECT_TAGS);
  }

  /** The tags, by key in key order. */
  public Map<String, String> asMap() {
    return tags;
  }

  /** How many tags there are. */
  public int size() {
    return tags.size();
  }

  /** True when there are no tags. */
  public boolean isEmpty() {
    return tags.isEmpty();
  }

  /** The {@code Tagging} document of GetObjectTagging and GetBucketTagging. */
  public byte[] toXml() {
    XmlWriter w = XmlWriter.document().root("Tagging").start("TagSet");
    tags.forEach((k, v) -> w.start("Tag").element("Key", k).element("Value", v).end());
    return w.end().toBytes();
  }

  private static S3Exception invalid(String message) {
    return S3Exception.of(S3ErrorCode.INVALID_TAG, message);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TagSet other && tags.equals(other.tags);
  }

  @Override
  public int hashCode() {
    return tags.hashCode();
  }

  @Override
  public String toString() {
    return tags.toString();
  }
}
