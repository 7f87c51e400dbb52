package io.racs.proxy.store.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.IndexQuorum.Phase;
import io.racs.proxy.testing.ReshapePhases;
import io.racs.repos.Repository;
import io.racs.repos.memory.MemoryRepository;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Proves the index quorum of docs/reshape.md §4 in each phase: where records are written, when a
 * write is acknowledged (the write quorum of each set the phase writes), when a record counts
 * (copies within the deciding set, not a bare number) and what a listing needs (the deciding set's
 * read quorum); that a write acknowledged in one phase counts, and is listed, for a reader in the
 * adjacent phase, checked over every set of slots a write may reach; and that the store's array and
 * read-quorum check take theirs from it. The reshapes are issue #38's: 4x2 over slots 0..5 to 6x3
 * over 0..8, then to 4x2 over 6..11.
 */
class IndexQuorumTest {
  private static final List<Integer> SIX = ids(0, 6);
  private static final List<Integer> NINE = ids(0, 9);
  private static final List<Integer> OTHER_SIX = ids(6, 12);

  private static List<Integer> ids(int from, int to) {
    return IntStream.range(from, to).boxed().toList();
  }

  @Test
  void quorums_4x2_writeOnFourReadOnThree() {
    IndexQuorum q = new IndexQuorum(6, 4);
    assertThat(q.phase()).isEqualTo(Phase.OLD);
    assertThat(q.writeSlots()).isEqualTo(SIX);
    assertThat(q.writeQuorum()).isEqualTo(4);
    assertThat(q.readQuorum()).isEqualTo(3);
    assertThat(q.listingQuorum()).isEqualTo(3);
    assertThat(q.tolerated()).isEqualTo(2);
    assertThat(q.mayCount(List.of(0, 1, 2))).isFalse();
    assertThat(q.mayCount(List.of(0, 1, 2, 5))).isTrue();
    assertThat(q.acknowledged(List.of(1, 2, 3))).isFalse();
    assertThat(q.acknowledged(List.of(1, 2, 3, 4))).isTrue();
    assertThat(q.listingComplete(List.of(0, 4))).isFalse();
    assertThat(q.listingComplete(List.of(0, 4, 5))).isTrue();
    // Any listing of readQuorum slots meets any write quorum: they overlap in at least one slot.
    assertThat(q.readQuorum() + q.writeQuorum()).isGreaterThan(q.slots());
  }

  @Test
  void constructor_whenWriteQuorumOutsideTheSlots_isRefused() {
    assertThatThrownBy(() -> new IndexQuorum(6, 7))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("writeQuorum: 7 (expected: 1 to 6)");
    assertThatThrownBy(() -> new IndexQuorum(6, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> IndexQuorum.joint(Phase.OLD, SIX, 4, NINE, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("phase: OLD (expected: JOINT, SWITCHED or DONE)");
    assertThatThrownBy(() -> IndexQuorum.of(List.of(0, 1, 1), 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("slots: [0, 1, 1] (expected: distinct slot ids, none below 0)");
  }

  @Test
  void joint_writesBothAcknowledgesOnBothJudgesOnTheOldSet() {
    IndexQuorum q = IndexQuorum.joint(Phase.JOINT, SIX, 4, NINE, 6);
    assertThat(q.writeSlots()).isEqualTo(NINE);
    assertThat(q.listingSlots()).isEqualTo(NINE);
    assertThat(q.decidingSlots()).isEqualTo(SIX);
    // wq_old of the old set alone is not enough, nor wq_new of the new set alone.
    assertThat(q.acknowledged(List.of(0, 1, 2, 3))).isFalse();
    assertThat(q.acknowledged(List.of(3, 4, 5, 6, 7, 8))).isFalse();
    assertThat(q.acknowledged(List.of(0, 1, 2, 3, 4, 5))).isTrue();
    assertThat(q.acknowledged(List.of(2, 3, 4, 5, 6, 7))).isTrue();
    // Four holders count only when four are of the old set.
    assertThat(q.mayCount(List.of(5, 6, 7, 8))).isFalse();
    assertThat(q.mayCount(List.of(0, 1, 2, 3))).isTrue();
    assertThat(q.readQuorum()).isEqualTo(3);
    assertThat(q.listingComplete(List.of(0, 1, 6, 7, 8))).isFalse();
    assertThat(q.listingComplete(List.of(0, 1, 2))).isTrue();
    assertThat(q.tolerated()).isEqualTo(2);
    assertSureCounts(q);
  }

  @Test
  void switched_writesBothAcknowledgesOnBothJudgesOnTheNewSet() {
    IndexQuorum q = IndexQuorum.joint(Phase.SWITCHED, SIX, 4, NINE, 6);
    assertThat(q.writeSlots()).isEqualTo(NINE);
    assertThat(q.decidingSlots()).isEqualTo(NINE);
    assertThat(q.acknowledged(List.of(0, 1, 2, 3, 4, 5))).isTrue();
    assertThat(q.acknowledged(List.of(3, 4, 5, 6, 7, 8))).isFalse();
    assertThat(q.mayCount(List.of(0, 1, 2, 3))).isFalse();
    assertThat(q.mayCount(List.of(3, 4, 5, 6, 7, 8))).isTrue();
    assertThat(q.readQuorum()).isEqualTo(4);
    assertThat(q.listingComplete(List.of(0, 1, 2))).isFalse();
    assertThat(q.listingComplete(List.of(5, 6, 7, 8))).isTrue();
    assertSureCounts(q);
  }

  @Test
  void done_writesAndJudgesTheNewSetAlone() {
    IndexQuorum q = IndexQuorum.joint(Phase.DONE, NINE, 6, OTHER_SIX, 4);
    assertThat(q.writeSlots()).isEqualTo(OTHER_SIX);
    assertThat(q.decidingSlots()).isEqualTo(OTHER_SIX);
    assertThat(q.writeQuorum()).isEqualTo(4);
    assertThat(q.acknowledged(List.of(0, 1, 2, 3, 4, 5))).isFalse();
    assertThat(q.acknowledged(List.of(6, 7, 8, 9))).isTrue();
    assertThat(q.mayCount(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8))).isFalse();
    assertThat(q.mayCount(List.of(8, 9, 10, 11))).isTrue();
    assertThat(q.listingComplete(List.of(9, 10, 11))).isTrue();
    assertSureCounts(q);
  }

  /**
   * A writer in each phase and a reader in the phase before or after it (a proxy that has not yet
   * learned of the change, or one that learned it first): every set of slots that acknowledges the
   * write counts for the reader, and no listing complete for the reader can miss it. Both reshapes
   * of issue #38, every subset of the slots.
   */
  @Test
  void adjacentPhases_aWriteAcknowledgedInOneIsSeenByAReaderInTheOther() {
    for (List<IndexQuorum> phases : ReshapePhases.issue38()) {
      for (int p = 0; p + 1 < phases.size(); p++) {
        assertSeen(phases.get(p), phases.get(p + 1));
        assertSeen(phases.get(p + 1), phases.get(p));
      }
    }
  }

  /** A phase two apart is not adjacent: an OLD writer is not enough for a SWITCHED reader. */
  @Test
  void phasesTwoApart_aWriteOfTheOldSetAloneDoesNotCountOnTheNewSet() {
    IndexQuorum old = IndexQuorum.of(SIX, 4);
    IndexQuorum switched = IndexQuorum.joint(Phase.SWITCHED, SIX, 4, NINE, 6);
    List<Integer> written = List.of(0, 1, 2, 3);
    assertThat(old.acknowledged(written)).isTrue();
    assertThat(switched.mayCount(written)).isFalse();
  }

  private static void assertSeen(IndexQuorum writer, IndexQuorum reader) {
    List<Integer> slots = writer.writeSlots();
    int checked = 0;
    for (int mask = 0; mask < 1 << slots.size(); mask++) {
      List<Integer> written = new ArrayList<>();
      List<Integer> lacking = new ArrayList<>(reader.listingSlots());
      for (int i = 0; i < slots.size(); i++) {
        if ((mask & 1 << i) != 0) {
          written.add(slots.get(i));
          lacking.remove(slots.get(i));
        }
      }
      if (!writer.acknowledged(written)) {
        continue;
      }
      checked++;
      assertThat(reader.mayCount(written))
          .as("%s written on %s, read in %s", writer.phase(), written, reader)
          .isTrue();
      // Every slot that does not hold it answering is still not a complete listing.
      assertThat(reader.listingComplete(lacking))
          .as("%s written on %s, listed in %s without it", writer.phase(), written, reader)
          .isFalse();
    }
    assertThat(checked).isPositive();
  }

  /**
   * The counts a fan-out waits for are sure: any {@code writeQuorum()} successes acknowledge, any
   * {@code listingQuorum()} answers are complete, and one fewer of either may not be.
   */
  private static void assertSureCounts(IndexQuorum q) {
    List<Integer> slots = q.writeSlots();
    boolean writeShortByOneFails = false;
    boolean listingShortByOneFails = false;
    for (int mask = 0; mask < 1 << slots.size(); mask++) {
      List<Integer> subset = new ArrayList<>();
      for (int i = 0; i < slots.size(); i++) {
        if ((mask & 1 << i) != 0) {
          subset.add(slots.get(i));
        }
      }
      if (subset.size() >= q.writeQuorum()) {
        assertThat(q.acknowledged(subset)).as("written on %s in %s", subset, q).isTrue();
      }
      if (subset.size() >= q.listingQuorum()) {
        assertThat(q.listingComplete(subset)).as("listed by %s in %s", subset, q).isTrue();
      }
      writeShortByOneFails |= subset.size() == q.writeQuorum() - 1 && !q.acknowledged(subset);
      listingShortByOneFails |=
          subset.size() == q.listingQuorum() - 1 && !q.listingComplete(subset);
    }
    assertThat(writeShortByOneFails).isTrue();
    assertThat(listingShortByOneFails).isTrue();
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
      assertThat(context.index().writeQuorum()).isEqualTo(5);
      assertThat(context.index().readQuorum()).isEqualTo(2);
      assertThat(context.array.readQuorum()).isEqualTo(2);
      context.array.index(IndexQuorum.joint(Phase.JOINT, ids(0, 4), 3, ids(2, 6), 3));
      assertThat(context.index().phase()).isEqualTo(Phase.JOINT);
      // A listing of all six waits for enough that two of the deciding four answered.
      assertThat(context.array.readQuorum()).isEqualTo(4);
    } finally {
      context.array.close();
    }
  }
}
