package io.racs.proxy.store.object;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.store.api.MultipartStore;
import io.racs.proxy.store.api.MultipartStore.CompletedPart;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.ObjectStore.ObjectReader;
import io.racs.proxy.store.api.ObjectStore.PutOptions;
import io.racs.proxy.store.api.ObjectStore.Versioning;
import io.racs.proxy.store.api.ObjectStore.WriteCondition;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.ArrayHealth;
import io.racs.proxy.store.bucket.BucketCatalog;
import io.racs.proxy.store.commit.NullVersions;
import io.racs.proxy.store.commit.VersionRemovals;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.Sealing;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The writes of a key as its bucket's versioning state names them: a PUT, a copy, a delete, the
 * completion of a multipart upload and the removal of one version. Each reads the state once, tells
 * the write whether it makes the key's {@code null} version, and after it committed has the {@code
 * null} version it replaced removed in a suspended bucket ({@link NullVersions}); each tells {@link
 * ObjectReads} that the key's current version changed, and {@link ArrayHealth} of full disks.
 *
 * <p>Thread-safe; bodies are read on the calling thread.
 */
public final class VersionedWrites {
  private final BucketCatalog buckets;
  private final ArrayHealth health;
  private final ObjectWrites writes;
  private final ObjectReads reads;
  private final MultipartUploads uploads;
  private final VersionRemovals removals;
  private final NullVersions nulls;

  public VersionedWrites(
      BucketCatalog buckets,
      ArrayHealth health,
      ObjectWrites writes,
      ObjectReads reads,
      MultipartUploads uploads,
      VersionRemovals removals,
      NullVersions nulls) {
    this.buckets = buckets;
    this.health = health;
    this.writes = writes;
    this.reads = reads;
    this.uploads = uploads;
    this.removals = removals;
    this.nulls = nulls;
  }

  /** {@link ObjectStore#put}. */
  public VersionMeta put(
      String bucket,
      String key,
      InputStream body,
      long lengthBytes,
      PutOptions options,
      WriteCondition condition) {
    buckets.requireKey(bucket, key);
    PutOptions locked = withBucketLock(bucket, options);
    return newVersion(
        bucket,
        key,
        asNull -> writes.put(bucket, key, body, lengthBytes, locked, condition, asNull));
  }

  /**
   * {@code options} with the lock a version written now in {@code bucket} has: in a bucket with
   * object lock, the one asked for or {@link ObjectLock#NONE} (so that every version there can be
   * locked later); elsewhere none, and {@code OBJECT_LOCK_NOT_ENABLED} when one was asked for.
   */
  public PutOptions withBucketLock(String bucket, PutOptions options) {
    if (buckets.lockedRecently(bucket)) {
      return options.lock() == null ? options.withLock(ObjectLock.NONE) : options;
    }
    if (options.lock() != null && !options.lock().equals(ObjectLock.NONE)) {
      throw new StoreException(
          StoreException.Code.OBJECT_LOCK_NOT_ENABLED, "bucket " + bucket + " has no object lock");
    }
    return options.lock() == null ? options : options.withLock(null);
  }

  /**
   * Commits a new version of a key with {@code write}, told whether the version is the key's {@code
   * null} version (in a bucket whose versioning is not enabled), then has the one it replaces
   * removed ({@link #replacingNull}).
   */
  private VersionMeta newVersion(String bucket, String key, Function<Boolean, VersionMeta> write) {
    Versioning state = buckets.stateRecently(bucket);
    reads.superseded(bucket, key);
    return replacingNull(state, health.writing(() -> write.apply(state != Versioning.ENABLED)));
  }

  /**
   * After a write committed: in a suspended bucket it is the key's new {@code null} version, and
   * the one it replaces is removed once it has settled ({@link NullVersions}). In a bucket never
   * versioned the collector deletes it as it deletes every superseded version.
   */
  private VersionMeta replacingNull(Versioning state, VersionMeta written) {
    if (state == Versioning.SUSPENDED && written.nullVersion()) {
      nulls.supersedeLater(written.bucket(), written.key(), written.versionId());
    }
    // The next GET of the key through this proxy reads what was just written beside its listing,
    // as it would after a GET: a key this proxy wrote is warm (one round), not only one it read.
    reads.wrote(written);
    return written;
  }

  /** {@link ObjectStore#delete}. */
  public Optional<VersionMeta> delete(String bucket, String key, WriteCondition condition) {
    buckets.requireKey(bucket, key);
    Versioning state = buckets.stateRecently(bucket);
    reads.superseded(bucket, key);
    return health
        .writing(
            () ->
                writes.delete(
                    bucket, key, condition, state != Versioning.OFF, state != Versioning.ENABLED))
        .map(marker -> replacingNull(state, marker));
  }

  /** {@link ObjectStore#removeVersion}. */
  public Optional<VersionMeta> removeVersion(String bucket, String key, String versionId) {
    return removeVersion(bucket, key, versionId, false);
  }

  /** {@link io.racs.proxy.store.api.ObjectLocks#removeVersion}. */
  public Optional<VersionMeta> removeVersion(
      String bucket, String key, String versionId, boolean bypassGovernance) {
    buckets.requireKey(bucket, key);
    if (ObjectStore.NULL_VERSION.equals(versionId)) {
      reads.superseded(bucket, key);
      return health.writing(() -> nulls.remove(bucket, key));
    }
    if (!VersionId.valid(versionId)) {
      return Optional.empty(); // no version has such an id
    }
    reads.superseded(bucket, key);
    return health.writing(() -> removals.remove(bucket, key, versionId, bypassGovernance));
  }

  /** {@link ObjectStore#copy(String, String, String, String, PutOptions, WriteCondition)}. */
  public VersionMeta copy(
      String sourceBucket,
      String sourceKey,
      String bucket,
      String key,
      PutOptions replace,
      WriteCondition condition) {
    buckets.requireKey(bucket, key);
    try (ObjectReader source = reads.get(sourceBucket, sourceKey, 0, -1, 0, null)) {
      return copyFrom(source.meta(), source.body(), bucket, key, replace, Sealing.NONE, condition);
    }
  }

  /**
   * {@link ObjectStore#copy(VersionMeta, CustomerKey, String, String, PutOptions, Sealing,
   * WriteCondition)}.
   */
  public VersionMeta copy(
      VersionMeta source,
      CustomerKey sourceKey,
      String bucket,
      String key,
      PutOptions replace,
      Sealing target,
      WriteCondition condition) {
    buckets.requireKey(bucket, key);
    reads.checkKey(source, sourceKey);
    if (source.sizeBytes() == 0) {
      return copyFrom(
          source, InputStream.nullInputStream(), bucket, key, replace, target, condition);
    }
    try (ObjectReader reader = reads.read(source, 0, -1, sourceKey)) {
      return copyFrom(source, reader.body(), bucket, key, replace, target, condition);
    }
  }

  private VersionMeta copyFrom(
      VersionMeta meta,
      InputStream body,
      String bucket,
      String key,
      PutOptions replace,
      Sealing target,
      WriteCondition condition) {
    // A copy is sealed as its request asks (S3: the source's encryption is not inherited); the
    // bytes are opened with the source's key and sealed again with a new data key.
    PutOptions options =
        (replace != null
                ? replace
                : new PutOptions(
                    meta.contentType(),
                    meta.userMetadata(),
                    meta::checksums,
                    meta.contentHeaders(),
                    meta.tags()))
            .withSealing(target);
    return put(bucket, key, body, meta.sizeBytes(), options, condition);
  }

  /** {@link ObjectStore#completeMultipartUpload}. */
  public VersionMeta complete(
      String bucket,
      String key,
      String uploadId,
      List<CompletedPart> parts,
      MultipartStore.ObjectChecksums objectChecksums,
      WriteCondition condition) {
    return newVersion(
        bucket,
        key,
        asNull ->
            uploads.complete(bucket, key, uploadId, parts, objectChecksums, condition, asNull));
  }
}
