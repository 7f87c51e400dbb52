package io.racs.proxy.store.commit;

import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.PartRecord;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.stripe.PartWriter;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes what no reader needs any more: the versions a commit superseded (once the commit has
 * settled, off the request path: see {@link StoreConfig#settleTime()}), the data of a write that
 * failed, and for heal the versions and leftovers it finds. Data always goes before the entry that
 * refers to it, so an entry never points at nothing it could still need.
 *
 * <p>A versioned bucket keeps every version: nothing in it is superseded, so the collection after a
 * commit deletes nothing there. Whether a bucket is versioned is read when the collection runs
 * (after the settle time), and a collection that cannot tell deletes nothing.
 *
 * <p>Thread-safe. Background work is queued as jobs (a key's collection, a removed version's
 * deletion, a failed write's data), which at most {@value #MAX_COLLECTIONS} workers run at a time,
 * and every removal waits for its turn at the {@link CollectionPace}, so a burst of superseded
 * versions coming due never takes the cores and the carriers from the requests of that moment.
 * Beyond {@value #MAX_QUEUED} queued jobs, the thread that brings one more runs it itself (at the
 * same pace), so a backlog cannot grow without bound. Whatever a crash or a failure leaves behind,
 * heal collects.
 */
public final class Collector {
  private static final Logger LOG = LoggerFactory.getLogger(Collector.class);
  private static final int MAX_COLLECTIONS = 64;
  private static final int MAX_QUEUED = 100_000;
  private static final int REMOVALS_PER_KEY = 16;

  private final StoreContext context;
  private final ExecutorService background;
  private final CollectionPace pace;
  private final ConcurrentLinkedQueue<Job> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicInteger workers = new AtomicInteger();
  // Jobs queued or running; awaitCollections waits for none.
  private final Object idle = new Object();
  private int outstanding;
  // Until the store says which buckets are versioned, every one is: keeping is the safe side.
  private volatile Predicate<String> versioned = bucket -> true;
  // Until the store gives its removal rule, every version that may be locked is kept.
  private volatile BiPredicate<VersionMeta, RemovalRule.Removal> removable =
      (version, removal) -> version.lock() == null;
  // Keys (bucket/key) whose collection is queued or running, each with the version everything
  // older than which goes: a write to such a key only moves the target, so the collections of one
  // key never race each other over the same records.
  private final ConcurrentHashMap<String, String> collecting = new ConcurrentHashMap<>();

  // The newest version this store committed, per recently written key: a version whose records
  // land after a newer one committed (and was collected up to) is superseded, and its own
  // collection goes up to that newer one. Only versions this store saw commit are used, never one
  // merely listed, which might still be rolled back.
  private final Map<String, String> committed =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
          return size() > 16_384;
        }
      };

  public Collector(StoreContext context, ExecutorService background) {
    this.context = context;
    this.background = background;
    this.pace = new CollectionPace(context.config.ticker());
  }

  /**
   * Tells the collector which buckets keep every version; {@code versioned} throws when it cannot
   * tell, and the collection then deletes nothing.
   */
  public void keepVersionsOf(Predicate<String> versioned) {
    this.versioned = versioned;
  }

  /**
   * Tells the collector which versions it may remove ({@link RemovalRule#mayRemove}): a superseded
   * version that its object lock keeps is left in place, data and entry.
   */
  public void keepLocked(BiPredicate<VersionMeta, RemovalRule.Removal> removable) {
    this.removable = removable;
  }

  /** The pace removals keep (for tests). */
  CollectionPace pace() {
    return pace;
  }

  /**
   * Collects, in the background, every version of a key older than {@code committedVersion}, which
   * has just committed (or than a newer one this store committed before, if there is one), once the
   * new version has settled ({@link StoreConfig#settleTime()}).
   */
  void collectLater(String bucket, String key, String committedVersion) {
    pace.arrived();
    long delayNanos = context.config.settleTime().toNanos();
    if (delayNanos == 0) {
      collectSettled(bucket, key, committedVersion);
      return;
    }
    try {
      CompletableFuture.runAsync(
          () -> collectSettled(bucket, key, committedVersion),
          CompletableFuture.delayedExecutor(delayNanos, TimeUnit.NANOSECONDS, background));
    } catch (RejectedExecutionException e) {
      // Closing: heal collects it.
    }
  }

  private void collectSettled(String bucket, String key, String committedVersion) {
    String id = bucket + "/" + key;
    String newest;
    synchronized (committed) {
      String known = committed.get(id);
      newest = known != null && VersionId.newer(known, committedVersion) ? known : committedVersion;
      committed.put(id, newest);
    }
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
    submit(() -> collectUntilSettled(bucket, key, id), () -> collecting.remove(id), true);
  }

  /** Collects a key's superseded versions until no newer write has moved the target meanwhile. */
  private void collectUntilSettled(String bucket, String key, String id) {
    while (true) {
      // Asked before the target is taken, so that a pass goes up to the newest version committed
      // while it was asked.
      boolean keep = keepsVersions(bucket);
      String target = collecting.get(id);
      if (!keep) {
        collectOlderVersions(bucket, key, target);
      }
      if (collecting.remove(id, target)) {
        return;
      }
    }
  }

  /** Whether the bucket keeps every version; true when that cannot be told (nothing is deleted). */
  private boolean keepsVersions(String bucket) {
    try {
      return versioned.test(bucket);
    } catch (RuntimeException e) {
      LOG.debug("not collecting in {}: {}", bucket, e.toString());
      return true;
    }
  }

  /**
   * Queues {@code work} for a worker, starting one if fewer than {@value #MAX_COLLECTIONS} run, or
   * runs it on this thread if {@value #MAX_QUEUED} jobs are queued already. {@code dropped} undoes
   * what the caller set up for it, if the store closes before it runs (heal collects it then).
   * {@link #awaitCollections()} waits for the job if {@code awaited}.
   */
  private void submit(Runnable work, Runnable dropped, boolean awaited) {
    if (queued.get() >= MAX_QUEUED) {
      work.run();
      return;
    }
    if (awaited) {
      synchronized (idle) {
        outstanding++;
      }
    }
    queued.incrementAndGet();
    queue.add(new Job(work, dropped, awaited));
    if (claimWorker()) {
      try {
        background.execute(this::work);
      } catch (RejectedExecutionException e) {
        // Closed: no worker starts any more.
        if (workers.decrementAndGet() == 0) {
          dropQueued();
        }
      }
    }
  }

  /** A queued job, what undoes its caller's set-up if it is dropped, and whether it is awaited. */
  private record Job(Runnable work, Runnable dropped, boolean awaited) {}

  private boolean claimWorker() {
    while (true) {
      int running = workers.get();
      if (running >= MAX_COLLECTIONS) {
        return false; // a running worker takes the job
      }
      if (workers.compareAndSet(running, running + 1)) {
        return true;
      }
    }
  }

  /** A worker: runs queued jobs until there is none. */
  private void work() {
    while (true) {
      Job job = queue.poll();
      if (job == null) {
        workers.decrementAndGet();
        // A job queued between the poll and the decrement may have found every worker busy.
        if (queue.isEmpty() || !claimWorker()) {
          return;
        }
        continue;
      }
      queued.decrementAndGet();
      try {
        job.work().run();
      } catch (RuntimeException e) {
        LOG.debug("background collection stopped: {}", e.toString());
      } finally {
        finished(job);
      }
    }
  }

  private void dropQueued() {
    for (Job job = queue.poll(); job != null; job = queue.poll()) {
      queued.decrementAndGet();
      job.dropped().run();
      finished(job);
    }
  }

  private void finished(Job job) {
    if (!job.awaited()) {
      return;
    }
    synchronized (idle) {
      if (--outstanding == 0) {
        idle.notifyAll();
      }
    }
  }

  /**
   * Waits until the jobs queued so far have run, at their pace: heal calls it so that it does not
   * race the store's own collector, and so can tests that count what is left.
   */
  void awaitCollections() {
    boolean interrupted = false;
    synchronized (idle) {
      while (outstanding > 0) {
        try {
          idle.wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * {@link #awaitCollections()}, with the pace lifted while it waits: heal, which must not race the
   * collector, does not wait behind a paced backlog. What is queued then runs as fast as it can, as
   * heal's own work does.
   */
  public void awaitCollectionsUnpaced() {
    pace.hurry(true);
    try {
      awaitCollections();
    } finally {
      pace.hurry(false);
    }
  }

  /**
   * Runs what is queued without pacing, and waits for it: the store is closing, and serves no
   * request any more.
   */
  public void finish() {
    pace.unpace();
    awaitCollections();
  }

  /**
   * Deletes every version of a key older than {@code newest}, in a bucket that does not keep them:
   * data first, then entries. Up to {@value #REMOVALS_PER_KEY} versions are removed at once, each
   * at its turn of the pace: one at a time, a removal's rounds (its record when not cached, its
   * data, its entries) bounded how fast one key could be collected, and over distant repositories a
   * key overwritten steadily by one client (a version every two rounds) gained versions faster than
   * they went.
   */
  private void collectOlderVersions(String bucket, String key, String newest) {
    Semaphore inFlight = new Semaphore(REMOVALS_PER_KEY);
    try {
      IndexMerge merge =
          new IndexMerge(
              context.array, Layout.indexKeyPrefix(bucket, context.nameKey(bucket, key)), "", 100);
      for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
        if (VersionId.newer(newest, Layout.versionOf(e.name()))) {
          pace.acquire();
          inFlight.acquireUninterruptibly();
          IndexMerge.Entry entry = e;
          try {
            background.execute(
                () -> {
                  try {
                    removeEveryCopy(entry);
                  } catch (RuntimeException failed) {
                    // Best effort: heal collects what is left.
                    LOG.debug("removing {} stopped: {}", entry.name(), failed.toString());
                  } finally {
                    inFlight.release();
                  }
                });
          } catch (RejectedExecutionException closing) {
            inFlight.release();
            removeEveryCopy(entry);
          }
        }
      }
    } catch (RuntimeException e) {
      // Best effort: heal collects what is left.
      LOG.debug("collecting old versions of {}/{} stopped: {}", bucket, key, e.toString());
    } finally {
      // The pass ends when its removals have: the next pass lists what they left.
      inFlight.acquireUninterruptibly(REMOVALS_PER_KEY);
    }
  }

  /**
   * Removes one version: its data, then its index entry on every repository. The entry is discarded
   * rather than durably deleted: a superseded entry that comes back is harmless, as the newer
   * version still decides, and heal collects it again.
   */
  public void removeVersion(String entryName, Optional<VersionMeta> meta) {
    remove(entryName, meta, RemovalRule.Removal.VERSION);
  }

  /**
   * Removes a superseded version with every copy of it in other layouts ({@link
   * IndexMerge.Entry#names}), each as {@link #removeVersion} does.
   */
  public void removeEveryCopy(IndexMerge.Entry version) {
    for (IndexMerge.Entry name : version.names()) {
      removeVersion(name.name(), context.read(name, VersionMeta.class));
    }
  }

  /**
   * Removes one copy of a version that a committed, settled copy of it in a newer layout replaced
   * (docs/reshape.md §5): its data, then its record, as {@link #removeVersion} does, if the removal
   * rule allows it for {@link RemovalRule.Removal#SUPERSEDED_COPY}. The caller knows the newer copy
   * counts and has settled.
   */
  public void removeSupersededCopy(String copyName, VersionMeta copy) {
    remove(copyName, Optional.of(copy), RemovalRule.Removal.SUPERSEDED_COPY);
  }

  private void remove(String entryName, Optional<VersionMeta> meta, RemovalRule.Removal removal) {
    if (meta.isPresent() && !removable.test(meta.get(), removal)) {
      LOG.debug("keeping {}: its object lock keeps it", entryName);
      return;
    }
    meta.ifPresent(this::deleteData);
    context.array.fanOut(
        (slot, repository) -> {
          repository.discard(entryName);
          return null;
        });
    context.forget(entryName);
  }

  /**
   * Deletes a version removed by its id (its removal record is committed on a write quorum), in the
   * background: its data, then its index entry on every repository, durably (a removed entry that
   * came back after a crash would be harmless only while its removal record stays, and heal deletes
   * that record once no repository lists the entry). What fails here, heal deletes.
   */
  void deleteRemovedLater(String entryName, VersionMeta version) {
    removeLater(() -> deleteRemoved(entryName, version), true);
  }

  /** Queues one removal, which waits for its turn at the pace when a worker runs it. */
  private void removeLater(Runnable removal, boolean awaited) {
    pace.arrived();
    submit(
        () -> {
          pace.acquire();
          removal.run();
        },
        () -> {},
        awaited);
  }

  /** {@link #deleteRemovedLater} on the calling thread (heal). */
  public void deleteRemoved(String entryName, VersionMeta version) {
    try {
      deleteData(version);
      deleteCopies(entryName, version);
      context.array.fanOut(
          (slot, repository) -> {
            repository.delete(entryName);
            return null;
          });
      context.forget(entryName);
    } catch (RuntimeException e) {
      LOG.debug("deleting removed version {} stopped: {}", entryName, e.toString());
    }
  }

  /**
   * Deletes the version {@code entryName}'s other records in other layouts ({@link
   * Layout#copyEntry}) than the one {@code removed} was read from, data first, durably: a removal
   * record removes every copy of its version.
   */
  private void deleteCopies(String entryName, VersionMeta removed) {
    String readFrom = context.recordEntry(removed);
    IndexMerge merge = IndexMerge.ungrouped(context.array, entryName, "", 100);
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      String name = e.name();
      if (!(name.equals(entryName) || Layout.isCopy(name))
          || !Layout.versionOf(name).equals(removed.versionId())) {
        continue;
      }
      if (!name.equals(readFrom)) {
        context.read(e, VersionMeta.class).ifPresent(this::deleteData);
      }
      if (!name.equals(entryName)) { // the version's own entry goes last, below
        context.array.fanOut(
            (slot, repository) -> {
              repository.delete(name);
              return null;
            });
        context.forget(name);
      }
    }
  }

  /**
   * Deletes the data of a version that failed to commit, in the background: it is garbage, and a
   * write refused because repositories stalled must not wait for them again to delete it.
   */
  void deleteDataLater(VersionMeta version) {
    // Garbage of a write that failed: heal and closing need not wait for it.
    removeLater(() -> deleteData(version), false);
  }

  /**
   * Deletes the shard objects of a version's parts (an inline version has none). A multipart
   * version's parts may be another record's as well: a completion whose commit failed can leave its
   * entry on a repository that missed the rollback, while its parts stay the upload's, and the
   * client's retry commits another version made of them. So a part of a multipart version is
   * deleted only when neither another index entry of the key nor a part record of an upload of the
   * key refers to it, and none is when those cannot be read from a read quorum (heal collects it
   * later, as data no record refers to).
   */
  public void deleteData(VersionMeta version) {
    Set<String> elsewhere = version.multipart() ? dataReferredElsewhere(version) : Set.of();
    for (PartMeta part : version.parts()) {
      if (!part.inline() && !elsewhere.contains(part.dataId())) {
        PartWriter.deleteShards(context.array, part.slots(), part.dataId());
      }
    }
  }

  /**
   * The data ids the other records of {@code version}'s key refer to (other versions, their removal
   * records, and the parts of its uploads); every data id of {@code version} when they cannot be
   * read.
   */
  private Set<String> dataReferredElsewhere(VersionMeta version) {
    String bucket = version.bucket();
    String nameKey = context.nameKey(bucket, version.key());
    String own = Layout.indexEntry(bucket, nameKey, version.versionId());
    Set<String> referred = new HashSet<>();
    try {
      IndexMerge versions =
          new IndexMerge(context.array, Layout.indexKeyPrefix(bucket, nameKey), "", 1000);
      for (IndexMerge.Entry e = versions.next(); e != null; e = versions.next()) {
        if (e.versionEntry().equals(own) || e.name().equals(Layout.removalRecord(own))) {
          continue; // the version itself, in any layout: its copies' data ids are their own
        }
        for (IndexMerge.Entry copy : e.names()) {
          String name = copy.name();
          VersionMeta other =
              context
                  .read(copy, VersionMeta.class)
                  .orElseThrow(() -> new IllegalStateException("unreadable " + name));
          other.parts().forEach(part -> referred.add(part.dataId()));
        }
      }
      context.requireReadQuorum(versions, "list versions of " + bucket + "/" + version.key());
      IndexMerge uploads =
          new IndexMerge(context.array, Layout.uploadRecord(bucket, nameKey, ""), "", 1000);
      for (IndexMerge.Entry e = uploads.next(); e != null; e = uploads.next()) {
        if (Layout.isPartRecord(e.name())) {
          String name = e.name();
          PartRecord part =
              context
                  .read(e, PartRecord.class)
                  .orElseThrow(() -> new IllegalStateException("unreadable " + name));
          referred.add(part.part().dataId());
        }
      }
      context.requireReadQuorum(uploads, "list uploads of " + bucket + "/" + version.key());
    } catch (RuntimeException e) {
      LOG.debug("keeping the data of {}: {}", own, e.toString());
      version.parts().forEach(part -> referred.add(part.dataId()));
    }
    return referred;
  }
}
