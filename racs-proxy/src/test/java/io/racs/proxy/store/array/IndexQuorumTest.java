package io.racs.proxy.store.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.repos.Repository;
import io.racs.repos.memory.MemoryRepository;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves the index quorum of an array in its one phase (docs/reshape.md §4): a record counts from
 * the write quorum of copies, a listing needs {@code slots - writeQuorum + 1} slots, so that every
 * listing meets every acknowledged record, and the store's array and read-quorum check take theirs
 * from it.
 */
class IndexQuorumTest {
  @Test
  void quorums_4x2_writeOnFourReadOnThree() {
    IndexQuorum q = new IndexQuorum(6, 4);
    assertThat(q.phase()).isEqualTo(IndexQuorum.Phase.OLD);
    assertThat(q.writeQuorum()).isEqualTo(4);
    assertThat(q.readQuorum()).isEqualTo(3);
    assertThat(q.tolerated()).isEqualTo(2);
    assertThat(q.mayCount(3)).isFalse();
    assertThat(q.mayCount(4)).isTrue();
    // Any listing of readQuorum slots meets any write quorum: they overlap in at least one slot.
    assertThat(q.readQuorum() + q.writeQuorum()).isGreaterThan(q.slots());
  }

  @Test
  void constructor_whenWriteQuorumOutsideTheSlots_isRefused() {
    assertThatThrownBy(() -> new IndexQuorum(6, 7))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("writeQuorum: 7 (expected: 1 to 6)");
    assertThatThrownBy(() -> new IndexQuorum(6, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void storeContext_takesItsQuorumsFromTheIndexQuorum() {
    StoreConfig config = StoreConfig.builder(Geometry.of(3, 3)).writeQuorum(5).build();
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      repositories.add(MemoryRepository.create("mem" + i));
    }
    StoreContext context = new StoreContext(config, repositories, "array");
    try {
      assertThat(context.index.writeQuorum()).isEqualTo(5);
      assertThat(context.index.readQuorum()).isEqualTo(2);
      assertThat(context.array.readQuorum()).isEqualTo(2);
    } finally {
      context.array.close();
    }
  }
}
