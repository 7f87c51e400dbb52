package io.racs.proxy.coord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.testkit.Await;
import java.io.ByteArrayInputStream;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves the coordination of several proxies (stores over the same fs repositories, each with its
 * own {@link ZooKeeperCoordination}) on a real in-process ZooKeeper: the leader's session expiring
 * makes it step down and another proxy lead; with ZooKeeper unreachable (stopped, or never there at
 * start) a proxy leads nothing and refuses bucket creates and deletes with {@code
 * COORDINATION_UNAVAILABLE} before changing anything, while its data path keeps serving; and a
 * bucket deleted through one proxy is refused by another at once, although that one had just seen
 * it exist (its bucket cache would otherwise keep it for a second), and so is a versioning change.
 */
class ZooKeeperCoordinationTest extends ProxiesOverZooKeeper {
  private static void put(ErasureStore store, String bucket, String key) {
    byte[] data = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    store.put(
        bucket,
        key,
        new ByteArrayInputStream(data),
        data.length,
        ObjectStore.PutOptions.defaults());
  }

  @Test
  void sessionExpiry_whenTheLeadersSessionExpires_itStepsDownAndAnotherLeads() throws Exception {
    ErasureStore a = store();
    ErasureStore b = store();
    ZooKeeperCoordination ca = join(a, "a", zookeeper.getConnectString());
    Await.until("a connected and leading", ca::leader);
    ZooKeeperCoordination cb = join(b, "b", zookeeper.getConnectString());
    Await.until("both members seen", () -> ca.members().size() == 2 && cb.members().size() == 2);
    assertThat(cb.leader()).isFalse();

    ca.curator().getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();

    // ZooKeeper leadership is never exclusive at every instant (a learns of its expiry from its
    // own event thread), so this awaits the hand-over rather than asserting one instant of it.
    Await.until("b leads and a does not", () -> cb.leader() && !ca.leader());
    assertThat(cb.leaderId()).contains("b");
    // a comes back with a new session as a member, not as the leader.
    Await.until(
        "a back as a member", () -> cb.members().stream().anyMatch(m -> m.id().equals("a")));
    Await.until("a connected again", ca::connected);
    assertThat(ca.leader()).isFalse();
  }

  @Test
  void unreachable_whenZooKeeperStops_refusesBucketChangesAndKeepsServingData() throws Exception {
    ErasureStore a = store();
    ZooKeeperCoordination ca = join(a, "a", zookeeper.getConnectString());
    Await.until("a leads", ca::leader);
    a.createBucket("kept");
    put(a, "kept", "before");

    zookeeper.stop();
    Await.until("a not connected", () -> !ca.connected());

    assertThat(ca.leader()).isFalse();
    assertThatThrownBy(() -> a.createBucket("fresh"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.COORDINATION_UNAVAILABLE));
    assertThatThrownBy(() -> a.deleteBucket("kept"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.COORDINATION_UNAVAILABLE));
    assertThat(a.bucketExists("fresh")).isFalse(); // refused before anything changed
    put(a, "kept", "during");
    assertThat(a.head("kept", "before").sizeBytes()).isEqualTo(6);
    assertThat(a.head("kept", "during").sizeBytes()).isEqualTo(6);

    zookeeper.restart();
    Await.until("a connected again", ca::connected);
    Await.until("a leads again", ca::leader);
    a.createBucket("fresh");
    assertThat(a.bucketExists("fresh")).isTrue();
  }

  @Test
  void unreachable_whenNoZooKeeperAtStart_leadsNothingAndServesData() throws Exception {
    ErasureStore a = store();
    a.createBucket("kept"); // before joining: no coordination yet
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    ZooKeeperCoordination ca = join(a, "a", "127.0.0.1:" + port);

    assertThat(ca.connected()).isFalse();
    assertThat(ca.leader()).isFalse();
    assertThat(ca.members()).isEmpty();
    assertThatThrownBy(() -> a.createBucket("fresh"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.COORDINATION_UNAVAILABLE));
    put(a, "kept", "k");
    assertThat(a.head("kept", "k").sizeBytes()).isEqualTo(1);

    // A proxy shut down meanwhile is not held up by Curator's retries (about 20 s).
    long closing = System.nanoTime();
    ca.close();
    assertThat(Duration.ofNanos(System.nanoTime() - closing)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void awaitConnected_whenZooKeeperRuns_returnsConnected_andWithoutItFalseAtTheBound()
      throws Exception {
    ZooKeeperCoordination ca = join(store(), "a", zookeeper.getConnectString());
    assertThat(ca.awaitConnected(Duration.ofSeconds(30))).isTrue();
    assertThat(ca.connected()).isTrue();

    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    ZooKeeperCoordination cb = join(store(), "b", "127.0.0.1:" + port);
    long started = System.nanoTime();
    assertThat(cb.awaitConnected(Duration.ofMillis(300))).isFalse();
    assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(300_000_000L);
  }

  @Test
  void bucketDelete_throughOneProxy_isRefusedByAnotherAtOnce() throws Exception {
    ErasureStore a = store();
    ErasureStore b = store();
    ZooKeeperCoordination ca = join(a, "a", zookeeper.getConnectString());
    ZooKeeperCoordination cb = join(b, "b", zookeeper.getConnectString());
    Await.until(
        "both connected and seen", () -> ca.members().size() == 2 && cb.members().size() == 2);
    for (int round = 0; round < 5; round++) {
      String bucket = "bkt-" + round;
      a.createBucket(bucket);
      put(b, bucket, "k"); // b has now seen the bucket exist, and caches that for a second
      b.delete(bucket, "k", ObjectStore.WriteCondition.NONE);
      a.deleteBucket(bucket);
      // At once, through b: the bucket is gone.
      assertThatThrownBy(() -> put(b, bucket, "late"))
          .isInstanceOfSatisfying(
              StoreException.class,
              e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_BUCKET));
    }
  }

  @Test
  void versioningChange_throughOneProxy_namesTheNextWriteThroughAnotherAtOnce() throws Exception {
    ErasureStore a = store();
    ErasureStore b = store();
    ZooKeeperCoordination ca = join(a, "a", zookeeper.getConnectString());
    ZooKeeperCoordination cb = join(b, "b", zookeeper.getConnectString());
    Await.until(
        "both connected and seen", () -> ca.members().size() == 2 && cb.members().size() == 2);
    a.createBucket("ver");
    for (int round = 0; round < 3; round++) {
      a.enableVersioning("ver");
      put(b, "ver", "k"); // b has now seen the state, and caches it for a second
      assertThat(b.head("ver", "k").nullVersion()).isFalse();
      a.setVersioning("ver", ObjectStore.Versioning.SUSPENDED);
      // At once, through b: the write is the null version.
      put(b, "ver", "k");
      assertThat(b.head("ver", "k").nullVersion()).as("round %d", round).isTrue();
      assertThat(b.versioning("ver")).isEqualTo(ObjectStore.Versioning.SUSPENDED);
    }
  }

  @Test
  void bucketCreate_concurrentThroughTwoProxies_exactlyOneSucceeds() throws Exception {
    ErasureStore a = store();
    ErasureStore b = store();
    ZooKeeperCoordination ca = join(a, "a", zookeeper.getConnectString());
    ZooKeeperCoordination cb = join(b, "b", zookeeper.getConnectString());
    Await.until(
        "both connected and seen", () -> ca.members().size() == 2 && cb.members().size() == 2);
    for (int round = 0; round < 5; round++) {
      String bucket = "race-" + round;
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      Thread ta = Thread.ofVirtual().start(() -> attempt(() -> a.createBucket(bucket), failures));
      Thread tb = Thread.ofVirtual().start(() -> attempt(() -> b.createBucket(bucket), failures));
      ta.join();
      tb.join();
      assertThat(failures)
          .singleElement()
          .isInstanceOfSatisfying(
              StoreException.class,
              e -> assertThat(e.code()).isEqualTo(StoreException.Code.BUCKET_ALREADY_EXISTS));
    }
  }

  private static void attempt(Runnable r, List<Throwable> failures) {
    try {
      r.run();
    } catch (RuntimeException e) {
      failures.add(e);
    }
  }
}
