package io.racs.proxy.coord;

import io.racs.proxy.store.BucketCoordinator;
import io.racs.proxy.store.Healer;
import io.racs.proxy.store.KeyStamps;
import io.racs.proxy.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One proxy's part in the coordination of several proxies over one array, on ZooKeeper.
 *
 * <p>Under the namespace ({@code /racs} by default) it keeps:
 *
 * <ul>
 *   <li>{@code /members/<id>}: an ephemeral node per live proxy, holding its address and the newest
 *       bucket change it has heard of (recreated by Curator after a session expires);
 *   <li>{@code /leader}: a {@link LeaderLatch}; the leader alone runs scrub and lifecycle scan;
 *   <li>{@code /scrub}: the scrub's checkpoint, so that a new leader resumes where the old stopped;
 *   <li>{@code /locks/<bucket>}: an {@link InterProcessMutex} that serialises the bucket's creates
 *       and deletes across proxies;
 *   <li>{@code /buckets/<bucket>}: a node written after each create or delete of the bucket. Every
 *       proxy watches these nodes ({@link CuratorCache}), forgets its cached state of a bucket when
 *       its node changes, and then records the change's zxid in its member node. The proxy that
 *       made the change answers its client only when every member has recorded it, or when {@link
 *       #ACK_WAIT} has passed (longer than any proxy caches bucket state, so by then no cache can
 *       still hold the old state).
 * </ul>
 *
 * <p>While the session is not connected (ZooKeeper unreachable at start, {@code SUSPENDED}, {@code
 * LOST}) the proxy is not leader ({@link #leader()} is false at once, before the latch itself
 * notices), bucket creates and deletes are refused with {@code COORDINATION_UNAVAILABLE} (a 503),
 * the bucket cache is not trusted, and the data path carries on: it needs no coordination.
 *
 * <p>Thread-safe.
 */
public final class ZooKeeperCoordination implements BucketCoordinator, KeyStamps, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperCoordination.class);

  /**
   * How long a bucket change waits for every member to acknowledge it: twice the bucket cache's
   * lifetime (one second), so that a member that never acknowledges has dropped its cached state by
   * then anyway.
   */
  static final Duration ACK_WAIT = Duration.ofSeconds(2);

  /** How long a bucket change waits for another proxy's change of the same bucket. */
  static final Duration LOCK_WAIT = Duration.ofSeconds(10);

  private static final String MEMBERS = "/members";
  private static final String BUCKETS = "/buckets";
  private static final String LOCKS = "/locks";
  private static final String CHECKPOINT = "/scrub";
  private static final String KEYS = "/keys";

  /**
   * What a proxy needs to join.
   *
   * @param connectString ZooKeeper servers, {@code host:port,...}
   * @param namespace the root all nodes live under (proxies of one array share it)
   * @param proxyId this proxy's unique id
   * @param address where clients reach this proxy (shown to operators)
   * @param sessionTimeout the ZooKeeper session timeout
   */
  public record Settings(
      String connectString,
      String namespace,
      String proxyId,
      String address,
      Duration sessionTimeout) {
    public Settings {
      Objects.requireNonNull(connectString, "connectString");
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(proxyId, "proxyId");
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(sessionTimeout, "sessionTimeout");
      if (proxyId.isEmpty() || proxyId.contains("/")) {
        throw new IllegalArgumentException(
            "coordination.id: " + proxyId + " (expected: a non-empty name without '/')");
      }
    }
  }

  /** A live proxy as its member node says: its id and address. */
  public record Member(String id, String address) {}

  private final Settings settings;
  private final CuratorFramework client;
  private final Consumer<String> bucketChanged;
  private final Runnable everythingChanged;
  private final LeaderLatch latch;
  private final String memberPath;
  private final CuratorCache buckets;
  private final CuratorCache members;
  private final AtomicLong heard = new AtomicLong();
  private final Object acks = new Object();
  private final Object connection = new Object();
  private volatile boolean connected;

  private ZooKeeperCoordination(
      Settings settings, Consumer<String> bucketChanged, Runnable everythingChanged) {
    this.settings = settings;
    this.bucketChanged = bucketChanged;
    this.everythingChanged = everythingChanged;
    this.client =
        CuratorFrameworkFactory.builder()
            .connectString(settings.connectString())
            .namespace(settings.namespace())
            .sessionTimeoutMs((int) settings.sessionTimeout().toMillis())
            .connectionTimeoutMs((int) Math.min(15_000, settings.sessionTimeout().toMillis()))
            .retryPolicy(new ExponentialBackoffRetry(200, 5, 5_000))
            .build();
    this.latch = new LeaderLatch(client, "/leader", settings.proxyId());
    this.memberPath = ZKPaths.makePath(MEMBERS, settings.proxyId());
    this.buckets = CuratorCache.build(client, BUCKETS);
    this.members = CuratorCache.build(client, MEMBERS);
  }

  /**
   * Joins the proxies: starts the session (in the background: a ZooKeeper that cannot be reached
   * yet only means not connected), the member node, the leader latch and the watches.
   *
   * @param bucketChanged told the name of a bucket created or deleted (by any proxy, this one
   *     included) as soon as this proxy hears of it
   * @param everythingChanged told when changes may have been missed (the session was interrupted)
   */
  public static ZooKeeperCoordination start(
      Settings settings, Consumer<String> bucketChanged, Runnable everythingChanged) {
    ZooKeeperCoordination c = new ZooKeeperCoordination(settings, bucketChanged, everythingChanged);
    c.client.getConnectionStateListenable().addListener((client, state) -> c.stateChanged(state));
    c.buckets
        .listenable()
        .addListener(CuratorCacheListener.builder().forAll(c::bucketEvent).build());
    c.members
        .listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forAll(
                    (type, before, after) -> {
                      synchronized (c.acks) {
                        c.acks.notifyAll();
                      }
                    })
                .build());
    c.client.start();
    c.buckets.start();
    c.members.start();
    try {
      c.latch.start();
    } catch (Exception e) {
      c.close();
      throw new IllegalStateException("coordination: cannot start the leader latch", e);
    }
    return c;
  }

  private void stateChanged(ConnectionState state) {
    boolean now = state.isConnected();
    if (now != connected) {
      LOG.info("coordination: {} ({})", now ? "connected" : "not connected", state);
    }
    connected = now;
    synchronized (connection) {
      connection.notifyAll();
    }
    if (now) {
      // A new session has no member node (the old one's went with it): write it again.
      announceMember();
    }
    // Changes made while this proxy could not hear of them are not in its cache's events: forget
    // everything once when the session goes, and once more when it is back.
    everythingChanged.run();
  }

  private void bucketEvent(CuratorCacheListener.Type type, ChildData before, ChildData after) {
    ChildData node = after != null ? after : before;
    if (node == null || node.getPath().equals(BUCKETS)) {
      return;
    }
    bucketChanged.accept(ZKPaths.getNodeFromPath(node.getPath()));
    long zxid = node.getStat() == null ? 0 : node.getStat().getMzxid();
    if (heard.accumulateAndGet(zxid, Math::max) == zxid) {
      announceMember();
    }
  }

  /**
   * Writes this proxy's member node (ephemeral: it goes with the session) with the newest bucket
   * change heard of, in the background. A change not acknowledged only makes its maker wait out
   * {@link #ACK_WAIT}.
   */
  private void announceMember() {
    try {
      client
          .create()
          .orSetData()
          .creatingParentContainersIfNeeded()
          .withMode(CreateMode.EPHEMERAL)
          .inBackground()
          .forPath(memberPath, memberData(heard.get()));
    } catch (Exception e) {
      LOG.debug("coordination: cannot write the member node: {}", e.toString());
    }
  }

  private byte[] memberData(long zxid) {
    return (settings.address() + "\n" + zxid).getBytes(StandardCharsets.UTF_8);
  }

  /** Whether the session is connected now. */
  public boolean connected() {
    return connected;
  }

  /**
   * Waits until the session is connected, for at most {@code timeout}, and says whether it is. A
   * proxy never waits (ZooKeeper unreachable only means not connected), but a measurement of the
   * coordinated store must not begin before it is: until then every read lists and a bucket create
   * is refused.
   */
  public boolean awaitConnected(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (connection) {
      while (!connected) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        connection.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
    }
    return true;
  }

  /**
   * Whether this proxy is the leader now: connected and holding the latch. Checked by the
   * background work before each step, so that a proxy that loses its session stops at once.
   */
  public boolean leader() {
    return connected && latch.hasLeadership();
  }

  /** The Curator client, for tests that expire its session. */
  CuratorFramework curator() {
    return client;
  }

  /** This proxy's id. */
  public String id() {
    return settings.proxyId();
  }

  /** The live proxies, by id, as last seen (empty while never connected). */
  public List<Member> members() {
    List<Member> list = new ArrayList<>();
    members.stream()
        .filter(d -> !d.getPath().equals(MEMBERS))
        .forEach(
            d -> {
              String data =
                  d.getData() == null ? "" : new String(d.getData(), StandardCharsets.UTF_8);
              int newline = data.indexOf('\n');
              list.add(
                  new Member(
                      ZKPaths.getNodeFromPath(d.getPath()),
                      newline < 0 ? data : data.substring(0, newline)));
            });
    list.sort((a, b) -> a.id().compareTo(b.id()));
    return list;
  }

  /** The leader's id, if one is known. */
  public Optional<String> leaderId() {
    if (!connected) {
      return Optional.empty();
    }
    try {
      String id = latch.getLeader().getId();
      return id.isEmpty() ? Optional.empty() : Optional.of(id);
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  /**
   * The scrub's checkpoint, kept in ZooKeeper so that the next leader resumes there. Writes are
   * best effort: a checkpoint not written is an older one, which only makes the next scrub check
   * again what this one checked.
   */
  public Healer.Checkpoint scrubCheckpoint() {
    return new Healer.Checkpoint() {
      @Override
      public Optional<String> read() {
        try {
          byte[] data = client.getData().forPath(CHECKPOINT);
          return data == null || data.length == 0
              ? Optional.empty()
              : Optional.of(new String(data, StandardCharsets.UTF_8));
        } catch (KeeperException.NoNodeException e) {
          return Optional.empty();
        } catch (Exception e) {
          LOG.debug("coordination: cannot read the scrub checkpoint: {}", e.toString());
          return Optional.empty();
        }
      }

      @Override
      public void write(String state) {
        try {
          client
              .create()
              .orSetData()
              .creatingParentsIfNeeded()
              .forPath(CHECKPOINT, state.getBytes(StandardCharsets.UTF_8));
        } catch (Exception e) {
          LOG.debug("coordination: cannot write the scrub checkpoint: {}", e.toString());
        }
      }

      @Override
      public void clear() {
        try {
          client.create().orSetData().creatingParentsIfNeeded().forPath(CHECKPOINT, new byte[0]);
        } catch (Exception e) {
          LOG.debug("coordination: cannot clear the scrub checkpoint: {}", e.toString());
        }
      }
    };
  }

  @Override
  public <T> T change(String bucket, Supplier<T> change) {
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
    if (!connected) {
      return null;
    }
    String path = "/" + settings.namespace() + slotPath(bucket, slot);
    try {
      org.apache.zookeeper.ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
      CompletableFuture<Integer> synced = new CompletableFuture<>();
      zk.sync("/" + settings.namespace(), (rc, p, ctx) -> synced.complete(rc), null);
      Stat stat = zk.exists(path, false);
      // The read follows the sync only if the sync went through: a connection lost between the two
      // fails the sync, and the read, queued after that, goes out alone on the next connection,
      // maybe to a server that has not heard of the latest registrations yet. The sync's answer
      // came before the read's, so its callback is at most queued.
      if (synced.get(settings.sessionTimeout().toMillis(), TimeUnit.MILLISECONDS)
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
    if (!connected) {
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
              ZKPaths.makePath(settings.namespace(), node),
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
    return ZKPaths.makePath(KEYS, bucket, String.format(java.util.Locale.ROOT, "%03x", slot));
  }

  private void requireConnected(String bucket) {
    if (!connected) {
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
    long zxid;
    try {
      Stat stat = new Stat();
      client
          .create()
          .orSetData()
          .creatingParentsIfNeeded()
          .storingStatIn(stat)
          .forPath(ZKPaths.makePath(BUCKETS, bucket), new byte[0]);
      zxid = stat.getMzxid();
      if (zxid == 0) {
        // A create reports no stat here: read the node's.
        zxid = client.checkExists().forPath(ZKPaths.makePath(BUCKETS, bucket)).getMzxid();
      }
    } catch (Exception e) {
      // The other proxies will not hear of it: wait until their caches have expired.
      LOG.warn("coordination: cannot announce a change of bucket {}: {}", bucket, e.toString());
      zxid = Long.MAX_VALUE;
    }
    long deadline = System.nanoTime() + ACK_WAIT.toNanos();
    synchronized (acks) {
      while (!allHeard(zxid)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          LOG.debug("coordination: not every proxy acknowledged the change of {}", bucket);
          return;
        }
        try {
          acks.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private boolean allHeard(long zxid) {
    if (zxid == Long.MAX_VALUE) {
      return false;
    }
    return members.stream()
        .filter(d -> !d.getPath().equals(MEMBERS))
        .allMatch(
            d -> {
              String data =
                  d.getData() == null ? "" : new String(d.getData(), StandardCharsets.UTF_8);
              int newline = data.indexOf('\n');
              try {
                return newline >= 0 && Long.parseLong(data.substring(newline + 1)) >= zxid;
              } catch (NumberFormatException e) {
                return false;
              }
            });
  }

  @Override
  public boolean cacheTrusted() {
    return connected;
  }

  /** Leaves the proxies: gives up the leadership and the member node, and ends the session. */
  @Override
  public void close() {
    boolean wasConnected = connected;
    connected = false;
    if (wasConnected) {
      // Not connected, giving up the latch would wait for a connection that may never come; the
      // session's end removes its node all the same (it is ephemeral), as it removes the member's.
      try {
        latch.close();
      } catch (Exception | LinkageError e) {
        LOG.debug("coordination: closing the leader latch: {}", e.toString());
      }
    }
    if (!wasConnected) {
      // Not connected, Curator would retry for about 20 s before closing (its caches and the
      // session), holding up the proxy's shutdown for nothing: there is no session to end, or the
      // server ends it at its timeout anyway. So that happens in the background.
      Thread.ofPlatform().daemon().name("zookeeper-close").start(this::closeClient);
      return;
    }
    closeClient();
  }

  private void closeClient() {
    buckets.close();
    members.close();
    client.close();
  }
}
