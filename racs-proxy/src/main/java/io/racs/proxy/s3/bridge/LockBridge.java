package io.racs.proxy.s3.bridge;

import io.racs.proxy.store.api.ObjectLocks;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.VersionMeta;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The object lock half of the {@link StoreBridge}: bucket configurations, and the retention and
 * legal hold of versions, with store failures translated by {@link StoreErrors} as every other
 * bridge call's.
 */
public final class LockBridge {
  private final ObjectLocks locks;

  LockBridge(ObjectLocks locks) {
    this.locks = locks;
  }

  private static <T> T call(String resource, Supplier<T> call) {
    return StoreBridge.call(resource, call);
  }

  private static void run(String resource, Runnable call) {
    StoreBridge.run(resource, call);
  }

  private static String resource(ObjectVersion version) {
    VersionMeta stored = version.stored();
    return "/" + stored.bucket() + "/" + stored.key();
  }

  /**
   * Creates a bucket with object lock (and versioning enabled); {@code BucketAlreadyOwnedByYou}.
   */
  public void createLockedBucket(String bucket) {
    run("/" + bucket, () -> locks.createLockedBucket(bucket));
  }

  /** Turns object lock on in a bucket; {@code InvalidBucketState} unless it is versioned. */
  public void enableLock(String bucket) {
    run("/" + bucket, () -> locks.enableLock(bucket));
  }

  /** True when the bucket has object lock; {@code NoSuchBucket}. */
  public boolean lockEnabled(String bucket) {
    return call("/" + bucket, () -> locks.lockEnabled(bucket));
  }

  /** Stores the bucket's object lock configuration (rendered by the handler). */
  public void putConfiguration(String bucket, String configuration) {
    run("/" + bucket, () -> locks.putConfiguration(bucket, configuration));
  }

  /** The bucket's object lock configuration, if one was stored. */
  public Optional<String> configuration(String bucket) {
    return call("/" + bucket, () -> locks.configuration(bucket));
  }

  /** {@link #configuration} as a write asks it (possibly cached for a second). */
  public Optional<String> configurationRecently(String bucket) {
    return call("/" + bucket, () -> locks.configurationRecently(bucket));
  }

  /** The lock in force on {@code version}; empty when it cannot be locked. */
  public Optional<VersionLock> lockOf(ObjectVersion version) {
    if (version.deleteMarker() || version.stored().lock() == null) {
      return Optional.empty();
    }
    return call(
        resource(version),
        () -> Optional.ofNullable(StoreViews.lock(locks.lockOf(version.stored()))));
  }

  /**
   * Starts reading a key's locks beside the lookup of its version (a GET or HEAD); the function
   * answers {@link #lockOf} of the version found.
   */
  public Function<ObjectVersion, Optional<VersionLock>> lockLookup(String bucket, String key) {
    Function<VersionMeta, ObjectLock> lookup =
        call("/" + bucket + "/" + key, () -> locks.lockLookup(bucket, key));
    return version ->
        call(
            resource(version),
            () -> Optional.ofNullable(StoreViews.lock(lookup.apply(version.stored()))));
  }

  /** Sets (mode null: removes) the retention of {@code version}; {@code AccessDenied}. */
  public void putRetention(
      ObjectVersion version, String mode, Instant retainUntil, boolean bypassGovernance) {
    run(
        resource(version),
        () ->
            locks.putRetention(
                version.stored(),
                mode,
                retainUntil == null ? 0 : retainUntil.toEpochMilli(),
                bypassGovernance));
  }

  /** Turns the legal hold of {@code version} on or off. */
  public void putLegalHold(ObjectVersion version, boolean on) {
    run(resource(version), () -> locks.putLegalHold(version.stored(), on));
  }

  /** Removes one version, asking its lock first; {@code AccessDenied} when it keeps it. */
  public Optional<ObjectVersion> removeVersion(
      String bucket, String key, String versionId, boolean bypassGovernance) {
    return call(
        "/" + bucket + "/" + key,
        () ->
            locks
                .removeVersion(bucket, key, versionId, bypassGovernance)
                .map(ObjectVersion::versioned));
  }

  /** When a default retention set now starts (see {@link ObjectLocks#retentionStartMillis}). */
  public Instant retentionStart() {
    return Instant.ofEpochMilli(locks.retentionStartMillis());
  }
}
