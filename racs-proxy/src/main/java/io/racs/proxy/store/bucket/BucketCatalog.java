package io.racs.proxy.store.bucket;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.format.Layout;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Buckets: their records on the repositories (each create or delete writes a new record; the newest
 * one of a bucket decides whether it exists) and a short cache of buckets seen to exist, so that
 * writes need not list bucket records on every repository each time.
 *
 * <p>Thread-safe. Without coordination, a bucket deleted through another proxy can take {@link
 * #CACHE_NANOS} to be refused here; one deleted through this store is forgotten at once. With
 * coordination ({@link BucketCoordinator}), another proxy's change is {@link #forget forgotten} as
 * soon as this proxy hears of it, and the cache is not used while it could not hear of one.
 *
 * <p>A bucket's state in use is read again in the background once it is three quarters that old
 * ({@link RefreshAhead}), so that writes and listings find it cached rather than each second one of
 * them waiting for a listing of the bucket's records. Ages are taken on {@link
 * StoreConfig#ticker()}.
 */
public final class BucketCatalog {
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  public static final long CACHE_NANOS = 1_000_000_000L;
  private static final int MAX_CACHED_RECORDS = 10_000;

  /**
   * A bucket record: the newest one of a bucket decides whether it exists and its versioning state.
   *
   * @param versioning {@code "Enabled"} once versioning was turned on, {@code "Suspended"} once it
   *     was suspended, null for a bucket that was never versioned (records written before
   *     versioning existed decode so too)
   * @param objectLock true once object lock was turned on (it never goes off while the bucket
   *     lives; records written before object lock existed decode as false)
   */
  record BucketRecord(
      String bucket, boolean deleted, long createdMillis, String versioning, boolean objectLock) {}

  static final String ENABLED = "Enabled";
  static final String SUSPENDED = "Suspended";

  private final StoreContext context;
  private final QuorumWriter writer;
  // Buckets seen to exist, until when (the ticker).
  private final ConcurrentHashMap<String, Long> seen = new ConcurrentHashMap<>();
  // Bucket records by name: they never change, so the collector's check of a bucket's versioning
  // costs one listing and no read of a record seen before.
  private final ConcurrentHashMap<String, BucketRecord> records = new ConcurrentHashMap<>();
  // Buckets seen versioned, until when (the ticker). Only the versioned state is cached for
  // the decision to keep versions: a bucket not yet seen versioned is read again each time, so that
  // versioning turned on through another proxy keeps every version written after it.
  private final ConcurrentHashMap<String, Long> versioned = new ConcurrentHashMap<>();
  // Each bucket's versioning state as last read, until when (the ticker): what a request's
  // answer (its x-amz-version-id, or whether a delete writes a marker) goes by, so that writes in a
  // bucket never versioned cost no extra repository round trip.
  private final ConcurrentHashMap<String, State> known = new ConcurrentHashMap<>();

  private record State(ObjectStore.Versioning versioning, boolean objectLock, long untilNanos) {}

  // Counts the changes heard of: a state read before one is not cached after it, so that a read
  // that raced a change cannot put back what the change made stale.
  private final AtomicLong forgets = new AtomicLong();
  private volatile BucketCoordinator coordinator = BucketCoordinator.NONE;
  private final RefreshAhead refresh;
  private final Executor background;

  public BucketCatalog(StoreContext context, QuorumWriter writer, Executor background) {
    this.context = context;
    this.writer = writer;
    this.refresh = new RefreshAhead(background);
    this.background = background;
  }

  private long now() {
    return context.config.ticker().getAsLong();
  }

  /** Whether a background re-read of some bucket's state is running (for tests). */
  public boolean refreshing() {
    return refresh.running();
  }

  public void coordinate(BucketCoordinator coordinator) {
    this.coordinator = coordinator;
  }

  public BucketCoordinator coordinator() {
    return coordinator;
  }

  /** Drops what is cached of {@code bucket}'s state: it was changed through another proxy. */
  public void forget(String bucket) {
    forgets.incrementAndGet();
    seen.remove(bucket);
    versioned.remove(bucket);
    known.remove(bucket);
  }

  /** Drops what is cached of every bucket's state. */
  public void forgetAll() {
    forgets.incrementAndGet();
    seen.clear();
    versioned.clear();
    known.clear();
  }

  private boolean cacheUsable() {
    return coordinator.cacheTrusted();
  }

  public void create(String bucket) {
    create(bucket, false);
  }

  /**
   * Creates a bucket; with {@code objectLock}, with object lock and versioning enabled for good
   * (see {@link #enableLock}).
   */
  public void create(String bucket, boolean objectLock) {
    checkName(bucket);
    Optional<BucketRecord> newest = newestRecord(bucket);
    if (newest.isPresent() && !newest.get().deleted()) {
      throw new StoreException(StoreException.Code.BUCKET_ALREADY_EXISTS, "bucket " + bucket);
    }
    // Later than the record of the bucket's deletion (whose time is at or after the old bucket's
    // creation), even within its millisecond: the creation time tells this bucket's documents
    // (CORS, tags, lifecycle, encryption) from those of the bucket of the same name before it.
    long now = context.config.clock().millis();
    long created = newest.map(r -> Math.max(now, r.createdMillis() + 1)).orElse(now);
    writeRecord(
        new BucketRecord(bucket, false, created, objectLock ? ENABLED : null, objectLock),
        "create bucket ");
    if (objectLock) {
      forget(bucket);
    }
  }

  /**
   * Turns object lock on in a bucket whose versioning is enabled ({@code INVALID_BUCKET_STATE}
   * otherwise): a new record of the bucket, as created. It is never turned off, and the bucket's
   * versioning can then no longer be suspended. A write through another proxy may miss it for up to
   * {@link #CACHE_NANOS} (its version then has no lock, and cannot be locked later).
   */
  public void enableLock(String bucket) {
    checkName(bucket);
    BucketRecord current = current(bucket);
    if (current.objectLock()) {
      return;
    }
    if (!ENABLED.equals(current.versioning())) {
      throw new StoreException(
          StoreException.Code.INVALID_BUCKET_STATE,
          "object lock needs versioning enabled on bucket " + bucket);
    }
    writeRecord(
        new BucketRecord(bucket, false, current.createdMillis(), ENABLED, true), "lock bucket ");
    forget(bucket);
  }

  /**
   * Whether the bucket has object lock, as this store read it within {@link #CACHE_NANOS} (see
   * {@link #stateRecently}): what a write goes by to give its version a lock.
   */
  public boolean lockedRecently(String bucket) {
    stateRecently(bucket);
    State state = known.get(bucket);
    return state != null ? state.objectLock() : current(bucket).objectLock();
  }

  /** Writes the record that deletes a bucket; the caller has checked that it is empty. */
  public void markDeleted(String bucket) {
    writeRecord(
        new BucketRecord(bucket, true, context.config.clock().millis(), null, false),
        "delete bucket ");
    forget(bucket); // and a read that began before the record was written does not cache after it
  }

  /**
   * Sets the bucket's versioning state ({@code Enabled} or {@code Suspended}): writes a new record
   * of the bucket, as created, with that state. Versioning cannot be turned off again, only
   * suspended, and a suspended bucket keeps every version it has (only its {@code null} version is
   * replaced by the next write), so that the bucket keeps versions, once seen, may be cached.
   */
  public void setVersioning(String bucket, ObjectStore.Versioning state) {
    checkName(bucket);
    if (state == ObjectStore.Versioning.OFF) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT,
          "versioning: " + state + " (expected: ENABLED or SUSPENDED)");
    }
    BucketRecord current =
        newestRecord(bucket)
            .filter(r -> !r.deleted())
            .orElseThrow(
                () -> new StoreException(StoreException.Code.NO_SUCH_BUCKET, "bucket " + bucket));
    String status = state == ObjectStore.Versioning.ENABLED ? ENABLED : SUSPENDED;
    if (current.objectLock() && state != ObjectStore.Versioning.ENABLED) {
      throw new StoreException(
          StoreException.Code.INVALID_BUCKET_STATE,
          "versioning of bucket " + bucket + " cannot be suspended: it has object lock");
    }
    if (!status.equals(current.versioning())) {
      writeRecord(
          new BucketRecord(bucket, false, current.createdMillis(), status, current.objectLock()),
          "version bucket ");
    }
    forgets.incrementAndGet(); // a state read before this change is not cached after it
    versioned.put(bucket, now() + CACHE_NANOS);
    known.put(bucket, new State(state, current.objectLock(), now() + CACHE_NANOS));
  }

  /**
   * The bucket's versioning state as this store last read it, if that was within {@link
   * #CACHE_NANOS}, else read now: what a request answers and whether a write is the {@code null}
   * version, not whether anything may be deleted. A change through another proxy may take that long
   * to be seen here (without coordination).
   */
  public ObjectStore.Versioning stateRecently(String bucket) {
    State state = known.get(bucket);
    long now = now();
    if (state != null && state.untilNanos() - now > 0 && cacheUsable()) {
      refresh.ifDue(bucket, state.untilNanos(), now, () -> readExistence(bucket));
      return state.versioning();
    }
    return readState(bucket);
  }

  /**
   * Whether the bucket was ever versioned ({@link #stateRecently} not {@code OFF}), as this store
   * last read it: for what a request answers, not for deciding to delete anything.
   */
  public boolean versionedRecently(String bucket) {
    return stateRecently(bucket) != ObjectStore.Versioning.OFF;
  }

  /**
   * True when the bucket keeps every version, that is when versioning was ever turned on, enabled
   * or suspended now ({@code NO_SUCH_BUCKET} if it does not exist). Read from the bucket's records
   * unless this store saw it versioned just now; a read that finds fewer than a read quorum throws,
   * so a caller about to delete a superseded version deletes nothing.
   */
  public boolean versioned(String bucket) {
    Long until = versioned.get(bucket);
    if (until != null && until - now() > 0) {
      return true; // versioning is never turned off, so this stays true whatever happens elsewhere
    }
    return readState(bucket) != ObjectStore.Versioning.OFF;
  }

  /**
   * Reads the bucket's versioning state from its newest record, and caches what it read for {@link
   * #CACHE_NANOS} from when the read began.
   */
  private ObjectStore.Versioning readState(String bucket) {
    long began = now();
    long before = forgets.get();
    BucketRecord current =
        newestRecord(bucket)
            .filter(r -> !r.deleted())
            .orElseThrow(
                () -> new StoreException(StoreException.Code.NO_SUCH_BUCKET, "bucket " + bucket));
    ObjectStore.Versioning state =
        ENABLED.equals(current.versioning())
            ? ObjectStore.Versioning.ENABLED
            : SUSPENDED.equals(current.versioning())
                ? ObjectStore.Versioning.SUSPENDED
                : ObjectStore.Versioning.OFF;
    if (state != ObjectStore.Versioning.OFF) {
      versioned.put(bucket, began + CACHE_NANOS);
    } else {
      versioned.remove(bucket);
    }
    if (forgets.get() == before) {
      known.put(bucket, new State(state, current.objectLock(), began + CACHE_NANOS));
    }
    return state;
  }

  private void writeRecord(BucketRecord record, String what) {
    String name = Layout.bucketRecord(record.bucket(), context.ids.next());
    writer.write(name, Layout.encode(record), what + record.bucket());
    remember(name, record);
  }

  private void remember(String name, BucketRecord record) {
    if (records.size() >= MAX_CACHED_RECORDS) {
      records.clear(); // buckets are few; this only bounds a pathological churn
    }
    records.put(name, record);
  }

  public boolean exists(String bucket) {
    return newestRecord(bucket).filter(r -> !r.deleted()).isPresent();
  }

  public List<ObjectStore.BucketInfo> list() {
    Map<String, IndexMerge.Entry> newest = new TreeMap<>();
    IndexMerge merge =
        new IndexMerge(context.array, Layout.bucketPrefix(), "", IndexMerge.maxPage());
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      String name = e.name().substring(2, e.name().lastIndexOf(Layout.SEPARATOR));
      newest.putIfAbsent(name, e); // newest version sorts first
    }
    context.requireReadQuorum(merge, "list buckets");
    List<ObjectStore.BucketInfo> buckets = new ArrayList<>();
    for (IndexMerge.Entry e : newest.values()) {
      context
          .read(e, BucketRecord.class)
          .filter(r -> !r.deleted())
          .ifPresent(
              r ->
                  buckets.add(
                      new ObjectStore.BucketInfo(
                          r.bucket(), Instant.ofEpochMilli(r.createdMillis()))));
    }
    return buckets;
  }

  /**
   * The record that created {@code bucket}, while it exists; {@code NO_SUCH_BUCKET} otherwise. Read
   * from a read quorum, not from the cache, since its creation time tells a recreated bucket from
   * the one it replaced.
   */
  BucketRecord current(String bucket) {
    checkName(bucket);
    return newestRecord(bucket)
        .filter(r -> !r.deleted())
        .orElseThrow(
            () -> new StoreException(StoreException.Code.NO_SUCH_BUCKET, "bucket " + bucket));
  }

  private Optional<BucketRecord> newestRecord(String bucket) {
    IndexMerge merge =
        new IndexMerge(context.array, Layout.bucketPrefix() + bucket + Layout.SEPARATOR, "", 10);
    IndexMerge.Entry newest = merge.next();
    context.requireReadQuorum(merge, "read bucket " + bucket);
    if (newest == null) {
      return Optional.empty();
    }
    BucketRecord cached = records.get(newest.name());
    if (cached != null) {
      return Optional.of(cached);
    }
    Optional<BucketRecord> read = context.read(newest, BucketRecord.class);
    read.ifPresent(r -> remember(newest.name(), r));
    return read;
  }

  /** Throws {@code NO_SUCH_BUCKET} unless the bucket exists (or was seen to exist just now). */
  public void require(String bucket) {
    if (!seenRecently(bucket)) {
      readExistence(bucket);
    }
  }

  /**
   * Whether the bucket was seen to exist within {@link #CACHE_NANOS} (starting its re-read when
   * that is due); checks the name first.
   */
  private boolean seenRecently(String bucket) {
    checkName(bucket);
    Long until = seen.get(bucket);
    long now = now();
    if (until != null && until - now > 0 && cacheUsable()) {
      refresh.ifDue(bucket, until, now, () -> readExistence(bucket));
      return true;
    }
    return false;
  }

  /**
   * Makes a change of {@code bucket} that other proxies must hear of before it is answered (a
   * create, a delete, a versioning state, a cached document): the name is checked, then, with
   * coordination, the change is serialised with the bucket's other changes and answered only once
   * every other proxy has dropped what it cached of the bucket.
   */
  public void change(String bucket, Runnable change) {
    checkName(bucket);
    coordinator()
        .change(
            bucket,
            () -> {
              change.run();
              return null;
            });
  }

  /**
   * What every call on a key of an existing bucket checks first: {@link #require} of the bucket,
   * then {@link StoreContext#checkKey} of the key.
   */
  public void requireKey(String bucket, String key) {
    require(bucket);
    StoreContext.checkKey(key);
  }

  /**
   * {@link #require}, answered later ({@link #await}): at once from the cache while it is fresh,
   * else by a read of the bucket's records started now in the background, so that a request with a
   * repository round of its own to make (a LIST's listing) makes both in the same round. Over
   * distant repositories, the first request after a second without one (the cache's life) took a
   * round more than the others for its bucket's records.
   */
  public CompletableFuture<Void> requireLater(String bucket) {
    if (seenRecently(bucket)) {
      return CompletableFuture.completedFuture(null);
    }
    try {
      return CompletableFuture.runAsync(() -> readExistence(bucket), background);
    } catch (RejectedExecutionException e) {
      readExistence(bucket); // the store is closing: read in line, as require does
      return CompletableFuture.completedFuture(null);
    }
  }

  /** Waits for a {@link #requireLater}; throws what {@link #require} would have. */
  public static void await(CompletableFuture<Void> required) {
    try {
      required.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw e;
    }
  }

  /**
   * Reads whether the bucket exists, with its state, and caches both unless a change was heard of
   * meanwhile; throws {@code NO_SUCH_BUCKET}, caching nothing, when it does not exist.
   */
  private void readExistence(String bucket) {
    long began = now();
    long before = forgets.get();
    // The bucket's state is read with its existence (one listing of its records), so a write that
    // then asks for the versioning state finds it cached rather than listing the records again.
    try {
      readState(bucket);
    } catch (StoreException e) {
      if (e.code() == StoreException.Code.NO_SUCH_BUCKET) {
        seen.remove(bucket);
        known.remove(bucket);
      }
      throw e;
    }
    if (forgets.get() == before) {
      seen.put(bucket, began + CACHE_NANOS);
    }
  }

  public static void checkName(String bucket) {
    if (bucket == null || !BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT,
          "bucket name: " + bucket + " (expected: 3-63 of a-z, 0-9, '.', '-')");
    }
  }
}
