package io.racs.proxy.coord;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live proxies: {@code /members/<id>}, an ephemeral node per proxy holding its address and, for
 * each kind of change ({@link Topic}), the newest announcement of it that the proxy has acted on
 * (its acknowledgement), and a watch of every member's node, so that a proxy that made a change can
 * wait until each member has acted on it. One mechanism for every kind: a change is announced by
 * writing a node, and acknowledged by the announcement's zxid.
 *
 * <p>A member node reads {@code <address>\n<topic> <zxid>\n...}, one line per topic. A node of a
 * proxy from before topics holds a bare zxid on its second line: its bucket acknowledgement (it
 * acknowledges nothing else, so a change of another kind waits its bound for it).
 *
 * <p>Thread-safe.
 */
final class Membership {
  private static final Logger LOG = LoggerFactory.getLogger(Membership.class);

  private static final String MEMBERS = "/members";

  /** What a member acknowledges, each announced by a node of its own. */
  enum Topic {
    /** Bucket creates and deletes ({@link BucketChanges}): the member forgot its cached state. */
    BUCKETS,
    /** Changes of the stored users ({@link UserAnnouncements}): the member re-read the users. */
    USERS,
    /** Changes of the array record ({@code /reshape}): the member re-read the array record. */
    LAYOUT;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final CuratorFramework client;
  private final String address;
  private final String memberPath;
  private final CuratorCache members;
  private final Map<Topic, AtomicLong> heard = new EnumMap<>(Topic.class);
  private final Object acks = new Object();
  private volatile boolean loaded;

  Membership(CuratorFramework client, String proxyId, String address) {
    this.client = client;
    this.address = address;
    this.memberPath = proxyId == null ? null : ZKPaths.makePath(MEMBERS, proxyId);
    for (Topic topic : Topic.values()) {
      heard.put(topic, new AtomicLong());
    }
    this.members = CuratorCache.build(client, MEMBERS);
    members
        .listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forAll((type, before, after) -> wake())
                .forInitialized(
                    () -> {
                      loaded = true;
                      wake();
                    })
                .build());
  }

  /**
   * A watch of the members that is none itself, for a command that announces a change and waits for
   * the proxies' acknowledgements without joining them ({@code racs users}).
   */
  static Membership observer(CuratorFramework client) {
    return new Membership(client, null, null);
  }

  private void wake() {
    synchronized (acks) {
      acks.notifyAll();
    }
  }

  /** Starts the watch of the members' nodes. */
  void start() {
    members.start();
  }

  /**
   * Writes this proxy's member node (ephemeral: it goes with the session) with the newest change of
   * each topic acted on, in the background. A change not acknowledged only makes its maker wait out
   * its bound ({@link BucketChanges#ACK_WAIT}, {@link UserAnnouncements#ACK_WAIT}, the fence).
   */
  void announce() {
    if (memberPath == null) {
      return; // an observer has no node
    }
    StringBuilder data = new StringBuilder(address);
    for (Topic topic : Topic.values()) {
      data.append('\n').append(topic.label()).append(' ').append(heard.get(topic).get());
    }
    try {
      client
          .create()
          .orSetData()
          .creatingParentContainersIfNeeded()
          .withMode(CreateMode.EPHEMERAL)
          .inBackground()
          .forPath(memberPath, data.toString().getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      LOG.debug("coordination: cannot write the member node: {}", e.toString());
    }
  }

  /** Acknowledges the change {@code zxid} of {@code topic}, if it is the newest acted on. */
  void heard(Topic topic, long zxid) {
    if (heard.get(topic).accumulateAndGet(zxid, Math::max) == zxid) {
      announce();
    }
  }

  /** The live proxies, by id, as last seen (empty while never connected). */
  List<ZooKeeperCoordination.Member> members() {
    List<ZooKeeperCoordination.Member> list = new ArrayList<>();
    memberNodes()
        .forEach(
            d -> {
              String data = data(d);
              int newline = data.indexOf('\n');
              list.add(
                  new ZooKeeperCoordination.Member(
                      ZKPaths.getNodeFromPath(d.getPath()),
                      newline < 0 ? data : data.substring(0, newline)));
            });
    list.sort((a, b) -> a.id().compareTo(b.id()));
    return list;
  }

  /**
   * Waits until every live member has acknowledged the change {@code zxid} of {@code topic} ({@link
   * Long#MAX_VALUE}: a change the others will not hear of), until {@code deadlineNanos} at the
   * latest; says whether they all did. Never true before the members' nodes have been read once.
   */
  boolean awaitAllHeard(Topic topic, long zxid, long deadlineNanos) {
    synchronized (acks) {
      while (!allHeard(topic, zxid)) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          acks.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }

  private boolean allHeard(Topic topic, long zxid) {
    if (zxid == Long.MAX_VALUE || !loaded) {
      return false;
    }
    return memberNodes().allMatch(d -> acknowledged(data(d), topic) >= zxid);
  }

  /** The newest change of {@code topic} a member node's {@code data} acknowledges (-1: none). */
  static long acknowledged(String data, Topic topic) {
    String[] lines = data.split("\n");
    for (int i = 1; i < lines.length; i++) {
      String line = lines[i];
      int space = line.indexOf(' ');
      try {
        if (space < 0 ? topic == Topic.BUCKETS : line.substring(0, space).equals(topic.label())) {
          return Long.parseLong(space < 0 ? line : line.substring(space + 1));
        }
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return -1;
  }

  private java.util.stream.Stream<ChildData> memberNodes() {
    return members.stream().filter(d -> !d.getPath().equals(MEMBERS));
  }

  private static String data(ChildData node) {
    return node.getData() == null ? "" : new String(node.getData(), StandardCharsets.UTF_8);
  }

  void close() {
    members.close();
  }
}
