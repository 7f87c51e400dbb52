package io.racs.proxy.store.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.StoreFixture;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.Await;
import io.racs.testkit.CountingRepository.Kind;
import io.racs.testkit.CountingRepository.Ledger;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Background removals keep a pace ({@link CollectionPace}): twice the rate at which removals come
 * in, and at least {@value CollectionPace#FLOOR_PER_SECOND} a second. A burst of superseded
 * versions that comes due when the writes have stopped is removed at the floor's rate, not as fast
 * as the cores allow, so the requests of that moment keep their cores (issue 20). Everything runs
 * on a driven ticker: nothing waits on real time.
 */
class CollectionPaceTest {
  private static final long SECOND = 1_000_000_000L;
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final AtomicLong ticks = new AtomicLong(7 * SECOND);
  private ErasureStore store;
  private FaultyRepository.Gate gate;

  @AfterEach
  void close() {
    if (gate != null) {
      gate.open();
    }
    if (store != null) {
      store.collector().pace().unpace(); // a test that failed must not leave its close waiting
      store.close();
    }
  }

  @Test
  void reserve_givesASecondOfTheFloorAtOnce_thenOneTokenPerHundredthOfASecond() {
    CollectionPace pace = new CollectionPace(ticks::get);
    for (int i = 0; i < CollectionPace.FLOOR_PER_SECOND; i++) {
      assertThat(pace.reserve()).as("token %d", i).isZero();
    }
    assertThat(pace.reserve()).isEqualTo(SECOND / CollectionPace.FLOOR_PER_SECOND);
    ticks.addAndGet(SECOND / CollectionPace.FLOOR_PER_SECOND);
    assertThat(pace.reserve()).isZero();
    assertThat(pace.reserve()).isEqualTo(SECOND / CollectionPace.FLOOR_PER_SECOND);
  }

  @Test
  void reserve_afterAnHourIdle_hasSavedUpOneSecondOnly() {
    CollectionPace pace = new CollectionPace(ticks::get);
    ticks.addAndGet(3600 * SECOND);
    for (int i = 0; i < CollectionPace.FLOOR_PER_SECOND; i++) {
      assertThat(pace.reserve()).as("token %d", i).isZero();
    }
    assertThat(pace.reserve()).isPositive();
  }

  @Test
  void perSecond_isTwiceTheArrivalsOfTheLastSecond_andFallsBackToTheFloor() {
    CollectionPace pace = new CollectionPace(ticks::get);
    assertThat(pace.perSecond()).isEqualTo(CollectionPace.FLOOR_PER_SECOND);
    for (int i = 0; i < 300; i++) {
      pace.arrived();
    }
    assertThat(pace.perSecond()).isEqualTo(600);
    ticks.addAndGet(SECOND); // the next second: the last one's arrivals still count
    assertThat(pace.perSecond()).isEqualTo(600);
    pace.arrived();
    assertThat(pace.perSecond()).isEqualTo(600);
    ticks.addAndGet(2 * SECOND); // a whole second with no arrival
    assertThat(pace.perSecond()).isEqualTo(CollectionPace.FLOOR_PER_SECOND);

    // At 600 a second, the tokens come six times as fast as at the floor.
    for (int i = 0; i < 300; i++) {
      pace.arrived();
    }
    ticks.addAndGet(SECOND / 2); // refills 300 tokens, on top of what was saved
    for (int i = 0; i < 400; i++) {
      assertThat(pace.reserve()).as("token %d", i).isZero();
    }
    assertThat(pace.reserve()).isEqualTo(SECOND / 600 + 1);
  }

  @Test
  void reserve_onceUnpaced_neverWaits() {
    CollectionPace pace = new CollectionPace(ticks::get);
    pace.unpace();
    for (int i = 0; i < 10 * CollectionPace.FLOOR_PER_SECOND; i++) {
      assertThat(pace.reserve()).isZero();
    }
  }

  /** A store over six memory repositories behind {@code gates}, every call counted. */
  private void open(Ledger ledger, FaultyRepository.Gate... gates) {
    TestArray.Builder array =
        TestArray.builder("4x2")
            .settleTime(Duration.ZERO)
            .stallGrace(Duration.ofSeconds(30))
            .ticker(ticks::get);
    for (FaultyRepository.Gate g : gates) {
      array.gated(g);
    }
    store = array.counting(ledger).open().store();
    store.createBucket("bkt");
    // Reads the bucket's state, which stays cached while the ticker stands still: the writes never
    // list the bucket's records, and the collection, which asks whether the bucket keeps versions
    // each time, does.
    store.list("bkt", new ObjectStore.ListRequest("", null, "", 1));
  }

  private byte[] overwrite(int times) {
    long seed = TestSeed.get();
    byte[] last = null;
    for (int i = 0; i < times; i++) {
      last = StoreFixture.bytes(seed + i, 100);
      store.put(
          "bkt",
          "k",
          new ByteArrayInputStream(last),
          last.length,
          ObjectStore.PutOptions.defaults());
    }
    return last;
  }

  /**
   * 301 overwrites of one key, with the collection's first step (reading whether the bucket keeps
   * versions) held while they all land in one second of the ticker; then two seconds on, when
   * nothing has come in for a second, so the pace is the floor's with a second of it saved up.
   * Returns the last body written.
   */
  private byte[] backlogAtTheFloorsPace(Ledger ledger) throws InterruptedException {
    gate =
        new FaultyRepository.Gate(
            Operation.LIST, (Layout.bucketPrefix() + "bkt" + Layout.SEPARATOR)::equals);
    open(ledger, gate);
    gate.arm(6);
    byte[] last = overwrite(301);
    gate.awaitHeld(6, WAIT);
    ticks.addAndGet(2 * SECOND);
    assertThat(store.collector().pace().perSecond()).isEqualTo(CollectionPace.FLOOR_PER_SECOND);
    gate.open();
    return last;
  }

  /**
   * 301 overwrites of one key, then the writes stop: their 300 superseded versions are removed 100
   * a second (the ticker moves a second at a time), and none is left once the pace allowed them
   * all. Without the pace, every one went at once.
   */
  @Test
  void supersededVersions_comingDueAfterTheWritesStopped_goAtTheFloorsPace() throws Exception {
    Ledger ledger = new Ledger(6);
    byte[] last = backlogAtTheFloorsPace(ledger);

    // 100 removals (6 discards each), and the next waits for the ticker.
    assertRemovedWhenWaiting(ledger, 100);
    ticks.addAndGet(SECOND);
    assertRemovedWhenWaiting(ledger, 200);
    ticks.addAndGet(SECOND); // the last 100, at the pace (nothing waits for them to lift it)
    Await.until("all 300 removed", WAIT, () -> discards(ledger) == 300 * 6L);
    try (ObjectStore.ObjectReader reader = store.get("bkt", "k", 0, -1, 0)) {
      assertThat(reader.body().readAllBytes()).isEqualTo(last);
    }
  }

  /**
   * A store closing with a backlog the pace has not reached yet removes it at once and returns: it
   * serves no request any more. The ticker stands still, so paced, the backlog would never go.
   */
  @Test
  void close_withABacklogThePaceHasNotReached_removesItAllAndReturns() throws Exception {
    Ledger ledger = new Ledger(6);
    backlogAtTheFloorsPace(ledger);
    assertRemovedWhenWaiting(ledger, 100);

    CompletableFuture<Void> closing = CompletableFuture.runAsync(store::close);
    closing.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    store = null;
    assertThat(discards(ledger)).isEqualTo(300 * 6);
  }

  /**
   * Heal, which waits for what the collector is doing before it scans, does not wait behind a paced
   * backlog: the pace is lifted while it waits. The ticker stands still, so paced, the backlog
   * would never go and heal would never scan.
   */
  @Test
  void heal_withABacklogThePaceHasNotReached_liftsThePaceAndScans() throws Exception {
    Ledger ledger = new Ledger(6);
    backlogAtTheFloorsPace(ledger);
    assertRemovedWhenWaiting(ledger, 100);

    CompletableFuture<HealReport> healing =
        CompletableFuture.supplyAsync(() -> Healer.heal(store, HealOptions.defaults()));
    healing.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(discards(ledger)).isEqualTo(300 * 6);
    // Once heal has its answer, the pace holds again.
    assertThat(store.collector().pace().reserve()).isPositive();
  }

  /**
   * The versions of one key are removed several at a time: one removal held at an entry's discard
   * does not hold the others. One at a time, over distant repositories, a key overwritten steadily
   * gained versions faster than they went.
   */
  @Test
  void supersededVersionsOfOneKey_whileOneRemovalIsHeld_goOnBeingRemoved() throws Exception {
    Ledger ledger = new Ledger(6);
    FaultyRepository.Gate collection =
        new FaultyRepository.Gate(
            Operation.LIST, (Layout.bucketPrefix() + "bkt" + Layout.SEPARATOR)::equals);
    String entries = Layout.indexPrefix("bkt");
    gate = new FaultyRepository.Gate(Operation.DELETE, name -> name.startsWith(entries));
    open(ledger, collection, gate);
    collection.arm(6); // the collection starts once all 10 versions are written
    overwrite(10);
    collection.awaitHeld(6, WAIT);
    gate.arm(1);
    collection.open();

    // One discard of one removal is held; the other 8 removals and that one's 5 other discards end.
    gate.awaitHeld(1, WAIT);
    gate.awaitCompleted(8 * 6 + 5, WAIT);
    gate.open();
    store.awaitCollections();
    assertThat(discards(ledger)).isEqualTo(9 * 6);
  }

  private void assertRemovedWhenWaiting(Ledger ledger, int removals) throws InterruptedException {
    Await.until(
        "the collection waits for the pace after " + removals + " removals",
        WAIT,
        () -> store.collector().pace().waiting() == 1 && discards(ledger) >= removals * 6L);
    // The ticker stands still: no token comes, so no removal more can have started.
    assertThat(discards(ledger)).isEqualTo(removals * 6L);
  }

  private static long discards(Ledger ledger) {
    String entries = Layout.indexPrefix("bkt");
    return ledger.calls().stream()
        .filter(c -> c.kind() == Kind.DISCARD && c.key().startsWith(entries))
        .count();
  }
}
