package io.racs.proxy.coord;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.KeyStamps;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ZooKeeper side of the version cache ({@link KeyStamps}): {@code /keys/<bucket>/<slot>}, whose
 * ephemeral sequential children are the writes in progress in the slot, and whose last child change
 * is the slot's stamp.
 *
 * <p>Thread-safe.
 */
final class WriteRegistrations implements KeyStamps {
  private static final Logger LOG = LoggerFactory.getLogger(WriteRegistrations.class);

  private static final String KEYS = "/keys";

  private final CuratorFramework client;
  private final String namespace;
  private final Duration sessionTimeout;
  private final BooleanSupplier connected;

  WriteRegistrations(
      CuratorFramework client,
      String namespace,
      Duration sessionTimeout,
      BooleanSupplier connected) {
    this.client = client;
    this.namespace = namespace;
    this.sessionTimeout = sessionTimeout;
    this.connected = connected;
  }

  /**
   * The stamp of a slot: the last child change ({@code pzxid}) of {@code /keys/<bucket>/<slot>} and
   * whether it has no child, read after a {@code sync}, so that every registration and departure
   * that ended before this call, through any proxy, is in it. The sync and the read go out on this
   * session back to back (ZooKeeper answers a session's requests in order). The session's id is in
   * the stamp: a ZooKeeper that lost its data ends every session, and its ids start over. Null
   * while not connected or when the sync or the read fails.
   */
  @Override
  public Stamp stamp(String bucket, int slot) {
    if (!connected.getAsBoolean()) {
      return null;
    }
    String path = "/" + namespace + slotPath(bucket, slot);
    try {
      org.apache.zookeeper.ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
      CompletableFuture<Integer> synced = new CompletableFuture<>();
      zk.sync("/" + namespace, (rc, p, ctx) -> synced.complete(rc), null);
      Stat stat = zk.exists(path, false);
      // The read follows the sync only if the sync went through: a connection lost between the two
      // fails the sync, and the read, queued after that, goes out alone on the next connection,
      // maybe to a server that has not heard of the latest registrations yet. The sync's answer
      // came before the read's, so its callback is at most queued.
      if (synced.get(sessionTimeout.toMillis(), TimeUnit.MILLISECONDS)
          != KeeperException.Code.OK.intValue()) {
        return null;
      }
      // The session is the handle's own, fixed once the exists above was answered in it.
      long session = zk.getSessionId();
      return stat == null
          ? new Stamp(-1, true, session)
          : new Stamp(stat.getPzxid(), stat.getNumChildren() == 0, session);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (Exception e) {
      LOG.debug("coordination: cannot read the stamp of {}: {}", path, e.toString());
      return null;
    }
  }

  /**
   * Registers a write: an ephemeral sequential child of {@code /keys/<bucket>/<slot>} (the slot's
   * node is created, for good, by its first write), deleted by {@link Registration#close}. The
   * session's end deletes what a proxy that stopped left.
   */
  @Override
  public Registration writing(String bucket, int slot) {
    if (!connected.getAsBoolean()) {
      throw new StoreException(
          StoreException.Code.COORDINATION_UNAVAILABLE,
          "cannot register a write in "
              + bucket
              + " with the other proxies: ZooKeeper is not"
              + " connected");
    }
    String node;
    try {
      node =
          client
              .create()
              .creatingParentsIfNeeded()
              .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
              .forPath(ZKPaths.makePath(slotPath(bucket, slot), "w-"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException(
          StoreException.Code.COORDINATION_UNAVAILABLE, "interrupted registering a write", e);
    } catch (Exception e) {
      throw new StoreException(
          StoreException.Code.COORDINATION_UNAVAILABLE,
          "cannot register a write in " + bucket + " with the other proxies: " + e,
          e);
    }
    return () -> leave(node);
  }

  /**
   * Deletes a registration's node without waiting for the answer: a write leaves after its last
   * repository call, and its client need not wait for that. The request goes out on this session at
   * once, ahead of any later one, so this proxy's next stamp of the slot (a sync and a read, in
   * order behind it) already sees the departure; another proxy may see the write registered a
   * little longer, which only makes it list. A delete that fails is retried by Curator in the
   * background; the session's end deletes the node too.
   */
  private void leave(String node) {
    try {
      client
          .getZookeeperClient()
          .getZooKeeper()
          .delete(
              ZKPaths.makePath(namespace, node),
              -1,
              (rc, path, ctx) -> {
                if (rc != KeeperException.Code.OK.intValue()
                    && rc != KeeperException.Code.NONODE.intValue()) {
                  retryLeave(node);
                }
              },
              null);
    } catch (Exception e) {
      retryLeave(node);
    }
  }

  private void retryLeave(String node) {
    try {
      client.delete().guaranteed().inBackground().forPath(node);
    } catch (Exception e) {
      LOG.debug("coordination: deleting {} failed: {}", node, e.toString());
    }
  }

  private static String slotPath(String bucket, int slot) {
    return ZKPaths.makePath(KEYS, bucket, String.format(Locale.ROOT, "%03x", slot));
  }
}
