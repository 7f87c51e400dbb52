package io.racs.proxy.s3.bridge;

import java.util.Optional;

/**
 * A condition on a key's current version ({@code If-Match}, {@code If-None-Match}) that a write
 * checks just before it commits, after its body was read and its data stored. It refuses the write
 * by throwing (an {@code S3Exception}, which comes back from the bridge unchanged); the write then
 * removes what it stored. It is a check, not a lock: see the store's {@code WriteCondition}.
 */
@FunctionalInterface
public interface WriteCondition {
  /** No condition: the store does not even look up the current version. */
  WriteCondition NONE = currentEtag -> {};

  /**
   * Throws when the write must not happen.
   *
   * @param currentEtag the current version's ETag (unquoted); empty when the key has none or its
   *     newest version is a delete marker
   */
  void check(Optional<String> currentEtag);
}
