package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.commit.CommitOrder;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.stripe.ShardGuess;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.DrivenClock;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which id a version gets ({@link CommitOrder.Pending#versionIdOrData}): a striped PUT's version
 * takes the id its data was stored under when nothing newer was listed or minted for the key, so a
 * reader finds the shards from the listing alone ({@link ShardGuess}); otherwise a fresh id, which
 * keeps the order docs/ordering.md promises. Ids carry what they name in their mark.
 */
class DataIdVersionTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int STRIPED = 300 << 10;

  private final List<ErasureStore> stores = new ArrayList<>();
  private FaultyRepository.Gate gate;

  /**
   * The stores' clock, still unless a test moves it: a version takes its data's id only when it
   * commits within a second (or a quarter of the settle time) of the PUT's start, which on the wall
   * clock a loaded machine could make a PUT miss.
   */
  private final DrivenClock clock = new DrivenClock();

  // Not the common pool: on two cores it has one thread, which one held call would take.
  private final ExecutorService async = Executors.newVirtualThreadPerTaskExecutor();

  @AfterEach
  void close() {
    if (gate != null) {
      gate.open();
    }
    stores.forEach(ErasureStore::close);
    async.shutdownNow();
  }

  private ErasureStore open(TestArray.Builder array, FaultyRepository.Gate gate) {
    this.gate = gate;
    ErasureStore store = array.gated(gate).open().store();
    stores.add(store);
    store.createBucket("bkt");
    // A PUT of another key first, so that the PUTs asserted on do not run on a cold JVM.
    byte[] warm = StoreFixture.bytes(99, STRIPED);
    store.put(
        "bkt",
        "warm",
        new ByteArrayInputStream(warm),
        warm.length,
        ObjectStore.PutOptions.defaults());
    return store;
  }

  private TestArray.Builder config(Duration settleTime) {
    return TestArray.builder("4x2").settleTime(settleTime).clock(clock);
  }

  private static VersionMeta put(ErasureStore store, InputStream body, int size) {
    return store.put("bkt", "k", body, size, ObjectStore.PutOptions.defaults());
  }

  @Test
  void ids_whenMinted_carryWhatTheyName() {
    ErasureStore store =
        open(config(Duration.ofSeconds(60)), new FaultyRepository.Gate(Operation.PUT, n -> false));
    VersionMeta striped =
        put(store, new ByteArrayInputStream(StoreFixture.bytes(1, STRIPED)), STRIPED);
    assertThat(striped.versionId()).isEqualTo(striped.parts().get(0).dataId());
    assertThat(VersionId.Mark.of(striped.versionId())).isEqualTo(VersionId.Mark.DATA);
    VersionMeta inline = put(store, new ByteArrayInputStream(StoreFixture.bytes(2, 100)), 100);
    assertThat(VersionId.Mark.of(inline.versionId())).isEqualTo(VersionId.Mark.INLINE);
    VersionMeta marker = store.delete("bkt", "k").orElseThrow();
    assertThat(VersionId.Mark.of(marker.versionId())).isEqualTo(VersionId.Mark.NONE);
  }

  @Test
  void put_whenSettleTimeIsShort_takesAFreshId() {
    // A quarter of the settle time (2.5 ms) is less than this PUT takes to commit: the data's id
    // would have the version look settled (to heal) before it had settled.
    ErasureStore store =
        open(config(Duration.ofMillis(10)), new FaultyRepository.Gate(Operation.PUT, n -> false));
    InputStream slow =
        new FilterInputStream(new ByteArrayInputStream(StoreFixture.bytes(3, STRIPED))) {
          private boolean waited;

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            if (!waited) {
              waited = true;
              // The body's first bytes arrive 50 ms after the PUT began: a slow client.
              clock.advance(Duration.ofMillis(50));
            }
            return super.read(b, off, len);
          }
        };
    VersionMeta meta = put(store, slow, STRIPED);
    assertThat(meta.versionId()).isNotEqualTo(meta.parts().get(0).dataId());
    assertThat(VersionId.Mark.of(meta.versionId())).isEqualTo(VersionId.Mark.NONE);
  }

  /**
   * Of two overlapping PUTs of a key through one store, the one whose version id is minted later is
   * newer (docs/ordering.md), even when its listing ran before the other's entries landed and its
   * data id, minted when it began, is older than the other's version id.
   */
  @Test
  void overlappingPuts_whenTheEarlierStartedMintsLast_itIsNewest() throws Exception {
    FaultyRepository.Gate entries =
        new FaultyRepository.Gate(Operation.PUT, name -> name.startsWith("i/bkt/k"));
    ErasureStore store = open(config(Duration.ofSeconds(60)), entries);
    byte[] b = StoreFixture.bytes(10, STRIPED);
    byte[] a = StoreFixture.bytes(11, STRIPED);
    CountDownLatch halfway = new CountDownLatch(1);
    CountDownLatch goOn = new CountDownLatch(1);
    InputStream slowB =
        new FilterInputStream(new ByteArrayInputStream(b)) {
          private int served;

          @Override
          public int read(byte[] buffer, int off, int len) throws IOException {
            if (served >= b.length / 2 && halfway.getCount() > 0) {
              halfway.countDown();
              try {
                goOn.await();
              } catch (InterruptedException e) {
                throw new InterruptedIOException();
              }
            }
            int n = super.read(buffer, off, Math.min(len, 4096));
            served += Math.max(0, n);
            return n;
          }
        };
    // B begins (its data id is minted now), and stops halfway through its body.
    CompletableFuture<VersionMeta> putB =
        CompletableFuture.supplyAsync(() -> put(store, slowB, b.length), async);
    halfway.await();
    // A runs and mints its version id, its data's; its entries are held, so no listing shows it.
    entries.arm(6);
    CompletableFuture<VersionMeta> putA =
        CompletableFuture.supplyAsync(
            () -> put(store, new ByteArrayInputStream(a), a.length), async);
    entries.awaitHeld(6, WAIT);
    // B's body ends; its listing finds no A, and its data id is older than A's version id.
    goOn.countDown();
    VersionMeta versionB = putB.get();
    entries.open();
    VersionMeta versionA = putA.get();
    assertThat(versionA.versionId()).isEqualTo(versionA.parts().get(0).dataId());
    assertThat(VersionId.newer(versionB.parts().get(0).dataId(), versionA.versionId())).isFalse();
    // B's id was minted after A's: B is newer, though its data was named first.
    assertThat(VersionId.newer(versionB.versionId(), versionA.versionId())).isTrue();
    try (ObjectStore.ObjectReader current = store.get("bkt", "k", 0, -1, 0)) {
      assertThat(current.meta().versionId()).isEqualTo(versionB.versionId());
    }
  }
}
