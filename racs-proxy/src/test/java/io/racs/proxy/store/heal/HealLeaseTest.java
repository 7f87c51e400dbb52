package io.racs.proxy.store.heal;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.testkit.DrivenClock;
import io.racs.testkit.TestSeed;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the heal lease of proxies without ZooKeeper (issue #19): stores over the same six fs
 * directories, whose clocks are 30 s behind and ahead of one driven clock, never hold the lease at
 * once (also when they race for it on threads, checked on the recorded history), a holder that
 * stops renewing loses it before anyone else can take it and hands it over once its records expire,
 * what it left is deleted, and m repositories down change nothing.
 */
class HealLeaseTest {
  private static final Duration TTL = HealLease.DEFAULT_TTL;

  @TempDir Path dir;

  private final DrivenClock clock = new DrivenClock();
  private final List<ErasureStore> stores = new ArrayList<>();
  // Each store's view of each slot, to take repositories down for all of them.
  private final List<List<FaultyRepository>> views = new ArrayList<>();

  @AfterEach
  void close() {
    stores.reversed().forEach(ErasureStore::close);
  }

  /**
   * A proxy's store over the shared directories, its clock {@code skewSeconds} off the driven one.
   */
  private ErasureStore store(int skewSeconds) throws Exception {
    TestArray array =
        TestArray.builder("4x2")
            .slowShardTimeout(Duration.ofSeconds(5))
            .clock(Clock.offset(clock, Duration.ofSeconds(skewSeconds)))
            .fs(dir)
            .faulty()
            .open();
    ErasureStore store = array.store();
    stores.add(store);
    views.add(array.faulty());
    return store;
  }

  private static HealLease lease(ErasureStore store, String id) {
    return HealLease.create(store, id, TTL);
  }

  @Test
  void tryAcquire_whileAProxyWhoseClockIsBehindHolds_isRefusedToTheOthers() throws Exception {
    HealLease behind = lease(store(-30), "behind");
    HealLease exact = lease(store(0), "exact");
    HealLease ahead = lease(store(30), "ahead");

    assertThat(behind.tryAcquire()).isTrue();

    assertThat(ahead.tryAcquire()).isFalse();
    assertThat(exact.tryAcquire()).isFalse();
    assertThat(behind.held()).isTrue();
    // The refused candidates took their records back: only the holder's is left.
    assertThat(behind.records()).hasSize(1);
  }

  @Test
  void renew_everyThirdOfTheTtl_keepsTheLeaseFromSkewedProxiesPastManyTtls() throws Exception {
    HealLease holder = lease(store(-30), "holder");
    HealLease ahead = lease(store(30), "ahead");
    assertThat(holder.tryAcquire()).isTrue();

    for (int i = 0; i < 10; i++) {
      clock.advance(holder.renewEvery());
      assertThat(holder.renew()).as("renewal %d", i).isTrue();
      assertThat(ahead.tryAcquire()).as("attempt %d", i).isFalse();
    }
    assertThat(holder.held()).isTrue();
    // A holder keeps its newest record and the one before it, no more.
    assertThat(holder.records()).hasSize(2);
  }

  @Test
  void tryAcquire_afterTheHolderStoppedRenewing_handsOverOnlyOnceItStoppedHolding()
      throws Exception {
    HealLease holder = lease(store(-30), "holder");
    HealLease ahead = lease(store(30), "ahead");
    HealLease exact = lease(store(0), "exact");
    assertThat(holder.tryAcquire()).isTrue();

    // The holder's clock says ttl/2 passed without a renewal: it stops, like a lost leader.
    clock.advance(TTL.dividedBy(2));
    assertThat(holder.held()).isFalse();
    // Its record is not expired yet for anyone, not even for the clock 60 s ahead of its own.
    clock.advance(TTL.dividedBy(2).minus(HealLease.MAX_SKEW.multipliedBy(2)));
    assertThat(ahead.tryAcquire()).isFalse();
    assertThat(exact.tryAcquire()).isFalse();

    // Now it is, for the clock ahead (ttl - 60 s after the record by the true clock).
    clock.advance(Duration.ofSeconds(1));
    assertThat(ahead.tryAcquire()).isTrue();
    assertThat(exact.tryAcquire()).isFalse();
    assertThat(holder.renew()).isFalse();
    assertThat(holder.held()).isFalse();
    // The crashed holder's record was deleted by the candidate that found it expired.
    assertThat(ahead.records()).hasSize(1);
  }

  @Test
  void tryAcquire_afterAHolderCrashed_deletesEveryRecordItLeft() throws Exception {
    HealLease crashed = lease(store(0), "crashed");
    HealLease next = lease(store(-30), "next");
    assertThat(crashed.tryAcquire()).isTrue();
    clock.advance(crashed.renewEvery());
    assertThat(crashed.renew()).isTrue();
    assertThat(crashed.records()).hasSize(2);

    // It stops renewing and is never heard of again.
    clock.advance(TTL.plus(HealLease.MAX_SKEW).plusSeconds(1));
    assertThat(next.tryAcquire()).isTrue();

    assertThat(next.records()).hasSize(1);
    next.release();
    assertThat(next.records()).isEmpty();
    assertThat(next.held()).isFalse();
  }

  @Test
  void tryAcquire_withMRepositoriesDown_stillExcludesAndHandsOver() throws Exception {
    HealLease first = lease(store(30), "first");
    HealLease second = lease(store(-30), "second");
    for (List<FaultyRepository> view : views) {
      view.get(1).outage(true);
      view.get(4).outage(true);
    }

    assertThat(first.tryAcquire()).isTrue();
    assertThat(second.tryAcquire()).isFalse();
    clock.advance(first.renewEvery());
    assertThat(first.renew()).isTrue();
    assertThat(second.tryAcquire()).isFalse();

    first.release();
    assertThat(second.tryAcquire()).isTrue();
    assertThat(first.tryAcquire()).isFalse();
  }

  @Test
  void tryAcquire_withMoreThanMRepositoriesDown_isRefused() throws Exception {
    HealLease lease = lease(store(0), "only");
    for (List<FaultyRepository> view : views) {
      view.get(0).outage(true);
      view.get(2).outage(true);
      view.get(5).outage(true);
    }

    assertThat(lease.tryAcquire()).isFalse();
    assertThat(lease.held()).isFalse();
  }

  @Test
  void tryAcquire_racedByThreeSkewedProxies_neverHasTwoHolders() throws Exception {
    long seed = TestSeed.get();
    int[] skews = {-30, 0, 30};
    List<HealLease> leases = new ArrayList<>();
    for (int i = 0; i < skews.length; i++) {
      leases.add(lease(store(skews[i]), "p" + i));
    }
    // "+id" once a proxy holds the lease, "-id" right before it gives it up: with one holder at a
    // time the history alternates +x -x.
    List<String> history = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < leases.size(); i++) {
      HealLease lease = leases.get(i);
      String id = "p" + i;
      Random random = new Random(seed + i);
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      start.await();
                    } catch (InterruptedException e) {
                      return;
                    }
                    for (int round = 0; round < 200; round++) {
                      if (lease.tryAcquire()) {
                        history.add("+" + id);
                        for (int r = random.nextInt(3); r > 0; r--) {
                          lease.renew();
                        }
                        history.add("-" + id);
                        lease.release();
                      }
                    }
                  }));
    }
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }

    assertThat(history).isNotEmpty();
    List<String> snapshot = List.copyOf(history);
    for (int i = 0; i < snapshot.size(); i += 2) {
      assertThat(snapshot.get(i)).as("event %d of %s", i, snapshot).startsWith("+");
      assertThat(snapshot.get(i + 1))
          .as("event %d of %s", i + 1, snapshot)
          .isEqualTo("-" + snapshot.get(i).substring(1));
    }
    assertThat(leases.getFirst().records()).isEmpty();
  }
}
