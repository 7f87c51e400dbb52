package io.racs.proxy.store.stripe;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.StoreFixture;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.array.Throttle;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.testkit.TestSeed;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rebuild loads its stripes as a GET does ({@link StripeLoader}), under its own policy: a corrupt
 * piece fails its source shard, which another source replaces (and which is rebuilt too), where a
 * GET would lose only that stripe's piece; the shards being rebuilt are never read, even when they
 * are there; and it warns of nothing, though every stripe it loads is repaired from parity.
 */
@Timeout(60)
class ShardRebuilderTest {
  private static final int SIZE = 40_000; // ten stripes of 4 KiB: not inline

  private final long seed = TestSeed.get();
  private StoreFixture f;
  private StoreContext context;
  private byte[] data;
  private PartMeta part;
  private final byte[][] original = new byte[6][];

  @BeforeEach
  void setUp() {
    f = new StoreFixture("4x2", 4096);
    f.store.createBucket("bkt");
    data = StoreFixture.bytes(seed, SIZE);
    part = f.put("bkt", "k", data).parts().get(0);
    assertThat(part.inline()).isFalse();
    context = f.store.context();
    for (int i = 0; i < 6; i++) {
      original[i] = shard(i);
    }
  }

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void rebuild_whenASourcePieceIsCorrupt_failsThatSourceAndReadsAnother() {
    delete(0);
    corrupt(1, 3);
    long corruptBefore = f.store.stats().corruptPieces.sum();

    ShardRebuilder.Result result = rebuild(Set.of(0));

    // Shard 0 is whole, stripe 3 included, though one of its first four sources was corrupt there;
    // the corrupt source was rebuilt in a second pass.
    assertThat(shard(0)).isEqualTo(original[0]);
    assertThat(shard(1)).isEqualTo(original[1]);
    assertThat(result.shardsRebuilt()).isEqualTo(2);
    assertThat(result.bytesWritten()).isEqualTo(2 * part.shardObjectBytes(4));
    assertThat(f.store.stats().corruptPieces.sum()).isEqualTo(corruptBefore); // heal's own count
    assertThat(f.get("bkt", "k")).isEqualTo(data);
  }

  @Test
  void rebuild_neverReadsItsTargets_evenWhenTheyAreThere() {
    int dataSlot = part.slots().get(0);
    int paritySlot = part.slots().get(4);
    long dataCalls = f.faulty.get(dataSlot).calls();
    long parityCalls = f.faulty.get(paritySlot).calls();

    ShardRebuilder.Result result = rebuild(Set.of(0, 4));

    // One call each: the put of the rebuilt shard.
    assertThat(f.faulty.get(dataSlot).calls()).isEqualTo(dataCalls + 1);
    assertThat(f.faulty.get(paritySlot).calls()).isEqualTo(parityCalls + 1);
    assertThat(shard(0)).isEqualTo(original[0]);
    assertThat(shard(4)).isEqualTo(original[4]);
    assertThat(result.shardsRebuilt()).isEqualTo(2);
    assertThat(result.bytesRead()).isEqualTo(4 * part.shardObjectBytes(4));
  }

  @Test
  void rebuild_isQuiet_whereAGetOfTheSameShardsWarns() {
    delete(0);
    corrupt(1, 2);
    long warned = RepairedReadWarning.issued();

    rebuild(Set.of(0));

    assertThat(RepairedReadWarning.issued()).isEqualTo(warned);
    corrupt(1, 2);
    delete(0);
    assertThat(f.get("bkt", "k")).isEqualTo(data);
    assertThat(RepairedReadWarning.issued()).isEqualTo(warned + 1);
  }

  private ShardRebuilder.Result rebuild(Set<Integer> targets) {
    return ShardRebuilder.rebuild(
        context.array,
        context.codec,
        context.config,
        part,
        targets,
        Set.of(),
        Throttle.megabytesPerSecond(0));
  }

  private String name(int shard) {
    return Layout.shard(part.dataId(), shard);
  }

  private byte[] shard(int shard) {
    return RepositoryArray.getBytes(f.memories.get(part.slots().get(shard)), name(shard))
        .orElseThrow();
  }

  private void delete(int shard) {
    f.memories.get(part.slots().get(shard)).delete(name(shard));
  }

  /** Flips a byte of shard {@code shard}'s piece of stripe {@code stripe}, as bitrot would. */
  private void corrupt(int shard, long stripe) {
    byte[] bytes = shard(shard);
    bytes[(int) part.shardOffset(stripe) + 5] ^= 0x40;
    RepositoryArray.putBytes(f.memories.get(part.slots().get(shard)), name(shard), bytes);
  }
}
