package io.racs.proxy.store.array;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.api.StoreStats;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.repos.Repository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every part of the store shares: the array and its codec, the configuration, the counters,
 * the array id, the cache of version records, and how keys are named and placed on repositories.
 *
 * <p>Thread-safe: everything here is immutable but the record cache, which synchronises itself.
 */
public final class StoreContext {
  private static final Logger LOG = LoggerFactory.getLogger(StoreContext.class);

  public final StoreConfig config;
  public final Geometry geometry;
  public final ErasureCodec codec;
  public final RepositoryArray array;
  public final StoreStats stats = new StoreStats();
  public final String arrayId;
  // Mints version ids; advanced past every version id this store reads (see VersionId).
  public final VersionId ids;
  // Version records read, by index entry name. An entry is written once and never changed, so a
  // cached record is never stale (see VersionCache).
  private final VersionCache records = new VersionCache(16_384);
  // The slots' stamps shared with the other proxies (KeyStamps.NONE: none; see CurrentVersions).
  private volatile KeyStamps keyStamps = KeyStamps.NONE;
  // A codec per geometry that versions were written in (docs/reshape.md: each version's layout is
  // its own), so that reading one never depends on the geometry new writes take.
  private final Map<Geometry, ErasureCodec> codecs = new ConcurrentHashMap<>();
  // The layout new writes take: the configured one, or a running reshape's target.
  private volatile Writes writes;
  // Whether that layout may be stale (docs/reshape.md §6).
  public final LayoutFreshness layoutFreshness;
  // The versions and delete markers being written, so that an acknowledgement of a new array
  // record can wait for those begun in the old layout (docs/reshape.md §6).
  public final WritesInFlight writesInFlight = new WritesInFlight();
  // How changes of the array record are announced and acknowledged (NONE: not at all).
  private volatile LayoutChanges layoutChanges = LayoutChanges.NONE;

  /**
   * The layout new versions, delete markers and uploads are written in (docs/reshape.md §2): the
   * geometry, its codec and the configuration with that geometry's piece size and data write
   * quorum. One write takes it once and keeps it, so that its parts and its record agree.
   */
  public record Writes(
      Geometry geometry, ErasureCodec codec, StoreConfig config, SlotLayout layout) {
    /** Checks the layout is of the geometry. */
    public Writes {
      if (!layout.geometry().equals(geometry)) {
        throw new IllegalArgumentException(
            "layout: " + layout + " (expected: a layout of " + geometry + ")");
      }
    }
  }

  public StoreContext(StoreConfig config, List<Repository> repositories, String arrayId) {
    this.config = config;
    this.geometry = config.geometry();
    this.codec = ErasureCodec.create(geometry);
    codecs.put(geometry, codec);
    this.writes = new Writes(geometry, codec, config, SlotLayout.first(geometry));
    this.layoutFreshness = new LayoutFreshness(config.ticker(), LayoutFreshness.TTL);
    IndexQuorum index = new IndexQuorum(geometry.totalShards(), config.writeQuorum());
    this.array =
        new RepositoryArray(
            repositories,
            config.slowShardTimeout().toNanos(),
            index.readQuorum(),
            config.stallGrace().toNanos(),
            config.hedge(),
            config.ticker());
    array.index(index);
    this.arrayId = arrayId;
    this.ids = new VersionId(config.clock());
  }

  /**
   * Where records are written and when they count, in the array's current phase (docs/reshape.md
   * §4): asked anew by each operation, since a reshape moves it on.
   */
  public IndexQuorum index() {
    return array.index();
  }

  /** The repositories, by slot id ({@code 0..n-1}), retired ones too. */
  public List<Repository> repositories() {
    List<Repository> all = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      all.add(array.slot(i));
    }
    return all;
  }

  /** The form of {@code key} in entry names, fitting every repository of the array. */
  public String nameKey(String bucket, String key) {
    return Layout.nameKey(
        bucket,
        key,
        name -> {
          if (!Layout.fitsKeyLimit(name)) {
            return false;
          }
          for (int slot : array.ids()) {
            if (!array.slot(slot).accepts(name)) {
              return false;
            }
          }
          return true;
        });
  }

  /** The name of the index entry of one version of a key. */
  public String indexEntry(String bucket, String key, String versionId) {
    return Layout.indexEntry(bucket, nameKey(bucket, key), versionId);
  }

  /**
   * The name of the record {@code meta} was read from: its version's own entry, or for a copy in
   * another layout ({@link VersionMeta#layout} above 0) the copy's name ({@link Layout#copyEntry}).
   * An inline version's shards live in that record.
   */
  public String recordEntry(VersionMeta meta) {
    String entry = indexEntry(meta.bucket(), meta.key(), meta.versionId());
    return meta.layout() > 0 ? Layout.copyEntry(entry, meta.layout()) : entry;
  }

  /** Uses {@code stamps} for key stamps from now on ({@link ErasureStore#coordinateKeys}). */
  public void keyStamps(KeyStamps stamps) {
    keyStamps = stamps;
  }

  public KeyStamps keyStamps() {
    return keyStamps;
  }

  /** Announces changes of the array record through {@code changes} from now on. */
  public void layoutChanges(LayoutChanges changes) {
    layoutChanges = changes;
  }

  /** How changes of the array record are announced ({@link LayoutChanges#NONE}: not at all). */
  public LayoutChanges layoutChanges() {
    return layoutChanges;
  }

  /** The stamp slot of the key whose index entries start with {@code indexKeyPrefix}. */
  public static int stampSlot(String indexKeyPrefix) {
    return Math.floorMod(indexKeyPrefix.hashCode(), KeyStamps.SLOTS);
  }

  /**
   * Registers a write of the record {@code name} in its key's stamp slot when it is an index entry
   * or a removal record (the records that decide a key's current version); nothing otherwise.
   *
   * @throws StoreException {@code COORDINATION_UNAVAILABLE} when it must and cannot register
   */
  public KeyStamps.Registration registerWrite(String name) {
    KeyStamps stamps = keyStamps;
    if (stamps == KeyStamps.NONE || !name.startsWith("i/")) {
      return KeyStamps.Registration.NONE;
    }
    int end = name.lastIndexOf(Layout.KEY_END);
    int slash = name.indexOf('/', 2);
    if (end < 0 || slash < 0 || slash > end) {
      throw new IllegalArgumentException("not an index entry: " + name);
    }
    return stamps.writing(
        name.substring(2, slash), stampSlot(name.substring(0, end + Layout.KEY_END.length())));
  }

  /**
   * Registers a write of {@code bucket/key}'s index entries in the background, as {@link
   * #registerWrite} does in line: a registration (NONE without key stamps), or a failure with
   * {@code COORDINATION_UNAVAILABLE}.
   */
  public CompletableFuture<KeyStamps.Registration> registerWriteLater(String bucket, String key) {
    KeyStamps stamps = keyStamps;
    if (stamps == KeyStamps.NONE) {
      return CompletableFuture.completedFuture(KeyStamps.Registration.NONE);
    }
    int slot = stampSlot(Layout.indexKeyPrefix(bucket, nameKey(bucket, key)));
    try {
      return CompletableFuture.supplyAsync(() -> stamps.writing(bucket, slot), array.executor());
    } catch (RejectedExecutionException e) {
      return CompletableFuture.failedFuture(
          new StoreException(
              StoreException.Code.COORDINATION_UNAVAILABLE, "closing: cannot register a write"));
    }
  }

  /**
   * Ends a write's registration: at once when {@code settled} (the caller knows no late copy can
   * change an answer: the record is on a write quorum, or every copy was written); otherwise only
   * after {@link #holdAfterFailure}, since a call given up on (timed out, cancelled) may still land
   * on a repository that was stalled, and a failed write's entry that lands late may turn into a
   * version (docs/coordination.md).
   */
  public void leave(KeyStamps.Registration registration, boolean settled) {
    if (registration == KeyStamps.Registration.NONE) {
      return;
    }
    if (settled) {
      registration.close();
      return;
    }
    try {
      CompletableFuture.delayedExecutor(
              holdAfterFailure().toMillis(), TimeUnit.MILLISECONDS, array.executor())
          .execute(registration::close);
    } catch (RejectedExecutionException e) {
      registration.close(); // closing: the session and its registrations go with the store
    }
  }

  /** How long a write with a repository failure stays registered: twice the calls' timeout. */
  Duration holdAfterFailure() {
    return config.slowShardTimeout().multipliedBy(2);
  }

  /**
   * The codec of the geometry {@code meta} was written in, which is what its shards must be read,
   * rebuilt and checked with: never the geometry this store writes new versions in.
   *
   * @throws StoreException {@code INCONSISTENT} when the record names no geometry it can be read
   *     with (none, one that does not parse, or one whose shard count is not its parts' slots')
   */
  public ErasureCodec codecOf(VersionMeta meta) {
    Geometry recorded;
    try {
      recorded = Geometry.parse(meta.geometry());
    } catch (IllegalArgumentException e) {
      throw inconsistent(meta, e.getMessage());
    }
    for (var part : meta.parts()) {
      if (part.slots().size() != recorded.totalShards()) {
        throw inconsistent(
            meta,
            "part "
                + part.partNumber()
                + " names "
                + part.slots().size()
                + " slots (expected: "
                + recorded.totalShards()
                + " for "
                + recorded
                + ")");
      }
    }
    return codecFor(recorded);
  }

  private static StoreException inconsistent(VersionMeta meta, String problem) {
    return new StoreException(
        StoreException.Code.INCONSISTENT,
        meta.bucket() + "/" + meta.key() + " version " + meta.versionId() + ": " + problem);
  }

  /**
   * The geometry a record names, {@code DxP}; this store's when it names none (a record written
   * before it was kept, by an array that then had one geometry only).
   */
  public Geometry recordedGeometry(String recorded) {
    return recorded == null ? geometry : Geometry.parse(recorded);
  }

  /**
   * The layout new writes take now ({@link Writes}): asked once by each new write (a PUT, a delete
   * marker, an upload and its parts), so it is where a write is refused while the layout may be
   * stale.
   *
   * @throws StoreException {@code LAYOUT_UNKNOWN} while the array record could not be read for the
   *     layout ttl ({@link LayoutFreshness#require})
   */
  public Writes writes() {
    layoutFreshness.require();
    return writes;
  }

  /**
   * Makes new writes take {@code layout}'s geometry (a geometry-only reshape's target while it runs
   * or once complete), or the configured one again when {@code layout} is this store's config. Set
   * by {@code RecordedLayout}, which re-reads the array record.
   */
  public void writeIn(StoreConfig layout) {
    if (layout.geometry().totalShards() != geometry.totalShards()) {
      throw new IllegalArgumentException(
          "write layout: "
              + layout.geometry()
              + " (expected: "
              + geometry.totalShards()
              + " shards, one per slot of the array)");
    }
    writes =
        new Writes(
            layout.geometry(),
            codecFor(layout.geometry()),
            layout,
            SlotLayout.overFirst(0, layout.geometry()));
  }

  /** The codec of {@code geometry}, made once per store. */
  public ErasureCodec codecFor(Geometry geometry) {
    return codecs.computeIfAbsent(geometry, ErasureCodec::create);
  }

  /**
   * The slot ids of {@code key}'s shards in the layout new writes take ({@link Writes#layout}):
   * shard i goes to {@code slots[(rotation + i) mod n]} ({@link SlotLayout#place}).
   */
  public List<Integer> slotsFor(String bucket, String key) {
    return slotsFor(bucket, key, writes.layout());
  }

  /** The slot ids of {@code key}'s shards in {@code layout}, each one a live slot of the array. */
  public List<Integer> slotsFor(String bucket, String key, SlotLayout layout) {
    for (int id : layout.slots()) {
      if (id >= array.size() || array.retired(id)) {
        throw new IllegalArgumentException(
            "layout: " + layout + " (expected: live slot ids of the array's " + array.size() + ")");
      }
    }
    return layout.place(bucket, key);
  }

  /**
   * The layout of a geometry that is not (or no longer) the one new writes take, such as an
   * upload's begun before a geometry-only reshape: over the slot ids {@code 0..n-1}, as every
   * geometry-only reshape keeps the repositories.
   */
  public SlotLayout layoutOf(Geometry geometry) {
    SlotLayout now = writes.layout();
    return now.geometry().equals(geometry) ? now : SlotLayout.overFirst(0, geometry);
  }

  /**
   * Reads a record listed at {@code e} from any slot that has an intact copy: one slot at a time,
   * suspended ones last, but each one given only a hedge delay before the next is asked too, so a
   * stalled repository that has not been suspended (yet) costs the read that delay, not the stall;
   * the first intact copy wins. With hedging on ({@link StoreConfig.Hedge}) the slots are asked in
   * the order of their recent median record latency, and each one's hedge delay is its own recent
   * percentile (within the configured bounds); otherwise, and for a slot without enough samples, it
   * is a quarter of the stall grace.
   */
  public <T> Optional<T> read(IndexMerge.Entry e, Class<T> type) {
    boolean version = type == VersionMeta.class;
    if (version) {
      VersionMeta cached = records.get(e.name());
      if (cached != null) {
        ids.observe(cached.versionId());
        return Optional.of(type.cast(cached));
      }
    }
    List<Integer> order = new ArrayList<>();
    for (int slot : e.slots()) {
      if (array.health().usable(slot)) {
        order.add(slot);
      }
    }
    LatencyEstimates latencies = array.latencies();
    if (latencies.enabled()) {
      order.sort(
          (a, b) ->
              Long.compare(
                  latencies.expectedNanos(a, LatencyEstimates.Kind.RECORD),
                  latencies.expectedNanos(b, LatencyEstimates.Kind.RECORD)));
    }
    for (int slot : e.slots()) {
      if (!order.contains(slot)) {
        order.add(slot);
      }
    }
    CompletionService<Optional<T>> done = new ExecutorCompletionService<>(array.executor());
    List<Future<Optional<T>>> asked = new ArrayList<>();
    long peerHedgeNanos = Math.max(1, array.stallNanos() / 4);
    long deadline = System.nanoTime() + array.timeoutNanos();
    try {
      int next = 0;
      int pending = 0;
      long hedgeNanos = peerHedgeNanos;
      int lastAsked = -1;
      long lastAskedAt = 0;
      while (next < order.size() || pending > 0) {
        if (next < order.size()) {
          int slot = order.get(next++);
          lastAsked = slot;
          lastAskedAt = System.nanoTime();
          long own = latencies.hedgeDelayNanos(slot, LatencyEstimates.Kind.RECORD);
          hedgeNanos = own == Long.MAX_VALUE ? peerHedgeNanos : own;
          asked.add(done.submit(() -> readCopy(slot, e.name(), type)));
          pending++;
        }
        long now = System.nanoTime();
        long wait = next < order.size() ? Math.min(hedgeNanos, deadline - now) : deadline - now;
        Future<Optional<T>> answered = wait > 0 ? Waits.poll(done, wait) : done.poll();
        if (answered == null) {
          if (next < order.size() && deadline - System.nanoTime() > 0) {
            stats.hedgedRecordReads.increment();
            // A lower bound of the late one's latency: it must not look fast for lack of samples.
            latencies.record(
                lastAsked, LatencyEstimates.Kind.RECORD, System.nanoTime() - lastAskedAt);
            continue; // ask the next one too
          }
          break;
        }
        pending--;
        Optional<T> record = answered.get();
        if (record.isPresent()) {
          if (version) {
            records.put(e.name(), (VersionMeta) record.get());
            ids.observe(((VersionMeta) record.get()).versionId());
          }
          return record;
        }
      }
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException ex) {
      throw new IllegalStateException("reading a record cannot fail this way", ex.getCause());
    } finally {
      asked.forEach(f -> f.cancel(true));
    }
    return Optional.empty();
  }

  /** One slot's copy of a record, if it has an intact one (never throws for the slot's failure). */
  private <T> Optional<T> readCopy(int slot, String name, Class<T> type) {
    try {
      long started = System.nanoTime();
      Optional<byte[]> bytes = RepositoryArray.getBytes(array.slot(slot), name);
      if (bytes.isPresent()) {
        array.latencies().record(slot, LatencyEstimates.Kind.RECORD, System.nanoTime() - started);
        Optional<T> record = Layout.decode(bytes.get(), type);
        if (record.isEmpty()) {
          LOG.warn("damaged record {} on slot {}; using another copy", name, slot);
        }
        return record;
      }
    } catch (RuntimeException ex) {
      LOG.debug("slot {} could not read {}: {}", slot, name, ex.toString());
    }
    return Optional.empty();
  }

  /**
   * The record of a version entry if this store has read it before, else empty: no repository is
   * asked.
   */
  public Optional<VersionMeta> cachedVersion(String entryName) {
    return Optional.ofNullable(records.get(entryName));
  }

  /**
   * Caches the record of a version this store just committed, so that reading the key next needs no
   * repository GET of it; records never change.
   */
  public void cacheVersion(String entryName, VersionMeta meta) {
    records.put(entryName, meta);
  }

  /** Drops every cached record (see {@link ErasureStore#forgetKeyCaches}). */
  public void forgetRecords() {
    records.clear();
  }

  /** Drops a collected entry's record from the cache. */
  public void forget(String entryName) {
    records.remove(entryName);
  }

  /**
   * A listing is only trusted when enough repositories answered that every committed record
   * (written to a write quorum) has a copy among them.
   */
  public void requireReadQuorum(IndexMerge merge, String what) {
    IndexQuorum quorum = merge.index();
    List<Integer> proven = merge.provenSlots();
    if (!quorum.listingComplete(proven)) {
      List<Integer> deciding = quorum.decidingSlots();
      int answered = (int) proven.stream().filter(deciding::contains).count();
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          what
              + ": "
              + answered
              + " of "
              + deciding.size()
              + " repositories answered (need "
              + quorum.readQuorum()
              + ")",
          merge.failures(),
          null);
    }
  }

  /** Checks an S3 object key: 1-1024 bytes of valid UTF-8 without NUL. */
  public static void checkKey(String key) {
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
}
