package io.racs.proxy.store.object;

import io.racs.proxy.store.api.ObjectLocks;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.ArrayHealth;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.bucket.BucketCatalog;
import io.racs.proxy.store.bucket.BucketDocuments;
import io.racs.proxy.store.commit.LockRecords;
import io.racs.proxy.store.commit.RemovalRule;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.VersionMeta;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The store's {@link ObjectLocks}: object lock on buckets (a flag of the bucket's records, see
 * {@link BucketCatalog#enableLock}), their configuration (a {@link
 * BucketDocuments.Kind#OBJECT_LOCK} document), and the lock of each version, changed by lock
 * records and judged by the {@link RemovalRule}.
 *
 * <p>Thread-safe; calls block.
 */
public final class ObjectLockStore implements ObjectLocks {
  private final StoreContext context;
  private final BucketCatalog buckets;
  private final BucketDocuments documents;
  private final ArrayHealth health;
  private final RemovalRule rule;
  private final VersionedWrites versioned;
  private final Executor background;

  public ObjectLockStore(
      StoreContext context,
      BucketCatalog buckets,
      BucketDocuments documents,
      ArrayHealth health,
      RemovalRule rule,
      VersionedWrites versioned,
      Executor background) {
    this.context = context;
    this.buckets = buckets;
    this.documents = documents;
    this.health = health;
    this.rule = rule;
    this.versioned = versioned;
    this.background = background;
  }

  @Override
  public void createLockedBucket(String bucket) {
    buckets.change(
        bucket,
        () -> {
          documents.forget(bucket);
          health.writing(() -> buckets.create(bucket, true));
        });
  }

  @Override
  public void enableLock(String bucket) {
    buckets.change(bucket, () -> health.writing(() -> buckets.enableLock(bucket)));
  }

  @Override
  public boolean lockEnabled(String bucket) {
    return buckets.lockedRecently(bucket);
  }

  @Override
  public void putConfiguration(String bucket, String configuration) {
    if (!buckets.lockedRecently(bucket)) {
      throw new StoreException(
          StoreException.Code.INVALID_BUCKET_STATE, "bucket " + bucket + " has no object lock");
    }
    documents.set(BucketDocuments.Kind.OBJECT_LOCK, bucket, configuration);
  }

  @Override
  public Optional<String> configuration(String bucket) {
    return documents.get(BucketDocuments.Kind.OBJECT_LOCK, bucket);
  }

  @Override
  public Optional<String> configurationRecently(String bucket) {
    return documents.getRecently(BucketDocuments.Kind.OBJECT_LOCK, bucket);
  }

  @Override
  public ObjectLock lockOf(VersionMeta version) {
    return rule.records().current(version);
  }

  @Override
  public Function<VersionMeta, ObjectLock> lockLookup(String bucket, String key) {
    if (!buckets.lockedRecently(bucket)) {
      return this::lockOf; // a version with a lock (written just after lock was turned on) reads it
    }
    CompletableFuture<List<LockRecords.LockRecord>> records =
        CompletableFuture.supplyAsync(() -> rule.records().list(bucket, key), background);
    return version -> {
      if (version.lock() == null || version.deleteMarker()) {
        return null;
      }
      try {
        return LockRecords.apply(version, records.join());
      } catch (CompletionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw e;
      }
    };
  }

  @Override
  public void putRetention(
      VersionMeta version, String mode, long retainUntilMillis, boolean bypassGovernance) {
    ObjectLock current = lockable(version);
    if (current.hasRetention() && loosens(current, mode, retainUntilMillis)) {
      RemovalRule.Verdict verdict = rule.judge(current.withLegalHold(false));
      boolean allowed =
          verdict == RemovalRule.Verdict.FREE
              || (verdict == RemovalRule.Verdict.GOVERNANCE && bypassGovernance);
      if (!allowed) {
        throw new StoreException(
            StoreException.Code.OBJECT_LOCKED,
            "the retention of "
                + version.bucket()
                + "/"
                + version.key()
                + " version "
                + version.versionId()
                + " can only be lengthened ("
                + verdict
                + ")");
      }
    }
    health.writing(() -> rule.records().putRetention(version, mode, retainUntilMillis));
  }

  /**
   * True when the new retention is weaker, or another: it ends earlier, is removed, or changes the
   * mode (S3 asks a bypass even to turn GOVERNANCE into COMPLIANCE, and allows nothing of a
   * COMPLIANCE retention in force but lengthening it).
   */
  private static boolean loosens(ObjectLock current, String mode, long retainUntilMillis) {
    return mode == null
        || retainUntilMillis < current.retainUntilMillis()
        || !mode.equals(current.mode());
  }

  @Override
  public void putLegalHold(VersionMeta version, boolean on) {
    lockable(version);
    health.writing(() -> rule.records().putLegalHold(version, on));
  }

  /** The lock in force on {@code version}; {@code OBJECT_LOCK_NOT_ENABLED} when it has none. */
  private ObjectLock lockable(VersionMeta version) {
    ObjectLock current = rule.records().current(version);
    if (current == null) {
      throw new StoreException(
          StoreException.Code.OBJECT_LOCK_NOT_ENABLED,
          version.bucket()
              + "/"
              + version.key()
              + " version "
              + version.versionId()
              + " was not written under object lock");
    }
    return current;
  }

  @Override
  public Optional<VersionMeta> removeVersion(
      String bucket, String key, String versionId, boolean bypassGovernance) {
    return versioned.removeVersion(bucket, key, versionId, bypassGovernance);
  }

  @Override
  public long retentionStartMillis() {
    return Math.max(context.config.clock().millis(), context.ids.newestMicros() / 1000);
  }
}
