package io.racs.proxy.coord;

import io.racs.proxy.store.api.StoreException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.utils.ZKPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bucket creates and deletes across proxies: {@code /locks/<bucket>}, an {@link InterProcessMutex}
 * that serialises a bucket's changes, and {@code /buckets/<bucket>}, a node written after each
 * change. Every proxy watches these nodes, forgets its cached state of a bucket when its node
 * changes, and acknowledges the change in its member node ({@link Membership}); the proxy that made
 * the change answers its client only when every member has, or when {@link #ACK_WAIT} has passed.
 *
 * <p>Thread-safe.
 */
final class BucketChanges {
  private static final Logger LOG = LoggerFactory.getLogger(BucketChanges.class);

  /**
   * How long a bucket change waits for every member to acknowledge it: twice the bucket cache's
   * lifetime (one second), so that a member that never acknowledges has dropped its cached state by
   * then anyway.
   */
  static final Duration ACK_WAIT = Duration.ofSeconds(2);

  /** How long a bucket change waits for another proxy's change of the same bucket. */
  static final Duration LOCK_WAIT = Duration.ofSeconds(10);

  private static final String BUCKETS = "/buckets";
  private static final String LOCKS = "/locks";

  private final CuratorFramework client;
  private final BooleanSupplier connected;
  private final Membership membership;
  private final Consumer<String> bucketChanged;
  private final CuratorCache buckets;

  BucketChanges(
      CuratorFramework client,
      BooleanSupplier connected,
      Membership membership,
      Consumer<String> bucketChanged) {
    this.client = client;
    this.connected = connected;
    this.membership = membership;
    this.bucketChanged = bucketChanged;
    this.buckets = CuratorCache.build(client, BUCKETS);
    buckets.listenable().addListener(CuratorCacheListener.builder().forAll(this::heard).build());
  }

  /** Starts the watch of the buckets' nodes. */
  void start() {
    buckets.start();
  }

  /** A change of a bucket's node, by any proxy: forget the bucket, then acknowledge the change. */
  private void heard(CuratorCacheListener.Type type, ChildData before, ChildData after) {
    ChildData node = after != null ? after : before;
    if (node == null || node.getPath().equals(BUCKETS)) {
      return;
    }
    bucketChanged.accept(ZKPaths.getNodeFromPath(node.getPath()));
    membership.heard(
        Membership.Topic.BUCKETS, node.getStat() == null ? 0 : node.getStat().getMzxid());
  }

  /** See {@link io.racs.proxy.store.bucket.BucketCoordinator#change}. */
  <T> T change(String bucket, Supplier<T> change) {
    requireConnected(bucket);
    InterProcessMutex lock = new InterProcessMutex(client, ZKPaths.makePath(LOCKS, bucket));
    boolean locked;
    try {
      locked = lock.acquire(LOCK_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      throw unavailable(bucket, e.toString());
    }
    if (!locked) {
      throw unavailable(bucket, "another proxy is changing it");
    }
    try {
      requireConnected(bucket); // lost while waiting for the lock
      try {
        return change.get();
      } finally {
        announce(bucket);
      }
    } finally {
      try {
        lock.release();
      } catch (Exception e) {
        // The lock node is ephemeral: it goes with the session at the latest.
        LOG.debug("coordination: cannot release the lock of {}: {}", bucket, e.toString());
      }
    }
  }

  private void requireConnected(String bucket) {
    if (!connected.getAsBoolean()) {
      throw unavailable(bucket, "ZooKeeper is not connected");
    }
  }

  private static StoreException unavailable(String bucket, String why) {
    return new StoreException(
        StoreException.Code.COORDINATION_UNAVAILABLE,
        "cannot coordinate a change of bucket " + bucket + " with the other proxies: " + why);
  }

  /** Tells every proxy that {@code bucket} changed, and waits until each has heard. */
  private void announce(String bucket) {
    bucketChanged.accept(bucket);
    // Not written (MAX_VALUE), the others will not hear of it: wait until their caches expired.
    long zxid = AnnouncedNode.write(client, ZKPaths.makePath(BUCKETS, bucket));
    if (!membership.awaitAllHeard(
            Membership.Topic.BUCKETS, zxid, System.nanoTime() + ACK_WAIT.toNanos())
        && !Thread.currentThread().isInterrupted()) {
      LOG.debug("coordination: not every proxy acknowledged the change of {}", bucket);
    }
  }

  void close() {
    buckets.close();
  }
}
