package io.racs.proxy.coord;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One kind of change announced through one node ({@code /users}, {@code /reshape}) and acknowledged
 * in the member nodes ({@link Membership}, under its {@link Membership.Topic}). Whoever made a
 * change writes the node; every proxy watches it and tells its listeners, each of which runs the
 * acknowledgement it is handed once it has acted on the change (re-read what changed, from the
 * array); when every listener has, the proxy acknowledges the node's zxid. The announcer may then
 * wait, bounded, until every live member has ({@link #announce}). What changed is never in the node
 * (its content is the time of the announcement): it is read from the array.
 *
 * <p>A proxy with no listener acknowledges at once: nothing in it holds what changed. An
 * acknowledgement a listener never runs (its re-read failed) only makes the announcer wait its
 * bound; the listener's next periodic re-read catches up.
 *
 * <p>Thread-safe. Listeners are called on Curator's event thread and must not block.
 */
final class AnnouncedNode {
  private static final Logger LOG = LoggerFactory.getLogger(AnnouncedNode.class);

  private final CuratorFramework client;
  private final String path;
  private final Membership.Topic topic;
  private final Membership membership;
  private final BooleanSupplier connected;
  private final CuratorCache node;
  private final List<Consumer<Runnable>> listeners = new CopyOnWriteArrayList<>();

  AnnouncedNode(
      CuratorFramework client,
      String path,
      Membership.Topic topic,
      Membership membership,
      BooleanSupplier connected) {
    this.client = client;
    this.path = path;
    this.topic = topic;
    this.membership = membership;
    this.connected = connected;
    this.node = CuratorCache.build(client, path, CuratorCache.Options.SINGLE_NODE_CACHE);
    node.listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forAll((type, before, after) -> heard(after != null ? after : before))
                .build());
  }

  /** Starts the watch of the node. */
  void start() {
    node.start();
  }

  /**
   * Calls {@code changed} with an acknowledgement whenever the node changes (and when changes may
   * have been missed, {@link #missed}); {@code changed} runs it once it has acted on the change.
   */
  void listen(Consumer<Runnable> changed) {
    listeners.add(changed);
  }

  /** The node changed: tell the listeners, and acknowledge once each has acted on it. */
  private void heard(ChildData data) {
    long zxid = data == null || data.getStat() == null ? 0 : data.getStat().getMzxid();
    tell(() -> membership.heard(topic, zxid));
  }

  /** Tells the listeners that announcements may have been missed (the session was interrupted). */
  void missed() {
    tell(() -> {});
  }

  private void tell(Runnable acknowledge) {
    if (listeners.isEmpty()) {
      acknowledge.run();
      return;
    }
    AtomicInteger waiting = new AtomicInteger(listeners.size());
    for (Consumer<Runnable> listener : listeners) {
      try {
        listener.accept(
            () -> {
              if (waiting.decrementAndGet() == 0) {
                acknowledge.run();
              }
            });
      } catch (RuntimeException e) {
        LOG.warn("coordination: a listener of {} failed: {}", path, e.toString());
      }
    }
  }

  /**
   * Announces a change (written already) to every proxy and returns the wait for their
   * acknowledgements. Never throws: when ZooKeeper is not connected or the node cannot be written,
   * nobody hears, and the wait returns false at its bound (the proxies see the change at their next
   * periodic re-read).
   */
  Acknowledgements announce() {
    if (!connected.getAsBoolean()) {
      LOG.warn(
          "coordination: ZooKeeper is not connected: the proxies see the change of {} at their next"
              + " periodic re-read",
          path);
      return new Acknowledgements(membership, topic, Long.MAX_VALUE);
    }
    return new Acknowledgements(membership, topic, write(client, path));
  }

  /** The wait for every live member's acknowledgement of one announcement. */
  record Acknowledgements(Membership membership, Membership.Topic topic, long zxid) {
    /** Whether the announcement was made: otherwise nobody heard, and nobody acknowledges. */
    boolean made() {
      return zxid != Long.MAX_VALUE;
    }

    /** Waits at most {@code atMost} until every live member acknowledged; says whether all did. */
    boolean await(Duration atMost) {
      // When nobody heard (zxid MAX_VALUE) this waits the whole bound, which paces the caller.
      return membership.awaitAllHeard(topic, zxid, System.nanoTime() + atMost.toNanos());
    }
  }

  /**
   * Writes the node at {@code path} and returns its zxid, {@link Long#MAX_VALUE} when it could not
   * be written (nobody hears of the change then).
   */
  static long write(CuratorFramework client, String path) {
    try {
      Stat stat = new Stat();
      client
          .create()
          .orSetData()
          .creatingParentsIfNeeded()
          .storingStatIn(stat)
          .forPath(
              path, Long.toString(System.currentTimeMillis()).getBytes(StandardCharsets.US_ASCII));
      long zxid = stat.getMzxid();
      // A create reports no stat here: read the node's.
      return zxid != 0 ? zxid : client.checkExists().forPath(path).getMzxid();
    } catch (Exception e) {
      LOG.warn(
          "coordination: cannot announce a change of {}; the proxies see it at their next periodic"
              + " re-read: {}",
          path,
          e.toString());
      return Long.MAX_VALUE;
    }
  }

  /**
   * Announces a change through a session of its own, for a command that is no proxy ({@code racs
   * users}, {@code racs reshape start}): it joins nothing (no member node, no leader latch), waits
   * at most {@code connectWait} for the session, writes the node, waits at most {@code ackWait} for
   * every live proxy's acknowledgement (zero: not at all), and ends the session.
   *
   * @return whether the announcement was made (acknowledged or not); when not, the proxies see the
   *     change at their next periodic re-read
   */
  static boolean announceOnce(
      String connectString,
      String namespace,
      Duration sessionTimeout,
      Duration connectWait,
      String path,
      Membership.Topic topic,
      Duration ackWait) {
    CuratorFramework client =
        CuratorFrameworkFactory.builder()
            .connectString(connectString)
            .namespace(namespace)
            .sessionTimeoutMs((int) sessionTimeout.toMillis())
            .connectionTimeoutMs((int) Math.min(15_000, connectWait.toMillis()))
            .retryPolicy(new ExponentialBackoffRetry(200, 2, 1_000))
            .build();
    client.start();
    Membership members = Membership.observer(client);
    boolean connected = false;
    try {
      connected = client.blockUntilConnected((int) connectWait.toMillis(), TimeUnit.MILLISECONDS);
      if (!connected) {
        return false;
      }
      if (!ackWait.isZero()) {
        members.start();
      }
      long zxid = write(client, path);
      if (zxid == Long.MAX_VALUE) {
        return false;
      }
      if (!ackWait.isZero()
          && !new Acknowledgements(members, topic, zxid).await(ackWait)
          && !Thread.currentThread().isInterrupted()) {
        LOG.info(
            "coordination: not every proxy acknowledged the change of {} within {} ms",
            path,
            ackWait.toMillis());
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      if (connected) {
        members.close();
        client.close();
      } else {
        // Not connected, Curator would retry for seconds before closing: there is no session.
        Thread.ofPlatform()
            .daemon()
            .name("zookeeper-close")
            .start(
                () -> {
                  members.close();
                  client.close();
                });
      }
    }
  }

  void close() {
    node.close();
  }
}
