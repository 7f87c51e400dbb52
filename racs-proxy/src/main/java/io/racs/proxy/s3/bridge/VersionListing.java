package io.racs.proxy.s3.bridge;

import java.util.List;
import java.util.Optional;

/**
 * A page of ListObjectVersions in a versioned bucket: every version and delete marker, keys in
 * order and each key's versions newest first, and the common prefixes.
 *
 * @param versions the versions, each with its id
 * @param latest for each of {@code versions}, whether it is its key's current version
 * @param nextKeyMarker the key (or common prefix) to continue after, when truncated
 * @param nextVersionIdMarker the version of {@code nextKeyMarker} to continue after, when truncated
 *     after a version rather than a common prefix
 */
public record VersionListing(
    List<ObjectVersion> versions,
    List<Boolean> latest,
    List<String> commonPrefixes,
    boolean truncated,
    Optional<String> nextKeyMarker,
    Optional<String> nextVersionIdMarker) {
  /** Copies the lists. */
  public VersionListing {
    versions = List.copyOf(versions);
    latest = List.copyOf(latest);
    commonPrefixes = List.copyOf(commonPrefixes);
  }
}
