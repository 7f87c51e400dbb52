package io.racs.proxy.store;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.store.api.BucketPolicies;
import io.racs.proxy.store.api.ObjectLocks;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.api.StoreStats;
import io.racs.proxy.store.array.ArrayHealth;
import io.racs.proxy.store.array.ArraySlots;
import io.racs.proxy.store.array.Identity;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.KeyStamps;
import io.racs.proxy.store.array.LayoutChanges;
import io.racs.proxy.store.array.RepositoryHealth;
import io.racs.proxy.store.array.RequestStalls;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.bucket.BucketCatalog;
import io.racs.proxy.store.bucket.BucketCoordinator;
import io.racs.proxy.store.bucket.BucketDocuments;
import io.racs.proxy.store.commit.Collector;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.Sealing;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.Maintenance;
import io.racs.proxy.store.object.KeyRotation;
import io.racs.proxy.store.object.Lister;
import io.racs.proxy.store.object.MultipartUploads;
import io.racs.proxy.store.object.ObjectReads;
import io.racs.proxy.store.object.VersionedWrites;
import io.racs.proxy.store.reshape.RecordedLayout;
import io.racs.proxy.store.stripe.PartWriter;
import io.racs.repos.Repository;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link ObjectStore} over an erasure-coded array: {@code k + m} repositories, one per slot.
 *
 * <p>A PUT streams the body into k data and m parity shards ({@link PartWriter}), one per
 * repository in an order rotated by the key, then commits by writing the version's {@link
 * VersionMeta} as an index entry on every repository ({@link QuorumWriter}); the PUT returns once a
 * write quorum holds it. Because an index entry is only written after its data is on a quorum, a
 * version is visible as soon as any reachable repository lists its entry, and the newest such
 * version wins ({@link VersionResolver}). Readers take the union of the index across all reachable
 * repositories ({@link IndexMerge}), so up to m repositories may be down, slow or wrong without
 * anyone noticing but the metrics. Superseded versions are deleted after each commit ({@link
 * Collector}); heal collects what failures leave behind.
 *
 * <p>This class is a facade: it hands each call to the part that owns it ({@link BucketCatalog},
 * {@link BucketDocuments}, {@link VersionedWrites}, {@link ObjectReads}, {@link Lister}, {@link
 * MultipartUploads}, through {@link ErasureUploads}), which checks its arguments; {@link
 * StoreTiers} builds the parts. Opening the array and admitting each repository to its slot belong
 * to {@link ArraySlots}; what operators are told about the slots, and about writes that full disks
 * failed, to {@link ArrayHealth}.
 *
 * <p>Each object operation runs as one request of {@link RequestStalls}: a repository it found
 * stalled in one phase is not waited for again in its later phases.
 */
public final class ErasureStore extends ErasureUploads implements ObjectStore, Maintenance {
  private ErasureStore(StoreConfig config, ArraySlots slots) {
    super(new StoreTiers(config, slots));
  }

  /**
   * Opens the array: checks every reachable repository's identity marker, creates the array on
   * empty repositories, and adopts an empty repository in a slot of an existing array (a replaced
   * disk or a new provider; heal then rebuilds it) when k others prove the slot is being replaced.
   * A repository that does not answer, or is empty without that proof, is kept out of the array
   * (every call on it is {@code UNAVAILABLE}, with the reason, which the log and {@link #health()}
   * say) until its marker is this array's again; the store serves degraded meanwhile.
   *
   * @throws StoreException {@code INCONSISTENT} when a repository belongs to another array or sits
   *     in the wrong slot, or the array record says the array is another layout than {@code
   *     config}'s geometry over these repositories (by name; {@link RecordedLayout}), and {@code
   *     INSUFFICIENT_SHARDS} when fewer than k repositories can take part (see {@link Identity})
   */
  public static ErasureStore open(StoreConfig config, List<Repository> repositories) {
    return inLayout(new ErasureStore(config, ArraySlots.open(config, repositories, false)));
  }

  /**
   * Opens the array for reading only: writes no identity marker and tolerates missing or empty
   * repositories, as {@code racs recover} needs when the proxy and some repositories are gone. The
   * layout is checked as {@link #open} checks it.
   */
  public static ErasureStore openReadOnly(StoreConfig config, List<Repository> repositories) {
    return inLayout(new ErasureStore(config, ArraySlots.open(config, repositories, true)));
  }

  /**
   * Opens the array for reading only, as {@link #openReadOnly}, whatever layout the array record
   * says the array has: for {@code racs reshape status}, which reports that record.
   */
  public static ErasureStore inspect(StoreConfig config, List<Repository> repositories) {
    return new ErasureStore(config, ArraySlots.open(config, repositories, true));
  }

  /**
   * {@code store}, once its configuration is the layout the array record says the array has ({@link
   * RecordedLayout}); stopped otherwise, its repositories left open as a failed open leaves them.
   */
  private static ErasureStore inLayout(ErasureStore store) {
    try {
      RecordedLayout.require(store);
      store.tiers.context.layoutFreshness.follow(); // read just now; new writes refused once stale
      store.tiers.followLayout(() -> RecordedLayout.follow(store), RecordedLayout.REFRESH_EVERY);
      return store;
    } catch (RuntimeException e) {
      store.tiers.stop();
      throw e;
    }
  }

  /** The array id (written in every repository's identity marker). */
  public String arrayId() {
    return tiers.context.arrayId;
  }

  /** The configuration. */
  public StoreConfig config() {
    return tiers.context.config;
  }

  /** Counters of degraded and repaired operations. */
  public StoreStats stats() {
    return tiers.context.stats;
  }

  /** The repositories, by slot. */
  public List<Repository> repositories() {
    return tiers.context.repositories();
  }

  /**
   * Each slot's state, for operators: every repository probed at once (no longer than the
   * slow-shard timeout); a slot kept out of the array, or adopted and not yet filled, says so.
   */
  public List<RepositoryHealth> health() {
    return tiers.health.report();
  }

  // What heal shares with the store.

  @Override
  public StoreContext context() {
    return tiers.context;
  }

  /** The slots behind their guards (the same objects as {@link #repositories()}). */
  @Override
  public ArraySlots slots() {
    return tiers.slots;
  }

  @Override
  public Collector collector() {
    return tiers.collector;
  }

  @Override
  public VersionResolver resolver() {
    return tiers.resolver;
  }

  @Override
  public MultipartUploads uploads() {
    return tiers.uploads;
  }

  /**
   * Waits until the collections of superseded versions started so far have finished, their pace
   * lifted meanwhile: heal calls it so as not to race the store's collector nor wait behind a paced
   * backlog (100,000 superseded versions take 1,000 s at the floor's pace); so can tests.
   */
  @Override
  public void awaitCollections() {
    tiers.collector.awaitCollectionsUnpaced();
  }

  /** The index entry that holds an inline version's shards. */
  public String inlineRecord(VersionMeta meta) {
    return tiers.reads.inlineRecord(meta);
  }

  // ---- buckets ----

  /**
   * Coordinates this store's bucket creates and deletes with other proxies over the same array (and
   * trusts its bucket cache only while the coordinator would hear of their changes). Call before
   * serving; {@link BucketCoordinator#NONE} until then.
   */
  public void coordinate(BucketCoordinator coordinator) {
    tiers.buckets.coordinate(coordinator);
  }

  /**
   * Registers every write of a key's index entries in its slot of {@code stamps}, and reads the
   * current version of a key whose slot has not changed since this store listed it without listing
   * it again ({@link KeyStamps}). Every proxy of the array must use the same stamps (docs/
   * coordination.md). Call before serving; {@link KeyStamps#NONE} until then.
   */
  public void coordinateKeys(KeyStamps stamps) {
    tiers.context.keyStamps(stamps);
  }

  /**
   * Hears of changes of the array record through {@code changes}, re-reading it at once and then
   * acknowledging once the writes begun before that re-read have ended, and lets the mover announce
   * and wait for the acknowledgements (docs/reshape.md §6). Every proxy of the array must use the
   * same {@code changes}. Call before serving.
   */
  public void coordinateLayout(LayoutChanges changes) {
    tiers.context.layoutChanges(changes);
    changes.listen(
        acknowledge ->
            tiers.followNow(() -> RecordedLayout.followAndAcknowledge(this, acknowledge)));
  }

  /** Whether a background re-read of some bucket's cached state runs (for tests). */
  boolean refreshingBucketState() {
    return tiers.buckets.refreshing() || tiers.documents.refreshing() || tiers.tags.refreshing();
  }

  /**
   * Forgets what this store cached of {@code bucket}: it was created or deleted through another
   * proxy. The coordinator calls it; bucket records themselves are never cached stale, since a
   * record never changes once written (nor do version records, which the version cache holds).
   */
  public void bucketChanged(String bucket) {
    tiers.buckets.forget(bucket);
    tiers.documents.forget(bucket);
  }

  /**
   * Forgets what this store cached of every bucket: changes through other proxies may have been
   * missed (the coordinator lost its session, or has it back).
   */
  public void bucketsChanged() {
    tiers.buckets.forgetAll();
    tiers.documents.forgetAll();
  }

  @Override
  public void createBucket(String bucket) {
    tiers.buckets.change(
        bucket,
        () -> {
          tiers.documents.forget(bucket);
          tiers.health.writing(() -> tiers.buckets.create(bucket));
        });
  }

  @Override
  public void deleteBucket(String bucket) {
    tiers.buckets.change(
        bucket,
        () -> {
          deleteEmptyBucket(bucket);
          tiers.documents.forget(bucket);
        });
  }

  private void deleteEmptyBucket(String bucket) {
    tiers.buckets.require(bucket);
    ListResult objects = tiers.lister.list(bucket, new ListRequest("", null, "", 1));
    if (!objects.objects().isEmpty()
        || (tiers.buckets.versioned(bucket) && tiers.lister.anyVersion(bucket))
        || !tiers.uploads.list(bucket, "").isEmpty()) {
      throw new StoreException(StoreException.Code.BUCKET_NOT_EMPTY, "bucket " + bucket);
    }
    tiers.buckets.markDeleted(bucket);
  }

  @Override
  public boolean bucketExists(String bucket) {
    return tiers.buckets.exists(bucket);
  }

  @Override
  public List<BucketInfo> listBuckets() {
    return tiers.buckets.list();
  }

  @Override
  public void putBucketCors(String bucket, String configuration) {
    tiers.documents.set(BucketDocuments.Kind.CORS, bucket, configuration);
  }

  @Override
  public Optional<String> bucketCors(String bucket) {
    return tiers.documents.get(BucketDocuments.Kind.CORS, bucket);
  }

  @Override
  public void deleteBucketCors(String bucket) {
    tiers.documents.change(BucketDocuments.Kind.CORS, bucket, null);
  }

  @Override
  public void putBucketTagging(String bucket, String tagging) {
    tiers.documents.set(BucketDocuments.Kind.TAGGING, bucket, tagging);
  }

  @Override
  public Optional<String> bucketTagging(String bucket) {
    return tiers.documents.get(BucketDocuments.Kind.TAGGING, bucket);
  }

  @Override
  public void deleteBucketTagging(String bucket) {
    tiers.documents.change(BucketDocuments.Kind.TAGGING, bucket, null);
  }

  @Override
  public void putBucketEncryption(String bucket, String configuration) {
    tiers.documents.set(BucketDocuments.Kind.ENCRYPTION, bucket, configuration);
  }

  @Override
  public Optional<String> bucketEncryption(String bucket) {
    return tiers.documents.get(BucketDocuments.Kind.ENCRYPTION, bucket);
  }

  @Override
  public Optional<String> bucketEncryptionRecently(String bucket) {
    return tiers.documents.getRecently(BucketDocuments.Kind.ENCRYPTION, bucket);
  }

  @Override
  public void deleteBucketEncryption(String bucket) {
    tiers.documents.change(BucketDocuments.Kind.ENCRYPTION, bucket, null);
  }

  @Override
  public void putBucketLifecycle(String bucket, String configuration) {
    tiers.documents.set(BucketDocuments.Kind.LIFECYCLE, bucket, configuration);
  }

  @Override
  public Optional<String> bucketLifecycle(String bucket) {
    return tiers.documents.get(BucketDocuments.Kind.LIFECYCLE, bucket);
  }

  @Override
  public void deleteBucketLifecycle(String bucket) {
    tiers.documents.change(BucketDocuments.Kind.LIFECYCLE, bucket, null);
  }

  /**
   * Serialised with the other proxies' changes of the bucket, as creates and deletes are, so that
   * they drop their cached versioning state before this answers: a write through any proxy that
   * begins after the change was acknowledged is named (a version id of its own, or the null
   * version) by the new state.
   */
  @Override
  public void setVersioning(String bucket, Versioning state) {
    tiers.buckets.change(
        bucket, () -> tiers.health.writing(() -> tiers.buckets.setVersioning(bucket, state)));
  }

  @Override
  public Versioning versioning(String bucket) {
    return tiers.buckets.stateRecently(bucket);
  }

  @Override
  public boolean versioned(String bucket) {
    return tiers.buckets.versionedRecently(bucket);
  }

  /**
   * Whether a bucket keeps every version, read from its records now (unless this store saw it
   * versioned just now): what heal asks before it collects a superseded version.
   */
  @Override
  public boolean keepsVersions(String bucket) {
    return tiers.buckets.versioned(bucket);
  }

  // ---- objects ----

  @Override
  public VersionMeta put(
      String bucket,
      String key,
      InputStream body,
      long lengthBytes,
      PutOptions options,
      WriteCondition condition) {
    return RequestStalls.within(
        () -> tiers.versioned.put(bucket, key, body, lengthBytes, options, condition));
  }

  @Override
  public ObjectReader get(
      String bucket,
      String key,
      long offset,
      long length,
      int partNumber,
      CustomerKey customerKey) {
    return RequestStalls.within(
        () -> tiers.reads.get(bucket, key, offset, length, partNumber, customerKey));
  }

  @Override
  public ObjectReader read(VersionMeta version, long offset, long length, CustomerKey customerKey) {
    return RequestStalls.within(() -> tiers.reads.read(version, offset, length, customerKey));
  }

  @Override
  public void checkKey(VersionMeta version, CustomerKey customerKey) {
    tiers.reads.checkKey(version, customerKey);
  }

  @Override
  public VersionMeta version(String bucket, String key, String versionId) {
    return RequestStalls.within(() -> exactVersion(bucket, key, versionId));
  }

  private VersionMeta exactVersion(String bucket, String key, String versionId) {
    BucketCatalog.checkName(bucket);
    StoreContext.checkKey(key);
    Optional<VersionMeta> found =
        NULL_VERSION.equals(versionId)
            ? tiers.resolver.nullVersion(bucket, key)
            : VersionId.valid(versionId)
                ? tiers.resolver.exact(bucket, key, versionId)
                : Optional.empty();
    if (found.isEmpty()) {
      tiers.buckets.require(bucket);
      throw new StoreException(
          StoreException.Code.NO_SUCH_VERSION, bucket + "/" + key + " version " + versionId);
    }
    return found.get();
  }

  /**
   * Forgets every version record this store read or wrote, and which version of each key it served
   * last: its next read of any key is cold, as through a proxy that has not read the key (another
   * proxy wrote it). For benchmarks of cold reads (racs bench object --array-cold); nothing else
   * needs it, since records never change.
   */
  public void forgetKeyCaches() {
    tiers.context.forgetRecords();
    tiers.reads.forgetServed();
  }

  @Override
  public VersionMeta head(String bucket, String key) {
    return RequestStalls.within(() -> tiers.reads.current(bucket, key));
  }

  @Override
  public Optional<VersionMeta> delete(String bucket, String key, WriteCondition condition) {
    return RequestStalls.within(() -> tiers.versioned.delete(bucket, key, condition));
  }

  @Override
  public ListResult list(String bucket, ListRequest request) {
    return RequestStalls.within(() -> listKeys(bucket, request));
  }

  private ListResult listKeys(String bucket, ListRequest request) {
    // The bucket's records and the listing in one round: a missing bucket still says so first.
    CompletableFuture<Void> exists = tiers.buckets.requireLater(bucket);
    ListResult result;
    try {
      result = tiers.lister.list(bucket, request);
    } catch (RuntimeException e) {
      BucketCatalog.await(exists);
      throw e;
    }
    BucketCatalog.await(exists);
    return result;
  }

  @Override
  public VersionListResult listVersions(String bucket, VersionListRequest request) {
    return RequestStalls.within(
        () -> {
          tiers.buckets.require(bucket);
          return tiers.lister.versions(bucket, request);
        });
  }

  @Override
  public Optional<VersionMeta> removeVersion(String bucket, String key, String versionId) {
    return RequestStalls.within(() -> tiers.versioned.removeVersion(bucket, key, versionId));
  }

  @Override
  public VersionMeta copy(
      String sourceBucket,
      String sourceKey,
      String bucket,
      String key,
      PutOptions replace,
      WriteCondition condition) {
    return RequestStalls.within(
        () -> tiers.versioned.copy(sourceBucket, sourceKey, bucket, key, replace, condition));
  }

  @Override
  public VersionMeta copy(
      VersionMeta source,
      CustomerKey sourceKey,
      String bucket,
      String key,
      PutOptions replace,
      Sealing target,
      WriteCondition condition) {
    return RequestStalls.within(
        () -> tiers.versioned.copy(source, sourceKey, bucket, key, replace, target, condition));
  }

  /**
   * Re-wraps every SSE-S3 data key not wrapped with the current master key (see {@link
   * KeyRotation}); with {@code dryRun}, only counts them.
   */
  public KeyRotation.Report rotateKeys(
      boolean dryRun, java.util.function.Consumer<String> progress) {
    return KeyRotation.rotate(tiers.context, dryRun, progress);
  }

  @Override
  public void putObjectTagging(VersionMeta version, Map<String, String> tagSet) {
    if (version.deleteMarker()) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT,
          "version: " + version.versionId() + " (expected: a version, not a delete marker)");
    }
    tiers.health.writing(() -> tiers.tags.put(version, tagSet));
  }

  @Override
  public List<ObjectTagging> objectTaggings(String bucket, String key) {
    StoreContext.checkKey(key);
    return tiers.tags.list(bucket, key);
  }

  @Override
  public ObjectLocks locks() {
    return tiers.locks;
  }

  @Override
  public BucketPolicies policies() {
    return tiers.policies;
  }

  @Override
  public void close() {
    tiers.close();
  }

  @Override
  public String toString() {
    return "ErasureStore[" + tiers.context.geometry + ", array " + tiers.context.arrayId + "]";
  }
}
