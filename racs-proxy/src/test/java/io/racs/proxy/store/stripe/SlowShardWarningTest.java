package io.racs.proxy.store.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.StoreFixture;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.LatencyEstimates;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.testkit.TestSeed;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Proves that a read which hedged around a late data shard on a healthy array logs no "repaired
 * from parity" warning (it counts in {@code slowShardStripes} instead), while a read that needed
 * parity for a shard that is gone still warns.
 */
@Timeout(60)
class SlowShardWarningTest {
  private static final Duration LONG = Duration.ofMinutes(10);
  private final long seed = TestSeed.get();
  private StoreFixture f;

  @AfterEach
  void close() {
    if (f != null) {
      f.faulty.forEach(FaultyRepository::thaw);
      f.close();
    }
  }

  @Test
  void hedgeAroundALateShard_isNoWarning_butAMissingShardIs() {
    f =
        new StoreFixture(
            TestArray.builder("4x2")
                .blockBytes(4096)
                .minPartBytes(4096)
                .inlineBytes(1024)
                .slowShardTimeout(LONG)
                .stallGrace(LONG)
                .gcGrace(Duration.ZERO)
                .hedge(StoreConfig.Hedge.DEFAULT));
    f.store.createBucket("bkt");
    byte[] data = StoreFixture.bytes(seed, 40_000);
    VersionMeta meta = f.put("bkt", "k", data);
    assertThat(f.get("bkt", "k")).isEqualTo(data);
    // Every repository answered shard reads in 100 us: a frozen one is late past its percentile.
    LatencyEstimates latencies = f.store.context().array.latencies();
    for (int slot = 0; slot < 6; slot++) {
      for (int i = 0; i < LatencyEstimates.SAMPLES; i++) {
        latencies.record(slot, LatencyEstimates.Kind.SHARD, 100_000);
      }
    }
    int frozen = meta.parts().get(0).slots().get(0);
    long warned = RepairedReadWarning.issued();
    f.faulty.get(frozen).freeze();

    assertThat(f.get("bkt", "k")).as("seed %d", seed).isEqualTo(data);

    assertThat(f.store.stats().slowShardStripes()).isPositive();
    assertThat(RepairedReadWarning.issued()).isEqualTo(warned);

    f.faulty.get(frozen).thaw();
    f.faulty.get(frozen).outage(true);
    assertThat(f.get("bkt", "k")).as("seed %d", seed).isEqualTo(data);
    assertThat(RepairedReadWarning.issued()).isEqualTo(warned + 1);
  }
}
