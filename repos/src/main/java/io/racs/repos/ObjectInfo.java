package io.racs.repos;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a repository knows about one stored object without reading it.
 *
 * @param key the object's key
 * @param sizeBytes the object's length
 * @param etag the provider's entity tag (S3's ETag, without quotes) when it has one; the {@code fs}
 *     and {@code memory} backends have none
 * @param lastModified when the object was last written, as the provider records it (S3 keeps whole
 *     seconds)
 */
public record ObjectInfo(String key, long sizeBytes, Optional<String> etag, Instant lastModified) {
  /** Checks the fields. */
  public ObjectInfo {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(etag, "etag");
    Objects.requireNonNull(lastModified, "lastModified");
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("sizeBytes: " + sizeBytes + " (expected: >= 0)");
    }
  }

  /** An object without an ETag. */
  public static ObjectInfo of(String key, long sizeBytes, Instant lastModified) {
    return new ObjectInfo(key, sizeBytes, Optional.empty(), lastModified);
  }
}
