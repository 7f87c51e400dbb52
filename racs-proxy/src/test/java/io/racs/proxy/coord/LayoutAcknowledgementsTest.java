package io.racs.proxy.coord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.reshape.Mover;
import io.racs.proxy.testing.ReshapeRecords;
import io.racs.proxy.testing.TestArray;
import io.racs.testkit.Await;
import io.racs.testkit.DrivenClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves the ZooKeeper acknowledgements of a change of the array record (docs/reshape.md §6) on a
 * real in-process ZooKeeper, with the stores' clocks driven by hand, so that the fence (an hour)
 * never passes by itself: the mover announces the reshape's record at its fence, both members
 * re-read it (their new writes take the target) and acknowledge, and the mover completes at once,
 * before its fence; with a third member that hears but never acknowledges it keeps waiting until
 * the clock is moved past the fence. An announcement by a command that joins no proxy ({@code racs
 * reshape start}, {@code abort}) makes a member re-read at once. Member nodes carry each topic's
 * acknowledgement, and a node of a proxy from before topics counts as a bucket acknowledgement
 * only.
 */
class LayoutAcknowledgementsTest extends ProxiesOverZooKeeper {
  private static final Duration FENCE = Duration.ofHours(1);
  private final DrivenClock clock = new DrivenClock();
  // Stops a mover a failed test left waiting, before the stores close under it.
  private volatile boolean ended;

  @AfterEach
  void endMovers() {
    ended = true;
  }

  /** A proxy's store over the shared repositories, on the driven clock. */
  private ErasureStore drivenStore() {
    ErasureStore store =
        TestArray.builder("4x2")
            .slowShardTimeout(Duration.ofSeconds(5))
            .clock(clock)
            .fs(dir)
            .open()
            .store();
    open.add(store);
    return store;
  }

  private ZooKeeperCoordination joined(ErasureStore store, String id) throws InterruptedException {
    ZooKeeperCoordination c = join(store, id, zookeeper.getConnectString());
    Await.until(id + " connected", c::connected);
    return c;
  }

  private CompletableFuture<Mover.Report> move(ErasureStore store, List<String> progress) {
    return CompletableFuture.supplyAsync(
        () ->
            Mover.run(
                store,
                Mover.Options.defaults()
                    .withRate(0)
                    .withFence(FENCE)
                    .withPause(Duration.ofMillis(50))
                    .withProgress(progress::add)
                    .withStop(() -> ended)));
  }

  @Test
  void fence_whenEveryMemberAcknowledged_endsBeforeItsTime() throws Exception {
    ErasureStore a = drivenStore();
    ErasureStore b = drivenStore();
    ZooKeeperCoordination ca = joined(a, "a");
    joined(b, "b");
    Await.until("a sees both members", () -> ca.members().size() == 2);
    ReshapeRecords.record4x2To3x3(a);
    List<String> progress = new CopyOnWriteArrayList<>();

    Mover.Report report = move(a, progress).get(60, TimeUnit.SECONDS);

    assertThat(report.outcome()).as(report.reason()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(progress)
        .contains(
            "reshape: waiting for every proxy to write the new layout",
            "reshape: every proxy has re-read the array record");
    // b never re-read by itself within the test's clock: it re-read when it heard the announcement.
    assertThat(b.context().writes().geometry()).isEqualTo(Geometry.parse("3x3"));
  }

  @Test
  void fence_whenAMemberNeverAcknowledges_lastsItsWholeTime() throws Exception {
    ErasureStore a = drivenStore();
    ErasureStore b = drivenStore();
    ZooKeeperCoordination ca = joined(a, "a");
    joined(b, "b");
    // A third member that hears the announcement and never says it re-read the record.
    ZooKeeperCoordination cc =
        ZooKeeperCoordination.start(
            new ZooKeeperCoordination.Settings(
                zookeeper.getConnectString(), "racs", "c", "127.0.0.1:3", Duration.ofSeconds(10)),
            bucket -> {},
            () -> {});
    open.add(cc);
    CountDownLatch heard = new CountDownLatch(1);
    cc.layoutChanges().listen(acknowledgement -> heard.countDown());
    Await.until("a sees three members", () -> ca.members().size() == 3);
    ReshapeRecords.record4x2To3x3(a);
    List<String> progress = new CopyOnWriteArrayList<>();

    CompletableFuture<Mover.Report> moving = move(a, progress);

    assertThat(heard.await(30, TimeUnit.SECONDS)).isTrue();
    Await.until(
        "a and b acknowledged", () -> acknowledgedLayout("a") > 0 && acknowledgedLayout("b") > 0);
    // Their acknowledgements are not everyone's: the mover still waits.
    assertThatThrownBy(() -> moving.get(1, TimeUnit.SECONDS)).isInstanceOf(TimeoutException.class);
    assertThat(acknowledgedLayout("c")).isZero();

    clock.advance(FENCE.plusMinutes(1));

    Mover.Report report = moving.get(60, TimeUnit.SECONDS);
    assertThat(report.outcome()).as(report.reason()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(progress).doesNotContain("reshape: every proxy has re-read the array record");
  }

  @Test
  void announceLayoutOnce_byACommandThatJoinsNoProxy_makesEveryMemberReRead() throws Exception {
    ErasureStore b = drivenStore();
    ZooKeeperCoordination cb = joined(b, "b");
    Await.until("b is a member", () -> cb.members().size() == 1);
    ReshapeRecords.record4x2To3x3(b); // as racs reshape start writes it; b has not re-read
    assertThat(b.context().writes().geometry()).isEqualTo(Geometry.parse("4x2"));

    assertThat(
            ZooKeeperCoordination.announceLayoutOnce(
                zookeeper.getConnectString(),
                "racs",
                Duration.ofSeconds(10),
                Duration.ofSeconds(5)))
        .isTrue();

    // Well before b's own re-read (every 10 s) could have found it.
    Await.until(
        "b writes 3x3",
        Duration.ofSeconds(5),
        () -> b.context().writes().geometry().equals(Geometry.parse("3x3")));
  }

  @Test
  void acknowledged_readsEachTopicAndAnOldNodeAsBucketsOnly() {
    String node = "127.0.0.1:9000\nbuckets 12\nusers 15\nlayout 20";
    assertThat(Membership.acknowledged(node, Membership.Topic.BUCKETS)).isEqualTo(12);
    assertThat(Membership.acknowledged(node, Membership.Topic.USERS)).isEqualTo(15);
    assertThat(Membership.acknowledged(node, Membership.Topic.LAYOUT)).isEqualTo(20);
    String old = "127.0.0.1:9000\n12";
    assertThat(Membership.acknowledged(old, Membership.Topic.BUCKETS)).isEqualTo(12);
    assertThat(Membership.acknowledged(old, Membership.Topic.USERS)).isEqualTo(-1);
    assertThat(Membership.acknowledged("127.0.0.1:9000", Membership.Topic.LAYOUT)).isEqualTo(-1);
  }

  /** The layout acknowledgement in member {@code id}'s node, read from ZooKeeper itself. */
  private long acknowledgedLayout(String id) {
    try (var client =
        org.apache.curator.framework.CuratorFrameworkFactory.newClient(
            zookeeper.getConnectString(), new org.apache.curator.retry.RetryOneTime(100))) {
      client.start();
      byte[] data = client.getData().forPath("/racs/members/" + id);
      return Math.max(
          0,
          Membership.acknowledged(
              new String(data, StandardCharsets.UTF_8), Membership.Topic.LAYOUT));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
