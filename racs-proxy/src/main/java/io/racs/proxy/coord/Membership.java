package io.racs.proxy.coord;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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
 * The live proxies: {@code /members/<id>}, an ephemeral node per proxy holding its address and the
 * newest bucket change it has heard of (its acknowledgement), and a watch of every member's node,
 * so that a proxy that made a change can wait until each member has heard of it.
 *
 * <p>Thread-safe.
 */
final class Membership {
  private static final Logger LOG = LoggerFactory.getLogger(Membership.class);

  private static final String MEMBERS = "/members";

  private final CuratorFramework client;
  private final String address;
  private final String memberPath;
  private final CuratorCache members;
  private final AtomicLong heard = new AtomicLong();
  private final Object acks = new Object();

  Membership(CuratorFramework client, String proxyId, String address) {
    this.client = client;
    this.address = address;
    this.memberPath = ZKPaths.makePath(MEMBERS, proxyId);
    this.members = CuratorCache.build(client, MEMBERS);
    members
        .listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forAll(
                    (type, before, after) -> {
                      synchronized (acks) {
                        acks.notifyAll();
                      }
                    })
                .build());
  }

  /** Starts the watch of the members' nodes. */
  void start() {
    members.start();
  }

  /**
   * Writes this proxy's member node (ephemeral: it goes with the session) with the newest bucket
   * change heard of, in the background. A change not acknowledged only makes its maker wait out
   * {@link BucketChanges#ACK_WAIT}.
   */
  void announce() {
    try {
      client
          .create()
          .orSetData()
          .creatingParentContainersIfNeeded()
          .withMode(CreateMode.EPHEMERAL)
          .inBackground()
          .forPath(memberPath, (address + "\n" + heard.get()).getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      LOG.debug("coordination: cannot write the member node: {}", e.toString());
    }
  }

  /** Acknowledges the bucket change {@code zxid}, if it is the newest this proxy heard of. */
  void heard(long zxid) {
    if (heard.accumulateAndGet(zxid, Math::max) == zxid) {
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
   * Waits until every member has acknowledged the change {@code zxid} ({@link Long#MAX_VALUE}: a
   * change the others will not hear of), until {@code deadlineNanos} at the latest; says whether
   * they all did.
   */
  boolean awaitAllHeard(long zxid, long deadlineNanos) {
    synchronized (acks) {
      while (!allHeard(zxid)) {
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

  private boolean allHeard(long zxid) {
    if (zxid == Long.MAX_VALUE) {
      return false;
    }
    return memberNodes()
        .allMatch(
            d -> {
              String data = data(d);
              int newline = data.indexOf('\n');
              try {
                return newline >= 0 && Long.parseLong(data.substring(newline + 1)) >= zxid;
              } catch (NumberFormatException e) {
                return false;
              }
            });
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
