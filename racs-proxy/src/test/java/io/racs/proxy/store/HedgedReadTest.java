package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.LatencyEstimates;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.TestSeed;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Proves that reads hedge by each repository's own recent latency: once the array has seen a
 * repository answer, a read whose shard on it is late past that repository's percentile asks a
 * parity shard and answers byte-exact from any k, without waiting for the late one, and counts the
 * hedge; a record read likewise asks another copy. The stall grace and slow-shard timeout are ten
 * minutes here, so the peers' rule (a quarter of the stall grace) would hedge only after two and a
 * half minutes: finishing within the class timeout while the repository is frozen shows that the
 * repository's own estimate decided (before hedging by estimates, each of these tests hung until
 * the timeout).
 */
@Timeout(60)
class HedgedReadTest {
  private static final Duration LONG = Duration.ofMinutes(10);
  private final long seed = TestSeed.get();
  private StoreFixture f;

  private StoreFixture open(StoreConfig.Hedge hedge) {
    f =
        new StoreFixture(
            TestArray.builder("4x2")
                .blockBytes(4096)
                .minPartBytes(4096)
                .inlineBytes(1024)
                .slowShardTimeout(LONG)
                .stallGrace(LONG)
                .gcGrace(Duration.ZERO)
                .hedge(hedge));
    f.store.createBucket("bkt");
    return f;
  }

  @AfterEach
  void close() {
    if (f != null) {
      f.faulty.forEach(FaultyRepository::thaw);
      f.close();
    }
  }

  /**
   * Gives every repository a history of answering {@code kind} reads in {@code micros} (a full
   * reservoir), and {@code fastest} one of answering in no time: what the array would have learned
   * from earlier reads, set here so that which repositories a read asks first does not depend on
   * how busy the test machine is.
   */
  private void history(LatencyEstimates.Kind kind, long micros, int fastest) {
    LatencyEstimates latencies = f.store.context().array.latencies();
    for (int slot = 0; slot < 6; slot++) {
      for (int i = 0; i < LatencyEstimates.SAMPLES; i++) {
        latencies.record(slot, kind, slot == fastest ? 0 : micros * 1_000);
      }
    }
  }

  private void history(LatencyEstimates.Kind kind, long micros) {
    history(kind, micros, -1);
  }

  @Test
  void get_whenADataRepositoryFreezes_answersFromParityWithoutWaitingForIt() {
    open(StoreConfig.Hedge.DEFAULT);
    byte[] data = StoreFixture.bytes(seed, 40_000); // ten stripes
    VersionMeta meta = f.put("bkt", "k", data);
    assertThat(f.get("bkt", "k")).isEqualTo(data); // caches the record: what freezes is shards
    history(LatencyEstimates.Kind.SHARD, 100);
    assertThat(f.store.stats().hedgedShardReads()).isZero();
    int frozen = meta.parts().get(0).slots().get(0);
    f.faulty.get(frozen).freeze();

    assertThat(f.get("bkt", "k")).isEqualTo(data);
    assertThat(f.store.stats().hedgedShardReads()).isPositive();
    assertThat(f.store.stats().degradedStripes()).isPositive();
    // Every stripe parity stood in for was only around the late shard: a hedge, not a repair.
    assertThat(f.store.stats().slowShardStripes()).isEqualTo(f.store.stats().degradedStripes());
  }

  @Test
  void get_whenInlineAndADataRepositoryFreezes_readsTheShardInAnotherRecord() {
    open(StoreConfig.Hedge.DEFAULT);
    byte[] data = StoreFixture.bytes(seed + 1, 900); // inline: the shards are in the records
    VersionMeta meta = f.put("bkt", "small", data);
    assertThat(f.get("bkt", "small")).isEqualTo(data);
    history(LatencyEstimates.Kind.RECORD, 100);
    int frozen = meta.parts().get(0).slots().get(1);
    f.faulty.get(frozen).freeze();

    assertThat(f.get("bkt", "small")).isEqualTo(data);
    assertThat(f.store.stats().hedgedShardReads()).isPositive();
  }

  @Test
  void head_whenTheCopyAskedFirstIsHeld_readsAnotherCopy() throws InterruptedException {
    open(StoreConfig.Hedge.DEFAULT);
    byte[] data = StoreFixture.bytes(seed + 2, 40_000);
    f.put("bkt", "k", data);
    // A proxy that has not read the record yet. (The writer is not closed: closing a store closes
    // its repositories, which this one shares.)
    f.reopen();
    int held = 3;
    // The record is read from the repository expected fastest first: the one whose next GET is
    // held (its listing answers, so the listing names the record there).
    history(LatencyEstimates.Kind.RECORD, 100, held);
    FaultyRepository.Stall stall = f.faulty.get(held).stall(Operation.GET);
    try {
      assertThat(f.store.head("bkt", "k").sizeBytes()).isEqualTo(data.length);
      stall.awaitStalled(); // it was asked, and answered nothing
      assertThat(f.store.stats().hedgedRecordReads()).isPositive();
    } finally {
      stall.release();
    }
  }

  /**
   * The path where a hedge's parity fails later: in the first stripe the data shard on a held
   * repository is late, so the read asks parity shard 4 instead and drops the late one as "slower
   * than parity" for the rest of the read; in the second stripe shard 4's piece is corrupt and
   * shard 5's repository refuses it, so only three shards are left unless the read asks the shard
   * it went around again (its repository answers a new request at once: only the first was held).
   * Without that revival the read fails with too few shards.
   */
  @Test
  void get_whenTheParityAHedgeChoseFailsInALaterStripe_asksTheShardItWentAroundAgain()
      throws Exception {
    open(StoreConfig.Hedge.DEFAULT);
    byte[] data = StoreFixture.bytes(seed + 3, 40_000); // ten stripes of 4 KiB
    VersionMeta meta = f.put("bkt", "k", data);
    assertThat(f.get("bkt", "k")).isEqualTo(data); // caches the record: every GET is a shard's
    PartMeta part = meta.parts().get(0);
    int late = part.slots().get(0);
    int parity = part.slots().get(4);
    int refusing = part.slots().get(5);
    // Shard 4's piece of stripe 1 rots, in place (its CRC32C no longer matches).
    String parityShard = Layout.shard(part.dataId(), 4);
    byte[] stored;
    try (var in = f.memories.get(parity).get(parityShard, 0, -1)) {
      stored = in.readAllBytes();
    }
    stored[(int) part.shardOffset(1)] ^= 0x5A;
    f.memories.get(parity).put(parityShard, StoreFixture.stream(stored), stored.length);
    f.faulty
        .get(refusing)
        .failKeys(
            Pattern.compile(Pattern.quote(Layout.shard(part.dataId(), 5))),
            RepositoryException.Kind.UNAVAILABLE);
    history(LatencyEstimates.Kind.SHARD, 100);
    FaultyRepository.Stall held = f.faulty.get(late).stall(Operation.GET);
    try {
      assertThat(f.get("bkt", "k")).isEqualTo(data);
      held.awaitStalled(); // shard 0's first request is still held: its bytes came from a second
      assertThat(f.store.stats().hedgedShardReads()).isPositive();
    } finally {
      held.release();
    }
  }
}
