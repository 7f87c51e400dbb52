package io.racs.proxy.coord;

import io.racs.proxy.users.UserChanges;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Changes of the stored users across proxies: {@code /users}, one node written after each change of
 * a user record (by a proxy or by {@code racs users}), and a watch of it ({@link CuratorCache})
 * that tells this proxy's listeners, which re-read the users. The node's content is only the time
 * of the last announcement; what changed is read from the array, never from ZooKeeper. Nobody waits
 * for the other proxies to have re-read (unlike {@link BucketChanges}): a proxy that has not heard
 * yet serves the users it read last, as it would without coordination.
 *
 * <p>Thread-safe.
 */
public final class UserAnnouncements implements UserChanges {
  private static final Logger LOG = LoggerFactory.getLogger(UserAnnouncements.class);

  static final String USERS = "/users";

  private final CuratorFramework client;
  private final BooleanSupplier connected;
  private final CuratorCache node;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

  UserAnnouncements(CuratorFramework client, BooleanSupplier connected) {
    this.client = client;
    this.connected = connected;
    this.node = CuratorCache.build(client, USERS, CuratorCache.Options.SINGLE_NODE_CACHE);
    node.listenable()
        .addListener(
            CuratorCacheListener.builder().forAll((type, before, after) -> heard()).build());
  }

  /** Starts the watch of the node. */
  void start() {
    node.start();
  }

  /** Tells the listeners: the users changed, or announcements may have been missed. */
  void heard() {
    for (Runnable listener : listeners) {
      try {
        listener.run();
      } catch (RuntimeException e) {
        LOG.warn("coordination: a listener of user changes failed: {}", e.toString());
      }
    }
  }

  @Override
  public void announce() {
    if (!connected.getAsBoolean()) {
      // Curator would retry for seconds; the change is written, and the proxies re-read anyway.
      LOG.warn(
          "coordination: ZooKeeper is not connected: the proxies see the change of the users at"
              + " their next periodic re-read");
      return;
    }
    write(client);
  }

  @Override
  public void listen(Runnable changed) {
    listeners.add(changed);
  }

  void close() {
    node.close();
  }

  /**
   * Announces a change of the stored users through a session of its own, for a command that changes
   * them without being a proxy ({@code racs users}): it joins nothing (no member node, no leader
   * latch), waits at most {@code connectWait} for the session, writes the node and ends the
   * session.
   *
   * @return whether the announcement was made; when not, the proxies see the change at their next
   *     periodic re-read
   */
  public static boolean announceOnce(
      String connectString, String namespace, Duration sessionTimeout, Duration connectWait) {
    CuratorFramework client =
        CuratorFrameworkFactory.builder()
            .connectString(connectString)
            .namespace(namespace)
            .sessionTimeoutMs((int) sessionTimeout.toMillis())
            .connectionTimeoutMs((int) Math.min(15_000, connectWait.toMillis()))
            .retryPolicy(new ExponentialBackoffRetry(200, 2, 1_000))
            .build();
    client.start();
    boolean connected = false;
    try {
      connected = client.blockUntilConnected((int) connectWait.toMillis(), TimeUnit.MILLISECONDS);
      return connected && write(client);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      if (connected) {
        client.close();
      } else {
        // Not connected, Curator would retry for seconds before closing: there is no session.
        Thread.ofPlatform().daemon().name("zookeeper-close").start(client::close);
      }
    }
  }

  private static boolean write(CuratorFramework client) {
    try {
      client
          .create()
          .orSetData()
          .creatingParentsIfNeeded()
          .forPath(
              USERS, Long.toString(System.currentTimeMillis()).getBytes(StandardCharsets.US_ASCII));
      return true;
    } catch (Exception e) {
      LOG.warn(
          "coordination: cannot announce a change of the users; the proxies see it at their next"
              + " periodic re-read: {}",
          e.toString());
      return false;
    }
  }
}
