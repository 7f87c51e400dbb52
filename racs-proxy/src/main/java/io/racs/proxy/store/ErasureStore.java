package io.racs.proxy.store;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.codec.Geometry;
import io.racs.repos.Repository;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ObjectStore} over an erasure-coded array: {@code k + m} repositories, one per slot.
 *
 * <p>A PUT streams the body into k data and m parity shards ({@link PartWriter}), one per
 * repository in an order rotated by the key, then commits by writing the version's {@link
 * VersionMeta} as an index entry on every repository; the PUT returns once a write quorum holds it.
 * Because an index entry is only written after its data is on a quorum, a version is visible as
 * soon as any reachable repository lists its entry, and the newest such version wins. Readers take
 * the union of the index across all reachable repositories ({@link IndexMerge}), so up to m
 * repositories may be down, slow or wrong without anyone noticing but the metrics. Superseded
 * versions are deleted after each commit; heal collects what failures leave behind.
 */
public final class ErasureStore implements ObjectStore {
  private static final Logger LOG = LoggerFactory.getLogger(ErasureStore.class);
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  private static final int MAX_PARTS = 10_000;

  private final StoreConfig config;
  private final Geometry geometry;
  private final ErasureCodec codec;
  private final RepositoryArray array;
  private final StoreStats stats = new StoreStats();
  private final String arrayId;
  // Buckets seen to exist, until when (System.nanoTime): writes check their bucket here instead of
  // listing bucket records on every repository each time. A bucket deleted through another proxy
  // can take BUCKET_CACHE_NANOS to be refused here; one deleted through this store is forgotten
  // at once.
  private final ConcurrentHashMap<String, Long> bucketsSeen = new ConcurrentHashMap<>();
  private static final long BUCKET_CACHE_NANOS = 1_000_000_000L;
  // Superseded versions are deleted off the request path, by at most MAX_COLLECTIONS tasks at a
  // time; a write that finds them all busy collects on its own thread, so a backlog cannot grow
  // without bound. Whatever a crash or a failure leaves behind, heal collects.
  private static final int MAX_COLLECTIONS = 64;
  // Runs collections and the early reads of whole-object GETs.
  private final ExecutorService background = Executors.newVirtualThreadPerTaskExecutor();
  private final Semaphore collections = new Semaphore(MAX_COLLECTIONS);
  // Keys (bucket/key) whose collection is queued or running, each with the version everything
  // older than which goes: a write to such a key only moves the target, so the collections of one
  // key never race each other over the same records.
  private final ConcurrentHashMap<String, String> collecting = new ConcurrentHashMap<>();
  private final VersionCache versions = new VersionCache(16_384);
  // The version each recently read key had when it was last served (a hint for getWhole).
  private final VersionCache lastServed = new VersionCache(16_384);

  private ErasureStore(StoreConfig config, List<Repository> repositories, String arrayId) {
    this.config = config;
    this.geometry = config.geometry();
    this.codec = ErasureCodec.create(geometry);
    this.array =
        new RepositoryArray(
            repositories,
            config.slowShardTimeout().toNanos(),
            geometry.totalShards() - config.writeQuorum() + 1);
    this.arrayId = arrayId;
  }

  /**
   * Opens the array: checks every reachable repository's identity marker, creates the array on
   * empty repositories, and adopts an empty repository in a slot of an existing array (a replaced
   * disk or a new provider; heal then rebuilds it).
   *
   * @throws StoreException {@code INCONSISTENT} when a repository belongs to another array or sits
   *     in the wrong slot, and {@code INSUFFICIENT_SHARDS} when fewer than k repositories answer
   */
  public static ErasureStore open(StoreConfig config, List<Repository> repositories) {
    Geometry geometry = config.geometry();
    checkCount(geometry, repositories);
    String id = Identity.check(repositories, geometry, config.slowShardTimeout(), false);
    return new ErasureStore(config, repositories, id);
  }

  /**
   * Opens the array for reading only: writes no identity marker and tolerates missing or empty
   * repositories, as {@code racs recover} needs when the proxy and some repositories are gone.
   */
  public static ErasureStore openReadOnly(StoreConfig config, List<Repository> repositories) {
    checkCount(config.geometry(), repositories);
    String id = Identity.check(repositories, config.geometry(), config.slowShardTimeout(), true);
    return new ErasureStore(config, repositories, id);
  }

  private static void checkCount(Geometry geometry, List<Repository> repositories) {
    if (repositories.size() != geometry.totalShards()) {
      throw new IllegalArgumentException(
          "repositories: "
              + repositories.size()
              + " (expected: "
              + geometry.totalShards()
              + " for "
              + geometry
              + ")");
    }
  }

  /** The array id (written in every repository's identity marker). */
  public String arrayId() {
    return arrayId;
  }

  /** The configuration. */
  public StoreConfig config() {
    return config;
  }

  /** Counters of degraded and repaired operations. */
  public StoreStats stats() {
    return stats;
  }

  /** The repositories, by slot. */
  public List<Repository> repositories() {
    List<Repository> all = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      all.add(array.slot(i));
    }
    return all;
  }

  RepositoryArray array() {
    return array;
  }

  ErasureCodec codec() {
    return codec;
  }

  // ---- buckets ----

  /** A bucket record: the newest one of a bucket decides whether it exists. */
  record BucketRecord(String bucket, boolean deleted, long createdMillis) {}

  @Override
  public void createBucket(String bucket) {
    checkBucketName(bucket);
    if (bucketRecord(bucket).filter(r -> !r.deleted()).isPresent()) {
      throw new StoreException(StoreException.Code.BUCKET_ALREADY_EXISTS, "bucket " + bucket);
    }
    writeEverywhere(
        Layout.bucketRecord(bucket, VersionId.next()),
        Layout.encode(new BucketRecord(bucket, false, System.currentTimeMillis())),
        "create bucket " + bucket);
  }

  @Override
  public void deleteBucket(String bucket) {
    requireBucket(bucket);
    ListResult objects = list(bucket, new ListRequest("", null, "", 1));
    if (!objects.objects().isEmpty() || !listMultipartUploads(bucket, "").isEmpty()) {
      throw new StoreException(StoreException.Code.BUCKET_NOT_EMPTY, "bucket " + bucket);
    }
    writeEverywhere(
        Layout.bucketRecord(bucket, VersionId.next()),
        Layout.encode(new BucketRecord(bucket, true, System.currentTimeMillis())),
        "delete bucket " + bucket);
    bucketsSeen.remove(bucket);
  }

  @Override
  public boolean bucketExists(String bucket) {
    return bucketRecord(bucket).filter(r -> !r.deleted()).isPresent();
  }

  @Override
  public List<BucketInfo> listBuckets() {
    Map<String, IndexMerge.Entry> newest = new TreeMap<>();
    IndexMerge merge = new IndexMerge(array, Layout.bucketPrefix(), "", IndexMerge.maxPage());
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      String name = e.name().substring(2, e.name().lastIndexOf(Layout.SEPARATOR));
      newest.putIfAbsent(name, e); // newest version sorts first
    }
    requireReadQuorum(merge, "list buckets");
    List<BucketInfo> buckets = new ArrayList<>();
    for (IndexMerge.Entry e : newest.values()) {
      read(e, BucketRecord.class)
          .filter(r -> !r.deleted())
          .ifPresent(
              r ->
                  buckets.add(new BucketInfo(r.bucket(), Instant.ofEpochMilli(r.createdMillis()))));
    }
    return buckets;
  }

  private Optional<BucketRecord> bucketRecord(String bucket) {
    IndexMerge merge =
        new IndexMerge(array, Layout.bucketPrefix() + bucket + Layout.SEPARATOR, "", 10);
    IndexMerge.Entry newest = merge.next();
    requireReadQuorum(merge, "read bucket " + bucket);
    return newest == null ? Optional.empty() : read(newest, BucketRecord.class);
  }

  private void requireBucket(String bucket) {
    checkBucketName(bucket);
    Long until = bucketsSeen.get(bucket);
    if (until != null && until - System.nanoTime() > 0) {
      return;
    }
    if (!bucketExists(bucket)) {
      bucketsSeen.remove(bucket);
      throw new StoreException(StoreException.Code.NO_SUCH_BUCKET, "bucket " + bucket);
    }
    bucketsSeen.put(bucket, System.nanoTime() + BUCKET_CACHE_NANOS);
  }

  private static void checkBucketName(String bucket) {
    if (bucket == null || !BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT,
          "bucket name: " + bucket + " (expected: 3-63 of a-z, 0-9, '.', '-')");
    }
  }

  static void checkKey(String key) {
    if (key == null || key.isEmpty()) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT, "key: empty (expected: 1-1024 bytes)");
    }
    if (key.indexOf('\0') >= 0) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT,
          "key: contains U+0000 (expected: no NUL characters)");
    }
    int bytes = Layout.utf8Length(key);
    if (bytes > 1024) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT,
          "key: " + bytes + " bytes (expected: at most 1024)");
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isSurrogate(c)
          && !(Character.isHighSurrogate(c)
              && i + 1 < key.length()
              && Character.isLowSurrogate(key.charAt(++i)))) {
        throw new StoreException(
            StoreException.Code.INVALID_ARGUMENT,
            "key: unpaired surrogate (expected: valid UTF-8)");
      }
    }
  }

  // ---- objects ----

  @Override
  public VersionMeta put(
      String bucket, String key, InputStream body, long lengthBytes, PutOptions options) {
    requireBucket(bucket);
    checkKey(key);
    String versionId = VersionId.next();
    List<Integer> slots = slotsFor(bucket, key);
    InputStream rest = body;
    if (config.inlineLimit() > 0 && (lengthBytes < 0 || config.inlines(lengthBytes))) {
      byte[] head = readHead(body, lengthBytes);
      if (config.inlines(head.length)) {
        return putInline(bucket, key, versionId, slots, head, options);
      }
      rest = new SequenceInputStream(new ByteArrayInputStream(head), body);
    }
    PartWriter.Result written =
        PartWriter.write(array, codec, config, 1, versionId, slots, rest, lengthBytes);
    Map<String, String> checksums = options.checksums().get();
    PartMeta part = withChecksums(written.part(), checksums);
    VersionMeta meta = singlePartVersion(bucket, key, part, options, checksums);
    commit(meta, recordOf(meta), written.failures());
    return meta;
  }

  /**
   * Reads a body that may be small enough to inline: all of it when its length is known (checking
   * that length), else up to one byte more than the inline limit.
   */
  private byte[] readHead(InputStream body, long lengthBytes) {
    try {
      if (lengthBytes >= 0) {
        byte[] head = body.readNBytes((int) lengthBytes);
        if (head.length < lengthBytes) {
          throw new StoreException(
              StoreException.Code.INCOMPLETE_BODY,
              "body ended after " + head.length + " of " + lengthBytes + " bytes");
        }
        if (body.read() >= 0) {
          throw new StoreException(
              StoreException.Code.INCOMPLETE_BODY,
              "body longer than its declared length " + lengthBytes);
        }
        return head;
      }
      return body.readNBytes(config.inlineLimit() + 1);
    } catch (IOException | RuntimeException e) {
      if (e instanceof StoreException store) {
        throw store;
      }
      throw new StoreException(StoreException.Code.INCOMPLETE_BODY, "request body failed: " + e, e);
    }
  }

  /** The same record on every slot. */
  private static IntFunction<byte[]> recordOf(VersionMeta meta) {
    byte[] record = Layout.encode(meta);
    return slot -> record;
  }

  /** A small object: one stripe, each shard inside the version's record on its repository. */
  private VersionMeta putInline(
      String bucket,
      String key,
      String versionId,
      List<Integer> slots,
      byte[] data,
      PutOptions options) {
    byte[][] shards =
        data.length == 0
            ? new byte[geometry.totalShards()][0]
            : PartWriter.encodeStripe(codec, data, data.length, byte[]::new);
    Map<String, String> checksums = options.checksums().get();
    PartMeta part =
        new PartMeta(
            1,
            versionId,
            data.length,
            HexFormat.of().formatHex(PartWriter.md5().digest(data)),
            config.pieceBytes(),
            slots,
            checksums,
            true);
    VersionMeta meta = singlePartVersion(bucket, key, part, options, checksums);
    commit(meta, slot -> Layout.encodeInline(meta, shards[slots.indexOf(slot)]), List.of());
    return meta;
  }

  private VersionMeta singlePartVersion(
      String bucket, String key, PartMeta part, PutOptions options, Map<String, String> checksums) {
    return new VersionMeta(
        1,
        arrayId,
        bucket,
        key,
        part.dataId(),
        false,
        part.sizeBytes(),
        part.etag(),
        options.contentType(),
        options.userMetadata(),
        checksums,
        System.currentTimeMillis(),
        geometry.toString(),
        false,
        List.of(part));
  }

  private static PartMeta withChecksums(PartMeta part, Map<String, String> checksums) {
    return new PartMeta(
        part.partNumber(),
        part.dataId(),
        part.sizeBytes(),
        part.etag(),
        part.pieceBytes(),
        part.slots(),
        checksums,
        part.inline());
  }

  /** The form of {@code key} in entry names, fitting every repository of the array. */
  String nameKey(String bucket, String key) {
    return Layout.nameKey(
        bucket,
        key,
        name -> {
          if (!Layout.fitsKeyLimit(name)) {
            return false;
          }
          for (int slot = 0; slot < array.size(); slot++) {
            if (!array.slot(slot).accepts(name)) {
              return false;
            }
          }
          return true;
        });
  }

  /** Shard i of {@code key} goes to slot (rotation + i) mod n. */
  List<Integer> slotsFor(String bucket, String key) {
    int n = geometry.totalShards();
    int rotation = Layout.rotation(bucket, key, n);
    List<Integer> slots = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      slots.add((rotation + i) % n);
    }
    return slots;
  }

  /**
   * Makes {@code meta} visible: writes its index entry on every repository and needs a write quorum
   * of them. On failure the entries written are removed again and the data deleted, so nothing new
   * is visible.
   */
  private void commit(
      VersionMeta meta,
      IntFunction<byte[]> recordOnSlot,
      List<StoreException.ShardFailure> dataFailures) {
    String name =
        Layout.indexEntry(meta.bucket(), nameKey(meta.bucket(), meta.key()), meta.versionId());
    List<RepositoryArray.Outcome<Object>> outcomes =
        array.fanOut(
            (slot, repository) -> {
              RepositoryArray.putBytes(repository, name, recordOnSlot.apply(slot));
              return null;
            });
    int ok = RepositoryArray.successes(outcomes);
    if (ok < config.writeQuorum()) {
      List<StoreException.ShardFailure> failures = array.failures(outcomes);
      array.fanOut(
          (slot, repository) -> {
            repository.delete(name);
            return null;
          });
      deleteData(meta);
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          "committed on "
              + ok
              + " of "
              + array.size()
              + " repositories, fewer than the write quorum "
              + config.writeQuorum(),
          failures,
          null);
    }
    if (ok < array.size() || !dataFailures.isEmpty()) {
      stats.underReplicatedWrites.increment();
      LOG.info(
          "{}/{} version {} is under-replicated until heal: {} {}",
          meta.bucket(),
          meta.key(),
          meta.versionId(),
          array.failures(outcomes),
          dataFailures);
    }
    // Superseded versions go soon, so storage does not grow with overwrites; a reader still
    // streaming one may lose it (heal collects whatever this misses).
    collectLater(meta.bucket(), meta.key(), meta.versionId());
  }

  private void collectLater(String bucket, String key, String newest) {
    String id = bucket + "/" + key;
    boolean[] first = {false};
    collecting.compute(
        id,
        (k, target) -> {
          if (target == null) {
            first[0] = true;
            return newest;
          }
          return VersionId.newer(newest, target) ? newest : target;
        });
    if (!first[0]) {
      return; // the collection of this key under way goes on up to this version
    }
    if (!collections.tryAcquire()) {
      collectUntilSettled(bucket, key, id);
      return;
    }
    try {
      background.execute(
          () -> {
            try {
              collectUntilSettled(bucket, key, id);
            } finally {
              collections.release();
            }
          });
    } catch (RejectedExecutionException e) {
      collecting.remove(id);
      collections.release(); // closing: heal collects it
    }
  }

  /** Collects a key's superseded versions until no newer write has moved the target meanwhile. */
  private void collectUntilSettled(String bucket, String key, String id) {
    while (true) {
      String target = collecting.get(id);
      collectOlderVersions(bucket, key, target);
      if (collecting.remove(id, target)) {
        return;
      }
    }
  }

  /**
   * Waits until the collections of superseded versions started so far have finished: heal calls it
   * so that it does not race the store's own collector, and so can tests that count what is left.
   */
  void awaitCollections() {
    collections.acquireUninterruptibly(MAX_COLLECTIONS);
    collections.release(MAX_COLLECTIONS);
  }

  /** Deletes every version of a key older than {@code newest}: data first, then entries. */
  void collectOlderVersions(String bucket, String key, String newest) {
    try {
      IndexMerge merge =
          new IndexMerge(array, Layout.indexKeyPrefix(bucket, nameKey(bucket, key)), "", 100);
      for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
        String version = Layout.versionOf(e.name());
        if (!VersionId.newer(newest, version)) {
          continue;
        }
        String entryName = e.name();
        read(e, VersionMeta.class).ifPresent(this::deleteData);
        array.fanOut(
            (slot, repository) -> {
              repository.discard(entryName); // a superseded entry coming back is harmless
              return null;
            });
        versions.remove(entryName);
      }
    } catch (RuntimeException e) {
      // Best effort: heal collects what is left.
      LOG.debug("collecting old versions of {}/{} stopped: {}", bucket, key, e.toString());
    }
  }

  /** Deletes the shard objects of a version's parts (an inline version has none). */
  void deleteData(VersionMeta version) {
    for (PartMeta part : version.parts()) {
      if (!part.inline()) {
        PartWriter.deleteShards(array, part.slots(), part.dataId());
      }
    }
  }

  /**
   * Whether an entry is an inline version that certainly never committed: its records (which hold
   * its shards) are on fewer than k repositories even counting every one that did not answer. A
   * write that crashed while committing leaves such an entry; it must not hide the version before
   * it, and heal collects it.
   */
  boolean uncommittedInline(IndexMerge merge, IndexMerge.Entry e, VersionMeta meta) {
    return meta.parts().size() == 1
        && meta.parts().get(0).inline()
        && e.slots().size() + (array.size() - merge.healthySlots()) < geometry.dataShards();
  }

  /** The newest visible version of a key (possibly a delete marker), if any. */
  Optional<VersionMeta> newest(String bucket, String key) {
    IndexMerge merge =
        new IndexMerge(array, Layout.indexKeyPrefix(bucket, nameKey(bucket, key)), "", 10);
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      Optional<VersionMeta> meta = read(e, VersionMeta.class);
      if (meta.isPresent()
          && meta.get().key().equals(key)
          && !uncommittedInline(merge, e, meta.get())) {
        return meta;
      }
    }
    requireReadQuorum(merge, "read " + bucket + "/" + key);
    return Optional.empty();
  }

  private VersionMeta current(String bucket, String key) {
    checkBucketName(bucket);
    checkKey(key);
    // A live version proves its bucket exists (a bucket is deleted only when empty), so the
    // bucket is looked up only to tell a missing bucket from a missing key.
    Optional<VersionMeta> newest = newest(bucket, key).filter(meta -> !meta.deleteMarker());
    if (newest.isEmpty()) {
      requireBucket(bucket);
      throw new StoreException(StoreException.Code.NO_SUCH_KEY, bucket + "/" + key);
    }
    return newest.get();
  }

  @Override
  public VersionMeta head(String bucket, String key) {
    return current(bucket, key);
  }

  @Override
  public ObjectReader get(String bucket, String key, long offset, long length, int partNumber) {
    if (partNumber <= 0 && offset == 0 && length < 0) {
      return getWhole(bucket, key);
    }
    VersionMeta meta = current(bucket, key);
    if (partNumber <= 0) {
      return read(meta, offset, length);
    }
    List<PartMeta> parts = meta.parts();
    if (partNumber > parts.size()) {
      throw new StoreException(
          StoreException.Code.INVALID_RANGE,
          "part number " + partNumber + " of " + parts.size() + " parts");
    }
    long start = 0;
    for (int i = 0; i < partNumber - 1; i++) {
      start += parts.get(i).sizeBytes();
    }
    return reader(meta, start, start + parts.get(partNumber - 1).sizeBytes());
  }

  /**
   * A whole-object GET. Finding the newest version takes a listing on every repository; when this
   * store served the key before, it starts reading the version it served then at the same time, and
   * keeps that read if the listing confirms the version is still the newest (versions never change,
   * so the bytes are right), or drops it if not. A hot key then costs about one round of repository
   * calls rather than two.
   */
  private ObjectReader getWhole(String bucket, String key) {
    String hintKey = bucket + "/" + key;
    VersionMeta hint = lastServed.get(hintKey);
    CompletableFuture<PartReader> early = null;
    if (hint != null && hint.parts().size() == 1 && hint.sizeBytes() > 0) {
      PartReader tentative = partReader(hint, hint.parts().get(0), 0, hint.sizeBytes()).tentative();
      try {
        early = CompletableFuture.supplyAsync(tentative::open, background);
      } catch (RejectedExecutionException e) {
        early = null; // closing
      }
    }
    VersionMeta meta;
    try {
      meta = current(bucket, key);
    } catch (RuntimeException e) {
      discard(early);
      lastServed.remove(hintKey);
      throw e;
    }
    lastServed.put(hintKey, meta);
    if (early != null && hint.versionId().equals(meta.versionId())) {
      try {
        PartReader opened = early.get();
        opened.confirm(stats);
        return wrap(meta, opened, 0, meta.sizeBytes());
      } catch (ExecutionException e) {
        // Read it again below: the early read may have met a repository that has recovered since.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        discard(early);
        throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "interrupted", e);
      }
    } else {
      discard(early);
    }
    return read(meta, 0, -1);
  }

  /** A reader of bytes {@code [from, to)} of one part of {@code meta}. */
  private PartReader partReader(VersionMeta meta, PartMeta part, long from, long to) {
    PartReader reader = new PartReader(array, codec, config, stats, part, from, to);
    return part.inline() ? reader.inlineIn(inlineRecord(meta)) : reader;
  }

  /** The index entry that holds an inline version's shards. */
  String inlineRecord(VersionMeta meta) {
    return Layout.indexEntry(meta.bucket(), nameKey(meta.bucket(), meta.key()), meta.versionId());
  }

  /** Closes an early read whenever it finishes, without waiting for it. */
  private static void discard(CompletableFuture<PartReader> early) {
    if (early != null) {
      early.whenComplete(
          (reader, failure) -> {
            if (reader != null) {
              reader.close();
            }
          });
    }
  }

  @Override
  public ObjectReader read(VersionMeta meta, long offset, long length) {
    if (meta.deleteMarker()) {
      throw new StoreException(
          StoreException.Code.NO_SUCH_KEY, meta.bucket() + "/" + meta.key() + " (delete marker)");
    }
    long size = meta.sizeBytes();
    if (offset < 0 || (offset >= size && size > 0) || (size == 0 && offset > 0)) {
      throw new StoreException(
          StoreException.Code.INVALID_RANGE,
          "range start " + offset + " of an object of " + size + " bytes");
    }
    long end = length < 0 ? size : Math.min(size, offset + length);
    return reader(meta, offset, end);
  }

  private ObjectReader reader(VersionMeta meta, long start, long end) {
    return wrap(meta, openRange(meta, start, end), start, end);
  }

  private static ObjectReader wrap(VersionMeta meta, InputStream body, long start, long end) {
    long rangeStart = start;
    long rangeLength = end - start;
    return new ObjectReader() {
      @Override
      public VersionMeta meta() {
        return meta;
      }

      @Override
      public long rangeStart() {
        return rangeStart;
      }

      @Override
      public long rangeLength() {
        return rangeLength;
      }

      @Override
      public InputStream body() {
        return body;
      }

      @Override
      public void close() {
        try {
          body.close();
        } catch (IOException e) {
          // Part readers do not fail on close.
        }
      }
    };
  }

  /** Bytes {@code [start, end)} across parts; the first part is opened (and checked) now. */
  private InputStream openRange(VersionMeta meta, long start, long end) {
    List<PartMeta> parts = meta.parts();
    List<long[]> pieces = new ArrayList<>();
    long partStart = 0;
    for (int i = 0; i < parts.size(); i++) {
      long size = parts.get(i).sizeBytes();
      long from = Math.max(start, partStart);
      long to = Math.min(end, partStart + size);
      if (from < to) {
        pieces.add(new long[] {i, from - partStart, to - partStart});
      }
      partStart += size;
    }
    if (pieces.isEmpty()) {
      return InputStream.nullInputStream();
    }
    long[] first = pieces.get(0);
    PartReader opened = partReader(meta, parts.get((int) first[0]), first[1], first[2]).open();
    if (pieces.size() == 1) {
      return opened;
    }
    return new PartSequence(
        opened,
        pieces.size() - 1,
        next -> {
          long[] p = pieces.get(next + 1);
          return partReader(meta, parts.get((int) p[0]), p[1], p[2]).open();
        });
  }

  @Override
  public void delete(String bucket, String key) {
    requireBucket(bucket);
    checkKey(key);
    Optional<VersionMeta> newest = newest(bucket, key);
    if (newest.isEmpty() || newest.get().deleteMarker()) {
      return; // nothing to hide
    }
    String versionId = VersionId.next();
    VersionMeta marker =
        new VersionMeta(
            1,
            arrayId,
            bucket,
            key,
            versionId,
            true,
            0,
            "",
            null,
            null,
            null,
            System.currentTimeMillis(),
            geometry.toString(),
            false,
            List.of());
    commit(marker, recordOf(marker), List.of());
  }

  @Override
  public ListResult list(String bucket, ListRequest request) {
    requireBucket(bucket);
    String prefix = request.prefix() == null ? "" : request.prefix();
    String delimiter =
        request.delimiter() == null || request.delimiter().isEmpty() ? null : request.delimiter();
    int maxKeys = Math.max(0, Math.min(request.maxKeys(), 1000));
    String indexPrefix = Layout.indexPrefix(bucket);
    String startAfter = request.startAfter() == null ? "" : request.startAfter();
    String seekName = "";
    if (!startAfter.isEmpty()) {
      seekName = afterKey(indexPrefix, startAfter, prefix, delimiter);
    }
    IndexMerge merge = new IndexMerge(array, indexPrefix + prefix, seekName, 1000);
    List<VersionMeta> objects = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    String lastKeyName = null;
    String lastReturned = null;
    boolean truncated = false;
    IndexMerge.Entry e = merge.next();
    while (e != null) {
      String keyName = e.name().substring(0, e.name().lastIndexOf(Layout.SEPARATOR));
      if (keyName.equals(lastKeyName)) {
        e = merge.next(); // an older version of a key already handled
        continue;
      }
      Optional<VersionMeta> meta = read(e, VersionMeta.class);
      if (meta.isPresent() && uncommittedInline(merge, e, meta.get())) {
        e = merge.next(); // not a version: the key's next one decides
        continue;
      }
      lastKeyName = keyName;
      if (meta.isEmpty() || meta.get().deleteMarker()) {
        e = merge.next();
        continue;
      }
      String key = meta.get().key();
      if (delimiter != null) {
        int at = key.indexOf(delimiter, prefix.length());
        if (at >= 0) {
          String common = key.substring(0, at + delimiter.length());
          if (objects.size() + prefixes.size() >= maxKeys) {
            truncated = true;
            break;
          }
          prefixes.add(common);
          lastReturned = common;
          merge.seek(pastPrefix(indexPrefix, common));
          lastKeyName = null;
          e = merge.next();
          continue;
        }
      }
      if (objects.size() + prefixes.size() >= maxKeys) {
        truncated = true;
        break;
      }
      objects.add(meta.get());
      lastReturned = key;
      e = merge.next();
    }
    requireReadQuorum(merge, "list " + bucket);
    return new ListResult(
        objects,
        prefixes,
        truncated,
        truncated ? Optional.ofNullable(lastReturned) : Optional.empty());
  }

  /** The index name to list after so that keys after {@code startAfter} come next. */
  private static String afterKey(
      String indexPrefix, String startAfter, String prefix, String delimiter) {
    if (delimiter != null
        && startAfter.startsWith(prefix)
        && startAfter.endsWith(delimiter)
        && startAfter.indexOf(delimiter, prefix.length())
            == startAfter.length() - delimiter.length()) {
      return pastPrefix(indexPrefix, startAfter); // a common prefix: skip all keys under it
    }
    // Every version of startAfter sorts before startAfter + "\0g" (version ids are hex).
    return indexPrefix + startAfter + Layout.SEPARATOR + "g";
  }

  /** An index name after every key that starts with {@code common}. */
  private static String pastPrefix(String indexPrefix, String common) {
    return indexPrefix + common + "\uDBFF\uDFFF"; // U+10FFFF, the largest code point
  }

  @Override
  public VersionMeta copy(
      String sourceBucket, String sourceKey, String bucket, String key, PutOptions replace) {
    requireBucket(bucket);
    checkKey(key);
    try (ObjectReader source = get(sourceBucket, sourceKey, 0, -1, 0)) {
      VersionMeta meta = source.meta();
      PutOptions options =
          replace != null
              ? replace
              : new PutOptions(meta.contentType(), meta.userMetadata(), meta::checksums);
      return put(bucket, key, source.body(), meta.sizeBytes(), options);
    }
  }

  // ---- multipart ----

  /** A multipart upload in progress. */
  record UploadRecord(
      String bucket,
      String key,
      String uploadId,
      long initiatedMillis,
      String contentType,
      Map<String, String> userMetadata) {}

  /** One uploaded part. */
  record PartRecord(PartMeta part, long uploadedMillis) {}

  @Override
  public String createMultipartUpload(String bucket, String key, PutOptions options) {
    requireBucket(bucket);
    checkKey(key);
    String uploadId = VersionId.next();
    writeEverywhere(
        Layout.uploadRecord(bucket, nameKey(bucket, key), uploadId),
        Layout.encode(
            new UploadRecord(
                bucket,
                key,
                uploadId,
                System.currentTimeMillis(),
                options.contentType(),
                options.userMetadata())),
        "create upload for " + bucket + "/" + key);
    return uploadId;
  }

  private UploadRecord upload(String bucket, String key, String uploadId) {
    requireBucket(bucket);
    checkKey(key);
    if (!VersionId.valid(uploadId)) {
      throw new StoreException(StoreException.Code.NO_SUCH_UPLOAD, "upload " + uploadId);
    }
    IndexMerge merge =
        new IndexMerge(array, Layout.uploadRecord(bucket, nameKey(bucket, key), uploadId), "", 1);
    IndexMerge.Entry e = merge.next();
    requireReadQuorum(merge, "read upload " + uploadId);
    if (e == null
        || !e.name().equals(Layout.uploadRecord(bucket, nameKey(bucket, key), uploadId))) {
      throw new StoreException(StoreException.Code.NO_SUCH_UPLOAD, "upload " + uploadId);
    }
    return read(e, UploadRecord.class)
        .filter(r -> r.key().equals(key))
        .orElseThrow(
            () -> new StoreException(StoreException.Code.NO_SUCH_UPLOAD, "upload " + uploadId));
  }

  @Override
  public PartInfo uploadPart(
      String bucket,
      String key,
      String uploadId,
      int partNumber,
      InputStream body,
      long length,
      Supplier<Map<String, String>> checksums) {
    if (partNumber < 1 || partNumber > MAX_PARTS) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT,
          "part number: " + partNumber + " (expected: 1 to " + MAX_PARTS + ")");
    }
    upload(bucket, key, uploadId);
    Optional<PartRecord> previous =
        partRecords(bucket, key, uploadId).stream()
            .filter(r -> r.part().partNumber() == partNumber)
            .findFirst();
    String dataId = VersionId.next();
    PartWriter.Result written =
        PartWriter.write(
            array, codec, config, partNumber, dataId, slotsFor(bucket, key), body, length);
    long now = System.currentTimeMillis();
    PartMeta part = withChecksums(written.part(), checksums.get());
    writeEverywhere(
        Layout.partRecord(bucket, nameKey(bucket, key), uploadId, partNumber),
        Layout.encode(new PartRecord(part, now)),
        "record part " + partNumber);
    previous.ifPresent(
        old -> PartWriter.deleteShards(array, old.part().slots(), old.part().dataId()));
    return new PartInfo(
        partNumber, part.sizeBytes(), part.etag(), Instant.ofEpochMilli(now), part.checksums());
  }

  private List<PartRecord> partRecords(String bucket, String key, String uploadId) {
    String prefix = Layout.uploadRecord(bucket, nameKey(bucket, key), uploadId) + "/p";
    IndexMerge merge = new IndexMerge(array, prefix, "", 1000);
    List<PartRecord> parts = new ArrayList<>();
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      read(e, PartRecord.class).ifPresent(parts::add);
    }
    requireReadQuorum(merge, "list parts of " + uploadId);
    return parts;
  }

  @Override
  public List<PartInfo> listParts(String bucket, String key, String uploadId) {
    upload(bucket, key, uploadId);
    List<PartInfo> parts = new ArrayList<>();
    for (PartRecord r : partRecords(bucket, key, uploadId)) {
      parts.add(
          new PartInfo(
              r.part().partNumber(),
              r.part().sizeBytes(),
              r.part().etag(),
              Instant.ofEpochMilli(r.uploadedMillis()),
              r.part().checksums()));
    }
    return parts;
  }

  @Override
  public VersionMeta completeMultipartUpload(
      String bucket,
      String key,
      String uploadId,
      List<CompletedPart> parts,
      Function<List<PartMeta>, Map<String, String>> objectChecksums) {
    UploadRecord upload = upload(bucket, key, uploadId);
    if (parts.isEmpty()) {
      throw new StoreException(StoreException.Code.INVALID_PART, "no parts named");
    }
    Map<Integer, PartRecord> uploaded = new HashMap<>();
    for (PartRecord r : partRecords(bucket, key, uploadId)) {
      uploaded.put(r.part().partNumber(), r);
    }
    List<PartMeta> chosen = new ArrayList<>();
    MessageDigest md5s = PartWriter.md5();
    long size = 0;
    int last = 0;
    for (CompletedPart p : parts) {
      if (p.partNumber() <= last) {
        throw new StoreException(
            StoreException.Code.INVALID_PART_ORDER,
            "part " + p.partNumber() + " after part " + last);
      }
      last = p.partNumber();
    }
    for (int i = 0; i < parts.size(); i++) {
      CompletedPart p = parts.get(i);
      PartRecord r = uploaded.get(p.partNumber());
      if (r == null || !r.part().etag().equalsIgnoreCase(stripQuotes(p.etag()))) {
        throw new StoreException(
            StoreException.Code.INVALID_PART, "part " + p.partNumber() + " with ETag " + p.etag());
      }
      if (i < parts.size() - 1 && r.part().sizeBytes() < config.minPartBytes()) {
        throw new StoreException(
            StoreException.Code.ENTITY_TOO_SMALL,
            "part "
                + p.partNumber()
                + " is "
                + r.part().sizeBytes()
                + " bytes (minimum "
                + config.minPartBytes()
                + ")");
      }
      chosen.add(r.part());
      md5s.update(HexFormat.of().parseHex(r.part().etag()));
      size += r.part().sizeBytes();
    }
    String etag = HexFormat.of().formatHex(md5s.digest()) + "-" + chosen.size();
    VersionMeta meta =
        new VersionMeta(
            1,
            arrayId,
            bucket,
            key,
            VersionId.next(),
            false,
            size,
            etag,
            upload.contentType(),
            upload.userMetadata(),
            objectChecksums.apply(chosen),
            System.currentTimeMillis(),
            geometry.toString(),
            true,
            chosen);
    commit(meta, recordOf(meta), List.of());
    Set<String> kept = new java.util.HashSet<>();
    for (PartMeta part : chosen) {
      kept.add(part.dataId());
    }
    removeUpload(bucket, key, uploadId, uploaded.values(), kept);
    return meta;
  }

  private static String stripQuotes(String etag) {
    String e = etag == null ? "" : etag.trim();
    if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
      e = e.substring(1, e.length() - 1);
    }
    return e;
  }

  @Override
  public void abortMultipartUpload(String bucket, String key, String uploadId) {
    upload(bucket, key, uploadId);
    removeUpload(bucket, key, uploadId, partRecords(bucket, key, uploadId), Set.of());
  }

  private void removeUpload(
      String bucket, String key, String uploadId, Iterable<PartRecord> parts, Set<String> keep) {
    for (PartRecord r : parts) {
      if (!keep.contains(r.part().dataId())) {
        PartWriter.deleteShards(array, r.part().slots(), r.part().dataId());
      }
      String name =
          Layout.partRecord(bucket, nameKey(bucket, key), uploadId, r.part().partNumber());
      array.fanOut(
          (slot, repository) -> {
            repository.delete(name);
            return null;
          });
    }
    String record = Layout.uploadRecord(bucket, nameKey(bucket, key), uploadId);
    array.fanOut(
        (slot, repository) -> {
          repository.delete(record);
          return null;
        });
  }

  @Override
  public List<UploadInfo> listMultipartUploads(String bucket, String prefix) {
    requireBucket(bucket);
    String p = prefix == null ? "" : prefix;
    IndexMerge merge = new IndexMerge(array, Layout.uploadPrefix(bucket) + p, "", 1000);
    List<UploadInfo> uploads = new ArrayList<>();
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      if (Layout.isPartRecord(e.name())) {
        continue;
      }
      read(e, UploadRecord.class)
          .ifPresent(
              r ->
                  uploads.add(
                      new UploadInfo(
                          r.key(), r.uploadId(), Instant.ofEpochMilli(r.initiatedMillis()))));
    }
    requireReadQuorum(merge, "list uploads");
    return uploads;
  }

  // ---- shared helpers ----

  /** Reads a record listed at {@code e} from any slot that has an intact copy. */
  <T> Optional<T> read(IndexMerge.Entry e, Class<T> type) {
    boolean version = type == VersionMeta.class;
    if (version) {
      VersionMeta cached = versions.get(e.name());
      if (cached != null) {
        return Optional.of(type.cast(cached));
      }
    }
    for (int slot : e.slots()) {
      try {
        Optional<byte[]> bytes = RepositoryArray.getBytes(array.slot(slot), e.name());
        if (bytes.isPresent()) {
          Optional<T> record = Layout.decode(bytes.get(), type);
          if (record.isPresent()) {
            if (version) {
              versions.put(e.name(), (VersionMeta) record.get());
            }
            return record;
          }
          LOG.warn("damaged record {} on slot {}; using another copy", e.name(), slot);
        }
      } catch (RuntimeException ex) {
        LOG.debug("slot {} could not read {}: {}", slot, e.name(), ex.toString());
      }
    }
    return Optional.empty();
  }

  /** Writes a small record on every slot and needs a write quorum. */
  private void writeEverywhere(String name, byte[] record, String what) {
    List<RepositoryArray.Outcome<Object>> outcomes =
        array.fanOut(
            (slot, repository) -> {
              RepositoryArray.putBytes(repository, name, record);
              return null;
            });
    int ok = RepositoryArray.successes(outcomes);
    if (ok < config.writeQuorum()) {
      array.fanOut(
          (slot, repository) -> {
            repository.delete(name);
            return null;
          });
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          what
              + ": written on "
              + ok
              + " of "
              + array.size()
              + " repositories, fewer than the write quorum "
              + config.writeQuorum(),
          array.failures(outcomes),
          null);
    }
    if (ok < array.size()) {
      stats.underReplicatedWrites.increment();
    }
  }

  /**
   * A listing is only trusted when enough repositories answered that every committed record
   * (written to a write quorum) has a copy among them.
   */
  private void requireReadQuorum(IndexMerge merge, String what) {
    int needed = array.size() - config.writeQuorum() + 1;
    if (merge.healthySlots() < needed) {
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          what
              + ": "
              + merge.healthySlots()
              + " of "
              + array.size()
              + " repositories answered (need "
              + needed
              + ")",
          merge.failures(),
          null);
    }
  }

  @Override
  public void close() {
    awaitCollections();
    background.shutdown();
    array.close();
    for (int i = 0; i < array.size(); i++) {
      array.slot(i).close();
    }
  }

  @Override
  public String toString() {
    return "ErasureStore[" + geometry + ", array " + arrayId + "]";
  }
}
