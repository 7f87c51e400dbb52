package io.racs.proxy.store.array;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.stripe.ReadOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Latency estimates age: a repository that reads stopped asking is not judged for ever by how it
 * was when they stopped. On a driven ticker.
 */
class LatencyEstimatesTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  private final AtomicLong now = new AtomicLong(1_000 * MS);
  private final StoreConfig.Hedge hedge = StoreConfig.Hedge.DEFAULT;
  private final LatencyEstimates estimates = new LatencyEstimates(6, hedge, now::get);

  private void record(int slot, long nanos, int times) {
    for (int i = 0; i < times; i++) {
      estimates.record(slot, LatencyEstimates.Kind.SHARD, nanos);
    }
  }

  /** The order a read of a 4+2 part over slots 0..5 asks its shards in. */
  private List<Integer> readOrder() {
    List<Integer> shards = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5));
    ReadOrder.sort(shards, List.of(0, 1, 2, 3, 4, 5), 4, estimates, LatencyEstimates.Kind.SHARD);
    return shards;
  }

  @Test
  void estimate_whenSamplesAreRecent_isTheirMedianAndPercentile() {
    assertThat(hedge.enabled()).isTrue();
    record(0, 40 * MS, 32);
    record(0, 60 * MS, 32);
    assertThat(estimates.expectedNanos(0, LatencyEstimates.Kind.SHARD)).isEqualTo(40 * MS);
    assertThat(estimates.hedgeDelayNanos(0, LatencyEstimates.Kind.SHARD))
        .isEqualTo(
            Math.min(hedge.maxDelay().toNanos(), Math.max(hedge.minDelay().toNanos(), 60 * MS)));
  }

  @Test
  void estimate_whenEverySampleIsOlderThanItsLifetime_isNone() {
    record(0, 50 * MS, LatencyEstimates.SAMPLES);
    now.addAndGet(LatencyEstimates.SAMPLE_LIFETIME_NANOS);
    assertThat(estimates.expectedNanos(0, LatencyEstimates.Kind.SHARD)).isEqualTo(50 * MS);
    now.addAndGet(1);
    assertThat(estimates.expectedNanos(0, LatencyEstimates.Kind.SHARD)).isZero();
    assertThat(estimates.hedgeDelayNanos(0, LatencyEstimates.Kind.SHARD)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void estimate_whenOnlySomeSamplesAreRecent_countsOnlyThose() {
    record(0, 90 * MS, 60);
    now.addAndGet(Duration.ofSeconds(6).toNanos());
    record(0, 5 * MS, LatencyEstimates.MIN_SAMPLES);
    now.addAndGet(Duration.ofSeconds(5).toNanos()); // the 90 ms samples are 11 s old
    assertThat(estimates.expectedNanos(0, LatencyEstimates.Kind.SHARD)).isEqualTo(5 * MS);
    now.addAndGet(Duration.ofSeconds(6).toNanos()); // and the 5 ms ones too
    assertThat(estimates.expectedNanos(0, LatencyEstimates.Kind.SHARD)).isZero();
  }

  @Test
  void
      readOrder_whenADataShardsRepositoryWasSlowAndNoReadAskedItSince_asksItAgainOnceTheSamplesAge() {
    // Slot 1 was slow while the others answered in 2 ms: reads put both parity shards before it.
    record(1, 80 * MS, LatencyEstimates.SAMPLES);
    for (int slot : new int[] {0, 2, 3, 4, 5}) {
      record(slot, 2 * MS, LatencyEstimates.SAMPLES);
    }
    assertThat(readOrder().subList(0, 4)).containsExactly(0, 2, 3, 4);
    // Reads of k shards now never ask slot 1, so it gets no new sample; the others keep answering.
    now.addAndGet(LatencyEstimates.SAMPLE_LIFETIME_NANOS + 1);
    for (int slot : new int[] {0, 2, 3, 4, 5}) {
      record(slot, 2 * MS, LatencyEstimates.MIN_SAMPLES);
    }
    // Its old estimate is gone: it is asked again, first, and measured anew.
    assertThat(readOrder().subList(0, 4)).containsExactly(1, 0, 2, 3);
  }
}
