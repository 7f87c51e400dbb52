package io.racs.proxy.store.api;

import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.VersionMeta;
import java.util.Optional;
import java.util.function.Function;

/**
 * S3 Object Lock: buckets whose versions may be kept by a retention or a legal hold, their default
 * retention (an opaque document the S3 layer validates and renders), and each version's lock.
 *
 * <p>A bucket has object lock from its creation ({@link #createLockedBucket}) or from when it is
 * turned on in a bucket whose versioning is enabled ({@link #enableLock}); it cannot be turned off,
 * and such a bucket's versioning cannot be suspended ({@code INVALID_BUCKET_STATE}). Every version
 * written in it has a lock ({@link VersionMeta#lock()}, {@link ObjectLock#NONE} for none); a
 * version written before object lock was turned on has none, and cannot be locked ({@code
 * OBJECT_LOCK_NOT_ENABLED}). Whether a version may be removed is decided in one place, the store's
 * removal rule, which every removal asks.
 *
 * <p>Thread-safe; calls block. Errors are {@link StoreException}s: {@code NO_SUCH_BUCKET}, {@code
 * OBJECT_LOCK_NOT_ENABLED}, {@code OBJECT_LOCKED} (a change the lock forbids), {@code
 * INSUFFICIENT_SHARDS}.
 */
public interface ObjectLocks {
  /** Creates a bucket with object lock and versioning enabled; {@code BUCKET_ALREADY_EXISTS}. */
  void createLockedBucket(String bucket);

  /**
   * Turns object lock on in an existing bucket (nothing when it is on); {@code
   * INVALID_BUCKET_STATE} unless its versioning is enabled.
   */
  void enableLock(String bucket);

  /** True when the bucket has object lock. */
  boolean lockEnabled(String bucket);

  /** Stores the bucket's object lock configuration (its default retention, rendered). */
  void putConfiguration(String bucket, String configuration);

  /** The bucket's object lock configuration as last stored, if any. */
  Optional<String> configuration(String bucket);

  /** {@link #configuration}, possibly as this store read it within a second (what writes ask). */
  Optional<String> configurationRecently(String bucket);

  /**
   * The lock in force on {@code version}: its record's, or the newest lock records' for it; null
   * when the version cannot be locked (a delete marker, a bucket without object lock).
   */
  ObjectLock lockOf(VersionMeta version);

  /**
   * Starts reading the lock records of a key now, beside the lookup of its version, so that a GET
   * or HEAD in a bucket with object lock still costs one round trip; the function answers {@link
   * #lockOf} of the version found, waiting for that read (and failing as it failed).
   */
  Function<VersionMeta, ObjectLock> lockLookup(String bucket, String key);

  /**
   * Sets the retention of {@code version} ({@code mode} null: removes it), as a lock record on a
   * write quorum. A {@code COMPLIANCE} retention in force can be neither shortened, removed nor
   * changed to {@code GOVERNANCE}; a {@code GOVERNANCE} one only with {@code bypassGovernance}
   * ({@code OBJECT_LOCKED} otherwise). Lengthening, or changing to {@code COMPLIANCE}, is allowed.
   */
  void putRetention(
      VersionMeta version, String mode, long retainUntilMillis, boolean bypassGovernance);

  /** Turns the legal hold of {@code version} on or off, as a lock record on a write quorum. */
  void putLegalHold(VersionMeta version, boolean on);

  /**
   * {@link ObjectStore#removeVersion}, asking the removal rule first: {@code OBJECT_LOCKED} when
   * the version is under a legal hold, a {@code COMPLIANCE} retention, or a {@code GOVERNANCE} one
   * not bypassed.
   */
  Optional<VersionMeta> removeVersion(
      String bucket, String key, String versionId, boolean bypassGovernance);

  /**
   * The time a default retention counts from: this proxy's clock, or the newest commit time it has
   * seen when that is later (a proxy whose clock is behind never sets a retention that ends early).
   */
  long retentionStartMillis();
}
