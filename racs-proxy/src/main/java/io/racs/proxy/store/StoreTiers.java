package io.racs.proxy.store;

import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.ArrayHealth;
import io.racs.proxy.store.array.ArraySlots;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.bucket.BucketCatalog;
import io.racs.proxy.store.bucket.BucketDocuments;
import io.racs.proxy.store.bucket.BucketPolicyStore;
import io.racs.proxy.store.commit.Collector;
import io.racs.proxy.store.commit.CommitOrder;
import io.racs.proxy.store.commit.LockRecords;
import io.racs.proxy.store.commit.NullVersions;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.commit.RemovalRule;
import io.racs.proxy.store.commit.VersionRemovals;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.object.Lister;
import io.racs.proxy.store.object.MultipartUploads;
import io.racs.proxy.store.object.ObjectLockStore;
import io.racs.proxy.store.object.ObjectReads;
import io.racs.proxy.store.object.ObjectTags;
import io.racs.proxy.store.object.ObjectWrites;
import io.racs.proxy.store.object.VersionedWrites;
import io.racs.repos.Repository;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The parts of one {@link ErasureStore}, built from its configuration and its opened slots, each
 * tier on the tiers below it (so the order of construction is the order of the tiers), and closed
 * in the opposite order. The facade holds one and hands each call to the part that owns it.
 */
final class StoreTiers {
  final StoreContext context;
  // Runs collections and the early reads of whole-object GETs.
  final ExecutorService background = Executors.newVirtualThreadPerTaskExecutor();
  // Re-reads the array record (null until followLayout).
  private volatile ScheduledExecutorService layoutWatch;
  final ArraySlots slots;
  final ArrayHealth health;
  final Collector collector;
  final VersionResolver resolver;
  final BucketCatalog buckets;
  final BucketDocuments documents;
  final ObjectReads reads;
  final Lister lister;
  final MultipartUploads uploads;
  final ObjectTags tags;
  final VersionedWrites versioned;
  final ObjectLockStore locks;
  final BucketPolicyStore policies;

  StoreTiers(StoreConfig config, ArraySlots slots) {
    this.slots = slots;
    this.context = new StoreContext(config, List.copyOf(slots.guards()), slots.arrayId());
    this.health = new ArrayHealth(context, slots);
    this.collector = new Collector(context, background);
    QuorumWriter writer = new QuorumWriter(context, collector);
    this.resolver = new VersionResolver(context);
    CommitOrder order = new CommitOrder(context);
    this.buckets = new BucketCatalog(context, writer, background);
    this.documents = new BucketDocuments(context, writer, buckets, health, background);
    this.policies = new BucketPolicyStore(documents);
    collector.keepVersionsOf(buckets::versioned);
    ObjectWrites writes = new ObjectWrites(context, writer, resolver, order, buckets);
    this.reads = new ObjectReads(context, resolver, buckets, background);
    this.lister = new Lister(context, resolver);
    this.uploads = new MultipartUploads(context, writer, buckets, resolver, order);
    RemovalRule rule = new RemovalRule(context, new LockRecords(context, writer));
    collector.keepLocked(rule::mayRemove);
    VersionRemovals removals = new VersionRemovals(context, writer, resolver, collector, rule);
    NullVersions nulls = new NullVersions(context, resolver, removals, background);
    this.tags = new ObjectTags(context, writer, documents, background);
    this.versioned = new VersionedWrites(buckets, health, writes, reads, uploads, removals, nulls);
    this.locks =
        new ObjectLockStore(context, buckets, documents, health, rule, versioned, background);
  }

  /** Runs {@code follow} every {@code every}: the store re-reads the array record (reshape §6). */
  void followLayout(Runnable follow, Duration every) {
    layoutWatch =
        Executors.newSingleThreadScheduledExecutor(Thread.ofVirtual().name("layout").factory());
    long millis = every.toMillis();
    layoutWatch.scheduleWithFixedDelay(follow, millis, millis, TimeUnit.MILLISECONDS);
  }

  /**
   * Runs {@code follow} now, after any re-read already running, on the thread that re-reads the
   * array record: a change of it was announced. Nothing when the store does not follow the record
   * or is closed.
   */
  void followNow(Runnable follow) {
    ScheduledExecutorService watch = layoutWatch;
    if (watch == null) {
      return;
    }
    try {
      watch.execute(follow);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closed: nobody writes through this store any more
    }
  }

  /** Stops the collector and the background work, then closes the array and its repositories. */
  void close() {
    stop();
    for (Repository repository : context.repositories()) {
      repository.close();
    }
  }

  /**
   * Stops the collector, the background work and the array's fan-out, leaving the repositories
   * open: a store refused at open hands them back to its caller as they were.
   */
  void stop() {
    if (layoutWatch != null) {
      layoutWatch.shutdownNow();
    }
    collector.finish();
    background.shutdown();
    context.array.close();
  }
}
