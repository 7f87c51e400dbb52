package io.racs.proxy.coord;

import io.racs.proxy.store.array.KeyStamps;
import io.racs.proxy.store.array.LayoutChanges;
import io.racs.proxy.store.bucket.BucketCoordinator;
import io.racs.proxy.store.heal.HealCheckpoint;
import io.racs.proxy.users.UserChanges;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One proxy's part in the coordination of several proxies over one array, on ZooKeeper.
 *
 * <p>Under the namespace ({@code /racs} by default) it keeps:
 *
 * <ul>
 *   <li>{@code /members/<id>}: an ephemeral node per live proxy, holding its address and the newest
 *       change of buckets, users and the array record it has acted on (recreated by Curator after a
 *       session expires; {@link Membership});
 *   <li>{@code /leader}: a {@link LeaderLatch}; the leader alone runs scrub and lifecycle scan;
 *   <li>{@code /scrub}: the scrub's checkpoint, so that a new leader resumes where the old stopped;
 *   <li>{@code /locks/<bucket>}: an {@link InterProcessMutex} that serialises the bucket's creates
 *       and deletes across proxies;
 *   <li>{@code /buckets/<bucket>}: a node written after each create or delete of the bucket. Every
 *       proxy watches these nodes ({@link CuratorCache}), forgets its cached state of a bucket when
 *       its node changes, and then records the change's zxid in its member node. The proxy that
 *       made the change answers its client only when every member has recorded it, or when {@link
 *       BucketChanges#ACK_WAIT} has passed (longer than any proxy caches bucket state, so by then
 *       no cache can still hold the old state);
 *   <li>{@code /keys/<bucket>/<slot>}: the writes in progress in a slot of the bucket's keys, whose
 *       last change is the slot's stamp for the version cache ({@link KeyStamps});
 *   <li>{@code /users}: a node written after each change of a stored user; every proxy watches it,
 *       re-reads the users when it changes and acknowledges that in its member node; the change
 *       returns once every member has, or after {@link UserAnnouncements#ACK_WAIT} ({@link
 *       UserChanges});
 *   <li>{@code /reshape}: a node written after each change of the array record (by {@code racs
 *       reshape start} and {@code abort}, and by the mover when it waits for the fence); every
 *       proxy watches it, re-reads the array record when it changes and acknowledges that in its
 *       member node, so the mover's fence ends once every member has ({@link LayoutChanges}).
 * </ul>
 *
 * <p>This class owns the session and its connection state; each concern has its own class: {@link
 * Membership}, {@link Leadership} (with the scrub's checkpoint), {@link BucketChanges} (the locks
 * and the announcements), {@link WriteRegistrations} (the key stamps) and {@link UserAnnouncements}
 * (the users' changes).
 *
 * <p>While the session is not connected (ZooKeeper unreachable at start, {@code SUSPENDED}, {@code
 * LOST}) the proxy is not leader ({@link #leader()} is false at once, before the latch itself
 * notices), bucket creates and deletes are refused with {@code COORDINATION_UNAVAILABLE} (a 503),
 * the bucket cache is not trusted, and the data path carries on: it needs no coordination.
 *
 * <p>Thread-safe.
 */
public final class ZooKeeperCoordination
    implements BucketCoordinator, KeyStamps, UserChanges, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperCoordination.class);

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

  /** The node written after each change of the array record ({@link #layoutChanges}). */
  static final String RESHAPE = "/reshape";

  private final Settings settings;
  private final CuratorFramework client;
  private final Runnable everythingChanged;
  private final Membership membership;
  private final Leadership leadership;
  private final BucketChanges bucketChanges;
  private final WriteRegistrations writes;
  private final UserAnnouncements users;
  private final AnnouncedNode reshape;
  private final Object connection = new Object();
  private volatile boolean connected;

  private ZooKeeperCoordination(
      Settings settings, Consumer<String> bucketChanged, Runnable everythingChanged) {
    this.settings = settings;
    this.everythingChanged = everythingChanged;
    this.client =
        CuratorFrameworkFactory.builder()
            .connectString(settings.connectString())
            .namespace(settings.namespace())
            .sessionTimeoutMs((int) settings.sessionTimeout().toMillis())
            .connectionTimeoutMs((int) Math.min(15_000, settings.sessionTimeout().toMillis()))
            .retryPolicy(new ExponentialBackoffRetry(200, 5, 5_000))
            .build();
    this.membership = new Membership(client, settings.proxyId(), settings.address());
    this.leadership = new Leadership(client, settings.proxyId());
    this.bucketChanges = new BucketChanges(client, this::connected, membership, bucketChanged);
    this.writes =
        new WriteRegistrations(
            client, settings.namespace(), settings.sessionTimeout(), this::connected);
    this.users = new UserAnnouncements(client, this::connected, membership);
    this.reshape =
        new AnnouncedNode(client, RESHAPE, Membership.Topic.LAYOUT, membership, this::connected);
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
    c.client.start();
    c.bucketChanges.start();
    c.users.start();
    c.reshape.start();
    c.membership.start();
    try {
      c.leadership.start();
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
      membership.announce();
    }
    // Changes made while this proxy could not hear of them are not in its cache's events: forget
    // everything once when the session goes, and once more when it is back.
    everythingChanged.run();
    if (now) {
      // Announcements of user and array record changes may have been missed meanwhile too.
      users.missed();
      reshape.missed();
    }
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
    return connected && leadership.holdsLatch();
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
    return membership.members();
  }

  /** The leader's id, if one is known. */
  public Optional<String> leaderId() {
    return connected ? leadership.leaderId() : Optional.empty();
  }

  /**
   * The scrub's checkpoint, kept in ZooKeeper so that the next leader resumes there. Writes are
   * best effort: a checkpoint not written is an older one, which only makes the next scrub check
   * again what this one checked.
   */
  public HealCheckpoint scrubCheckpoint() {
    return leadership.scrubCheckpoint();
  }

  @Override
  public <T> T change(String bucket, Supplier<T> change) {
    return bucketChanges.change(bucket, change);
  }

  /** See {@link WriteRegistrations#stamp}. */
  @Override
  public Stamp stamp(String bucket, int slot) {
    return writes.stamp(bucket, slot);
  }

  /** See {@link WriteRegistrations#writing}. */
  @Override
  public Registration writing(String bucket, int slot) {
    return writes.writing(bucket, slot);
  }

  /** See {@link UserAnnouncements}. */
  @Override
  public void announce() {
    users.announce();
  }

  /** See {@link UserAnnouncements}. */
  @Override
  public void listen(Consumer<Runnable> changed) {
    users.listen(changed);
  }

  /**
   * The announcements of changes of the array record ({@code /reshape}) and their acknowledgements
   * in the member nodes, for the store ({@link io.racs.proxy.store.ErasureStore#coordinateLayout}).
   */
  public LayoutChanges layoutChanges() {
    return new LayoutChanges() {
      @Override
      public Acknowledgements announce() {
        return reshape.announce()::await;
      }

      @Override
      public void listen(Consumer<Runnable> changed) {
        reshape.listen(changed);
      }
    };
  }

  /**
   * Announces a change of the array record through a session of its own, for a command that is no
   * proxy ({@code racs reshape start}, {@code abort}): every proxy re-reads the record at once.
   * Waits for no acknowledgement (the mover does, at its fence).
   *
   * @return whether the announcement was made
   */
  public static boolean announceLayoutOnce(
      String connectString, String namespace, Duration sessionTimeout, Duration connectWait) {
    return AnnouncedNode.announceOnce(
        connectString,
        namespace,
        sessionTimeout,
        connectWait,
        RESHAPE,
        Membership.Topic.LAYOUT,
        Duration.ZERO);
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
      leadership.close();
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
    bucketChanges.close();
    users.close();
    reshape.close();
    membership.close();
    client.close();
  }
}
