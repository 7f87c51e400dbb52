package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryHealth;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves what the store says when repositories run out of space: a write that lost its quorum to
 * full repositories fails with {@code INSUFFICIENT_STORAGE} (not a plain lost quorum), a write that
 * still reached its quorum succeeds, and {@link ErasureStore#health()} reports the repositories
 * whose writes fail as {@code FULL} (or {@code ACCESS_DENIED} for a read-only one) with the cause,
 * until a write succeeds there again. The disks are {@link FaultyRepository} decorators, full or
 * refusing puts as a read-only disk does: a real full file system is in {@code FullDiskServerTest}.
 */
class StorageFullTest {
  private static final int BLOCK = 4 * 1024;

  private final List<FaultyRepository> disks;
  private final ErasureStore store;

  StorageFullTest() {
    TestArray array =
        TestArray.builder("4x2")
            .blockBytes(BLOCK)
            .minPartBytes(BLOCK)
            .writeQuorum(5)
            .slowShardTimeout(Duration.ofSeconds(5))
            .faulty()
            .open();
    disks = array.faulty();
    store = array.store();
    store.createBucket("bkt");
  }

  @AfterEach
  void close() {
    store.close();
  }

  private VersionMeta put(String key, int size) {
    byte[] body = StoreFixture.bytes(size, size);
    return store.put(
        "bkt", key, StoreFixture.stream(body), size, ObjectStore.PutOptions.defaults());
  }

  private RepositoryHealth.State state(int slot) {
    return store.health().get(slot).state();
  }

  @Test
  void put_whenMoreRepositoriesFullThanTheQuorumTolerates_insufficientStorage() {
    disks.get(0).full(true);
    disks.get(3).full(true);

    for (int size : new int[] {100, 3 * BLOCK}) { // inline and striped
      assertThatThrownBy(() -> put("k" + size, size))
          .as("%d bytes", size)
          .isInstanceOfSatisfying(
              StoreException.class,
              e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_STORAGE))
          .hasMessageContaining("2 of 6 repositories are out of space");
    }
    List<RepositoryHealth> health = store.health();
    assertThat(health.get(0).state()).isEqualTo(RepositoryHealth.State.FULL);
    assertThat(health.get(0).reason()).contains("No space left on device");
    assertThat(health.get(3).state()).isEqualTo(RepositoryHealth.State.FULL);
    assertThat(health.get(1).state()).isEqualTo(RepositoryHealth.State.UP);

    // Space freed: the health check sees writes succeed again, and so do PUTs.
    disks.get(0).full(false);
    disks.get(3).full(false);
    assertThat(store.health())
        .allSatisfy(h -> assertThat(h.state()).isEqualTo(RepositoryHealth.State.UP));
    put("after", 3 * BLOCK);
  }

  @Test
  void put_whenFewerFullThanTolerated_succeedsAndHealthSaysWhichAreFull() {
    disks.get(2).full(true);
    put("k", 3 * BLOCK);
    assertThat(state(2)).isEqualTo(RepositoryHealth.State.FULL);
    assertThat(state(1)).isEqualTo(RepositoryHealth.State.UP);
  }

  @Test
  void put_whenARepositoryIsReadOnly_healthSaysAccessDenied() {
    disks.get(4).failOperation(Operation.PUT, RepositoryException.Kind.ACCESS_DENIED);
    put("k", 3 * BLOCK);
    assertThat(state(4)).isEqualTo(RepositoryHealth.State.ACCESS_DENIED);
  }
}
