package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.api.StoreStats;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.stripe.PartReader;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves the read rule of the array: with up to m bad shards in any stripe — repositories down,
 * pieces rotted (a different set in every stripe), or a repository that stalls — GET returns the
 * exact bytes; with m + 1 bad it fails cleanly with a typed error naming each repository's cause.
 * Fault patterns are enumerated, and stripe-to-pattern assignment comes from a logged seed.
 */
class DegradedReadTest {
  private static final int BLOCK = 3 * 1024 * 4; // 4 KiB pieces for k = 3, 3 KiB for k = 4

  @ParameterizedTest
  @ValueSource(strings = {"4x2", "3x3"})
  void get_whenEveryRepositoryOutagePatternUpToM_isExact(String geometry) {
    try (StoreFixture f = new StoreFixture(geometry, BLOCK)) {
      Geometry g = Geometry.parse(geometry);
      f.store.createBucket("bkt");
      byte[] data = StoreFixture.bytes(geometry.hashCode(), 5 * BLOCK + 77);
      f.put("bkt", "k", data);
      for (List<Integer> down : StoreFixture.subsetsUpTo(g.totalShards(), g.parityShards())) {
        down.forEach(slot -> f.faulty.get(slot).outage(true));
        assertThat(f.get("bkt", "k")).as("%s with slots %s down", geometry, down).isEqualTo(data);
        down.forEach(slot -> f.faulty.get(slot).outage(false));
      }
      List<Integer> tooMany =
          StoreFixture.subsetsUpTo(g.totalShards(), g.parityShards() + 1).getLast();
      tooMany.forEach(slot -> f.faulty.get(slot).outage(true));
      assertThatThrownBy(() -> f.get("bkt", "k"))
          .isInstanceOf(StoreException.class)
          .satisfies(
              e -> {
                StoreException se = (StoreException) e;
                assertThat(se.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
                assertThat(se.failures()).isNotEmpty();
              });
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"4x2", "3x3"})
  void get_whenEveryPieceCorruptionPatternUpToMPerStripe_isExactAndCounted(String geometry) {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    Geometry g = Geometry.parse(geometry);
    List<List<Integer>> patterns = StoreFixture.subsetsUpTo(g.totalShards(), g.parityShards());
    try (StoreFixture f = new StoreFixture(geometry, BLOCK)) {
      f.store.createBucket("bkt");
      int stripes = patterns.size();
      byte[] data = StoreFixture.bytes(seed, stripes * BLOCK - 5);
      VersionMeta meta = f.put("bkt", "k", data);
      PartMeta part = meta.parts().getFirst();
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < stripes; i++) {
        order.add(i);
      }
      java.util.Collections.shuffle(order, random);
      List<List<Integer>> corruptByStripe = new ArrayList<>();
      for (int s = 0; s < stripes; s++) {
        List<Integer> pattern = patterns.get(order.get(s));
        for (int shard : pattern) {
          corruptPiece(f, part, g, shard, s, random);
        }
        corruptByStripe.add(pattern);
      }
      assertThat(f.get("bkt", "k")).as("seed %d", seed).isEqualTo(data);
      StoreStats stats = f.store.stats();
      assertThat(stats.corruptPieces())
          .as("seed %d: corrupt pieces the read met", seed)
          .isEqualTo(corruptPiecesRead(corruptByStripe, g.dataShards(), g.totalShards()));
      assertThat(stats.degradedStripes())
          .as("seed %d: stripes with a corrupt data piece", seed)
          .isEqualTo(
              corruptByStripe.stream()
                  .filter(pattern -> pattern.stream().anyMatch(shard -> shard < g.dataShards()))
                  .count());
      assertThat(stats.unavailablePieces()).as("seed %d", seed).isZero();
      assertThat(stats.slowShardStripes()).as("seed %d: repairs, not hedges", seed).isZero();

      // One more bad piece in a stripe than parity can cover: the read fails, typed.
      int victimStripe = random.nextInt(stripes);
      for (int shard = 0; shard <= g.parityShards(); shard++) {
        corruptPiece(f, part, g, shard, victimStripe, random);
      }
      assertThatThrownBy(() -> f.get("bkt", "k"))
          .as("seed %d", seed)
          .isInstanceOf(StoreException.class)
          .extracting(e -> ((StoreException) e).code())
          .isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"4x2"})
  void get_whenARepositoryStalls_answersFromTheOthers(String geometry) throws InterruptedException {
    try (StoreFixture f = stalling(geometry, Duration.ofMillis(300))) {
      f.store.createBucket("bkt");
      byte[] data = StoreFixture.bytes(3, 4 * BLOCK);
      VersionMeta meta = f.put("bkt", "k", data);
      int dataSlot = meta.parts().getFirst().slots().get(0);
      FaultyRepository.Stall stall = f.faulty.get(dataSlot).stall(Operation.GET);
      assertThat(f.get("bkt", "k")).isEqualTo(data);
      stall.awaitStalled();
      stall.release();
      assertThat(f.store.stats().unavailablePieces()).isPositive();
    }
  }

  @Test
  @Timeout(60) // a commit that waited for the stalled repository would never end
  void put_whenARepositoryStallsTheCommit_succeedsOnTheOthersAsUnderReplicated()
      throws InterruptedException {
    try (StoreFixture f = stalling("4x2", Duration.ofMillis(300))) {
      f.store.createBucket("bkt");
      // A small object is only its records: the commit's fan-out is the whole write.
      byte[] data = StoreFixture.bytes(4, 100);
      FaultyRepository.Stall stall = f.faulty.get(2).stall(Operation.PUT);
      VersionMeta meta =
          f.store.put(
              "bkt",
              "k",
              StoreFixture.stream(data),
              data.length,
              ObjectStore.PutOptions.defaults());
      stall.awaitStalled(); // still held: the write went on without it
      assertThat(meta.parts().getFirst().inline()).isTrue();
      assertThat(f.store.stats().underReplicatedWrites()).isEqualTo(1);
      assertThat(f.get("bkt", "k")).isEqualTo(data);
      stall.release();
    }
  }

  @Test
  @Timeout(120) // without the hedge the GET would wait out the hour-long slow-shard timeout
  void get_whenARepositoryStallsItsListing_answersFromAQuorumOfListings()
      throws InterruptedException {
    try (StoreFixture f = stalling("4x2", Duration.ofHours(1))) {
      f.store.createBucket("bkt");
      byte[] data = StoreFixture.bytes(4, 3 * BLOCK + 7);
      f.put("bkt", "k", data);
      FaultyRepository.Stall stall = f.faulty.get(0).stall(Operation.LIST);
      assertThat(f.get("bkt", "k")).isEqualTo(data);
      stall.awaitStalled();
      stall.release();
    }
  }

  /**
   * How many corrupt pieces a whole-object read meets, by the read rule of {@link PartReader}: the
   * first stripe opens shards in index order until it holds k good pieces, so the k data shards are
   * always open; a corrupt piece costs only its stripe (its shard stays open, and every later piece
   * of it is read); a stripe left short of k good pieces opens the next unopened shard in index
   * order, which then stays open to the end. Each piece read is checked once, so each corrupt piece
   * read counts exactly once, and a corrupt piece of a shard not yet open is never seen.
   */
  private static long corruptPiecesRead(List<List<Integer>> corruptByStripe, int k, int n) {
    boolean[] open = new boolean[n];
    long met = 0;
    for (List<Integer> corrupt : corruptByStripe) {
      int good = 0;
      for (int shard = 0; shard < n; shard++) {
        if (open[shard]) {
          if (corrupt.contains(shard)) {
            met++;
          } else {
            good++;
          }
        }
      }
      for (int shard = 0; shard < n && good < k; shard++) {
        if (!open[shard]) {
          open[shard] = true;
          if (corrupt.contains(shard)) {
            met++;
          } else {
            good++;
          }
        }
      }
    }
    return met;
  }

  /** Flips one byte of shard {@code shard}'s piece in stripe {@code s}, in place. */
  static void corruptPiece(
      StoreFixture f, PartMeta part, Geometry g, int shard, int s, Random random) {
    MemoryRepository repository = f.memories.get(part.slots().get(shard));
    String name = Layout.shard(part.dataId(), shard);
    byte[] bytes;
    try (var in = repository.get(name)) {
      bytes = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    int at = (int) part.shardOffset(s) + random.nextInt(part.pieceBytes(g.dataShards(), s));
    bytes[at] ^= (byte) (1 + random.nextInt(255));
    repository.put(name, new ByteArrayInputStream(bytes), bytes.length);
  }

  /** A fixture whose slow-shard timeout is {@code slowShardTimeout}, for the stall tests. */
  private static StoreFixture stalling(String geometry, Duration slowShardTimeout) {
    return new StoreFixture(
        TestArray.builder(geometry).blockBytes(BLOCK).slowShardTimeout(slowShardTimeout));
  }
}
