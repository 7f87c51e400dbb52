package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Proves that heal, which collects what failed writes leave behind, leaves a PUT that is still
 * running alone: with the GC grace as shipped and with a short but non-zero one, a PUT held in the
 * middle of its data or of its commit while heal runs over the whole array goes on, once released,
 * to commit, and reads back byte-exact, with nothing of it collected or left to rebuild.
 *
 * <p>The PUT is held by a {@link FaultyRepository.Gate} on repository writes, so the order is
 * forced and nothing waits on time: heal runs entirely while the write is held.
 */
class HealDuringPutTest {
  private static final int BLOCK = 4096;

  /** Where the PUT is held while heal runs. */
  enum Held {
    /**
     * One shard object of a two-stripe object: the others are stored (their pipes hold the whole
     * object), no index entry exists, so heal sees shard objects no record refers to.
     */
    SHARD_WRITE(2 * BLOCK - 3, "v/", 1),
    /**
     * Three of six index entries of a striped object: the version is on fewer repositories than the
     * write quorum (4), its shard objects all stored.
     */
    ENTRY_WRITES(2 * BLOCK - 3, "i/", 3),
    /**
     * Three of six records of an inline object, which hold its shards: fewer than k, so heal takes
     * it for a write that crashed while committing unless it is younger than the grace.
     */
    INLINE_RECORD_WRITES(BLOCK / 2, "i/", 3);

    final int sizeBytes;
    final String names;
    final int calls;

    Held(int sizeBytes, String names, int calls) {
      this.sizeBytes = sizeBytes;
      this.names = names;
      this.calls = calls;
    }
  }

  /**
   * Every place to hold the PUT, with the grace as shipped (null: the builder's default) and with a
   * short one. One minute is far shorter than the default yet far longer than this test: a PUT
   * younger than the grace is what heal must leave alone, and this one is seconds old at most.
   */
  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (Held held : Held.values()) {
      cases.add(Arguments.of(held, null));
      cases.add(Arguments.of(held, Duration.ofMinutes(1)));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, gcGrace {1}")
  @MethodSource("cases")
  void heal_whenAPutIsHeldMidFlight_leavesItAndThePutCommitsByteExact(Held held, Duration grace)
      throws Exception {
    long seed = TestSeed.get();
    TestArray.Builder builder =
        TestArray.builder(Geometry.of(4, 2))
            .blockBytes(BLOCK)
            .minPartBytes(BLOCK)
            // Far longer than the hold: the held writes must not be given up as slow or stalled,
            // or the PUT would go on without them (or fail) instead of waiting for them.
            .slowShardTimeout(Duration.ofMinutes(5))
            .stallGrace(Duration.ofMinutes(5));
    if (grace != null) {
      builder.gcGrace(grace);
    }
    FaultyRepository.Gate gate =
        new FaultyRepository.Gate(Operation.PUT, name -> name.startsWith(held.names));
    TestArray array = builder.gated(gate).open();
    assertThat(array.config().gcGrace()).as("gcGrace").isPositive();
    byte[] data = SeededBytes.bytes(seed, held.sizeBytes);
    try (ErasureStore store = array.store();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      store.createBucket("bkt");
      gate.arm(held.calls);
      Future<VersionMeta> put =
          pool.submit(
              () ->
                  store.put(
                      "bkt",
                      "k",
                      new ByteArrayInputStream(data),
                      data.length,
                      ObjectStore.PutOptions.defaults()));
      HealReport during;
      try {
        gate.awaitHeld(held.calls, Duration.ofMinutes(1));
        // The PUT's other writes of the same kind have landed: heal sees the PUT half-done.
        gate.awaitCompleted(6 - held.calls, Duration.ofMinutes(1));
        during = Healer.heal(store, HealOptions.defaults());
        assertThat(put).as("the PUT is still held").isNotDone();
      } finally {
        // A failed check must not leave the PUT held until the slow-shard timeout.
        gate.open();
      }
      assertThat(during.leftoversCollected())
          .as("seed %d: collected during the PUT", seed)
          .isZero();
      assertThat(during.unrecoverable()).as("seed %d", seed).isEmpty();
      VersionMeta meta = put.get();
      assertThat(meta.sizeBytes()).isEqualTo(data.length);
      assertThat(read(store)).as("seed %d: read back", seed).isEqualTo(data);
      assertThat(store.stats().degradedStripes())
          .as("seed %d: stripes read back from parity (a data shard gone)", seed)
          .isZero();
      HealReport after = Healer.heal(store, HealOptions.defaults());
      assertThat(after.shardsRebuilt())
          .as("seed %d: shards missing after the PUT (collected under it)", seed)
          .isZero();
      assertThat(after.leftoversCollected()).as("seed %d", seed).isZero();
      assertThat(after.unrecoverable()).as("seed %d", seed).isEmpty();
    }
  }

  private static byte[] read(ErasureStore store) {
    try (ObjectStore.ObjectReader reader = store.get("bkt", "k", 0, -1, 0)) {
      return reader.body().readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
