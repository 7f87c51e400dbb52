package io.racs.proxy.store.api;

import java.util.Optional;

/**
 * Buckets' access policies (issue #40): one document per bucket, opaque to the store (the S3 layer
 * validates it before it is stored and judges requests by it), kept like the other configuration
 * documents of a bucket: a record on a write quorum beside the bucket's records, the newest
 * deciding, never inherited by a bucket deleted and created again. Every request asks for its
 * bucket's policy, so proxies cache it for a second ({@link #getRecently}), and a change is
 * coordinated as a bucket change is, so that with coordination every proxy drops its copy before
 * the change is acknowledged.
 *
 * <p>Thread-safe; calls block. Errors are {@link StoreException}s: {@code NO_SUCH_BUCKET}, {@code
 * INSUFFICIENT_SHARDS}, {@code INVALID_ARGUMENT} (an empty document).
 */
public interface BucketPolicies {
  /** Stores the bucket's policy, replacing any earlier one. */
  void put(String bucket, String policy);

  /** The bucket's policy as last stored, read from a read quorum; empty when it has none. */
  Optional<String> get(String bucket);

  /** {@link #get}, possibly as this store read it within a second (what every request asks). */
  Optional<String> getRecently(String bucket);

  /** Removes the bucket's policy (none is no error). */
  void delete(String bucket);
}
