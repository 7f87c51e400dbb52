package io.racs.proxy.s3.bridge;

import java.util.List;
import java.util.Optional;

/**
 * A page of a listing: the current versions and the common prefixes, in key order (UTF-8 binary).
 *
 * @param nextStartAfter the key or prefix to list after for the next page, when truncated
 */
public record ObjectListing(
    List<ObjectVersion> objects,
    List<String> commonPrefixes,
    boolean truncated,
    Optional<String> nextStartAfter) {
  /** Copies the lists. */
  public ObjectListing {
    objects = List.copyOf(objects);
    commonPrefixes = List.copyOf(commonPrefixes);
  }
}
