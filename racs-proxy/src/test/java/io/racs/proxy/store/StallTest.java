package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.SlotBreaker;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves that a repository that stalls (every call blocks, as calls to a stopped process do) costs
 * an operation no more than the stall grace and later operations nothing: with up to m frozen, GET
 * and PUT complete while the repositories are still frozen, the frozen ones are suspended and not
 * asked again, and a background probe resumes them once they answer; with more than m frozen, GET
 * and PUT fail with INSUFFICIENT_SHARDS while they are still frozen, leaving nothing visible. The
 * slow-shard timeout is ten minutes here, so finishing at all while a repository is frozen shows
 * that nothing waited for it.
 */
@Timeout(120)
class StallTest {
  private final StoreFixture f =
      new StoreFixture(
          TestArray.builder("4x2")
              .blockBytes(4096)
              .minPartBytes(4096)
              .slowShardTimeout(Duration.ofMinutes(10))
              .stallGrace(Duration.ofMillis(200))
              .gcGrace(Duration.ZERO));

  @AfterEach
  void close() {
    f.faulty.forEach(FaultyRepository::thaw);
    f.close();
  }

  private SlotBreaker health() {
    return f.store.context().array.health();
  }

  @Test
  void get_whenOneDataShardStalls_answersFromParityAndThenSkipsTheStalledRepository()
      throws Exception {
    f.store.createBucket("bkt");
    byte[] data = StoreFixture.bytes(1, 40_000); // ten stripes
    VersionMeta meta = f.put("bkt", "k", data);
    f.get("bkt", "k"); // caches the record: what stalls below is shard data
    int stalled = meta.parts().get(0).slots().get(0);
    f.faulty.get(stalled).freeze();

    assertThat(f.get("bkt", "k")).isEqualTo(data);
    assertThat(f.store.stats().degradedStripes()).isPositive();
    awaitSuspended(stalled); // decided in the background, at the stall deadline
    long callsBefore = f.faulty.get(stalled).calls();
    assertThat(f.get("bkt", "k")).isEqualTo(data);
    assertThat(f.faulty.get(stalled).calls())
        .as("a suspended repository is not asked")
        .isEqualTo(callsBefore);
  }

  @Test
  void put_whenOneRepositoryStalls_commitsOnTheRestAndCountsItUnderReplicated() {
    f.store.createBucket("bkt");
    int stalled = 2;
    f.faulty.get(stalled).freeze();
    byte[] data = StoreFixture.bytes(2, 40_000);
    f.put("bkt", "k", data);

    assertThat(f.get("bkt", "k")).isEqualTo(data);
    assertThat(f.store.stats().underReplicatedWrites()).isEqualTo(1);
    assertThat(health().usable(stalled)).isFalse();
    long callsBefore = f.faulty.get(stalled).calls();
    byte[] second = StoreFixture.bytes(3, 40_000);
    f.put("bkt", "k2", second);
    assertThat(f.get("bkt", "k2")).isEqualTo(second);
    assertThat(f.faulty.get(stalled).calls()).isEqualTo(callsBefore);
  }

  @Test
  void put_whenMoreThanMRepositoriesStall_failsWithoutWaitingAndLeavesNothingVisible() {
    f.store.createBucket("bkt");
    for (int slot = 0; slot < 3; slot++) {
      f.faulty.get(slot).freeze();
    }
    assertInsufficientShards(() -> f.put("bkt", "k", StoreFixture.bytes(4, 40_000)));
    // No more than m = 2 are ever suspended (an overloaded machine must not suspend its way into
    // an outage), so the third one fails this PUT again at the stall deadline.
    assertThat(health().describe()).hasSize(2);
    assertInsufficientShards(() -> f.put("bkt", "k", StoreFixture.bytes(5, 40_000)));
    assertThat(health().describe()).hasSize(2);
    // Three listings are a read quorum (a committed record is on at least four): they prove
    // that no version was committed.
    assertThatThrownBy(() -> f.store.head("bkt", "k"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_KEY));
  }

  /**
   * Small writes, which the stalled repositories' buffers take whole (an inline object's records, a
   * two-stripe object's shard pipes, a bucket record): nothing stalls while the data is handed
   * over, and no write quorum ever answers; the write fails at the stall deadline counted from the
   * first repository that answered, not at the slow-shard timeout.
   */
  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {100, 4096, 8192})
  void smallWrite_whenMoreThanMRepositoriesStall_failsWithoutWaiting(int size) {
    f.store.createBucket("bkt");
    for (int slot = 0; slot < 3; slot++) {
      f.faulty.get(slot).freeze();
    }
    assertInsufficientShards(() -> f.put("bkt", "k", StoreFixture.bytes(size, size)));
    assertInsufficientShards(() -> f.store.createBucket("other"));
  }

  @Test
  void get_whenMoreThanMRepositoriesStall_failsWithoutWaiting() {
    f.store.createBucket("bkt");
    VersionMeta meta = f.put("bkt", "k", StoreFixture.bytes(6, 40_000));
    f.get("bkt", "k");
    for (int i = 0; i < 3; i++) {
      f.faulty.get(meta.parts().get(0).slots().get(i)).freeze();
    }
    assertInsufficientShards(() -> f.get("bkt", "k"));
  }

  /**
   * A read quorum (three listings) that needs a stalled repository: two answer, four are frozen,
   * and the listing fails at the stall deadline counted from the first answer, not at the
   * slow-shard timeout (which would outlast the test's timeout).
   */
  @Test
  void list_whenItsReadQuorumNeedsAStalledRepository_failsWithoutWaiting() {
    f.store.createBucket("bkt");
    f.put("bkt", "k", StoreFixture.bytes(7, 100));
    for (int slot = 0; slot < 4; slot++) {
      f.faulty.get(slot).freeze();
    }
    assertInsufficientShards(() -> f.store.head("bkt", "k"));
  }

  @Test
  void suspendedRepository_whenItAnswersAgain_isResumedByTheProbe() throws Exception {
    f.store.createBucket("bkt");
    byte[] data = StoreFixture.bytes(7, 40_000);
    VersionMeta meta = f.put("bkt", "k", data);
    f.get("bkt", "k");
    int stalled = meta.parts().get(0).slots().get(1);
    f.faulty.get(stalled).freeze();
    assertThat(f.get("bkt", "k")).isEqualTo(data);
    awaitSuspended(stalled);

    f.faulty.get(stalled).thaw();
    awaitResumed(stalled);
    long before = f.faulty.get(stalled).calls();
    assertThat(f.get("bkt", "k")).isEqualTo(data);
    assertThat(f.faulty.get(stalled).calls()).isGreaterThan(before);
  }

  private void awaitSuspended(int slot) {
    awaitCondition(() -> !health().usable(slot), "slot " + slot + " suspended");
  }

  private void awaitResumed(int... slots) {
    for (int slot : slots) {
      awaitCondition(() -> health().usable(slot), "slot " + slot + " resumed");
    }
  }

  /** Waits for something the store does in the background; bounded, and ordering nothing. */
  private static void awaitCondition(java.util.function.BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
      Thread.onSpinWait();
      java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
    }
  }

  private static void assertInsufficientShards(Runnable call) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS));
  }
}
