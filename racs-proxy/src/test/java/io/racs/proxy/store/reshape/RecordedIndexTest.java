package io.racs.proxy.store.reshape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.array.IndexQuorum;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.Layout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Proves how the array record carries slot ids and the index phase (docs/reshape.md §2, §4): a
 * layout that follows another keeps each kept repository's slot id and gives added ones ids never
 * given before (so a retired repository's id is never another's, even after a layout without it);
 * records without slot ids or a phase read as before (ids {@code 0..n-1}, no phase) and a record
 * without them is written byte for byte as before; and {@link RecordedIndex} turns a record's state
 * and phase into the index quorum of issue #38's reshapes 4x2 over a..f -> 6x3 over a..i -> 4x2
 * over g..l.
 */
class RecordedIndexTest {
  private static final List<String> A_F = List.of("a", "b", "c", "d", "e", "f");
  private static final List<String> A_I = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i");
  private static final List<String> G_L = List.of("g", "h", "i", "j", "k", "l");

  private static List<Integer> ids(int from, int to) {
    return IntStream.range(from, to).boxed().toList();
  }

  private static ArrayRecord record(
      ArrayRecord.State state,
      ArrayRecord.Generation from,
      ArrayRecord.Generation to,
      ArrayRecord.Phase phase) {
    return new ArrayRecord(1, "array", "v1", state, from, to, 0, 50, null, null, phase);
  }

  @Test
  void followedBy_keepsKeptIdsAndNeverReusesARetiredOne() {
    ArrayRecord.Generation first = new ArrayRecord.Generation(0, "4x2", A_F);
    assertThat(first.slotIds()).isEqualTo(ids(0, 6));
    ArrayRecord.Generation second = first.followedBy(1, "6x3", A_I);
    assertThat(second.slotIds()).isEqualTo(ids(0, 9));
    ArrayRecord.Generation third = second.followedBy(2, "4x2", G_L);
    assertThat(third.slotIds()).isEqualTo(ids(6, 12));
    assertThat(second.retiredBy(third)).isEqualTo(A_F);
    // A layout without the highest id still never gives it again: l (slot 11) retired, then m.
    ArrayRecord.Generation fourth = third.followedBy(3, "3x2", G_L.subList(0, 5));
    ArrayRecord.Generation fifth =
        fourth.followedBy(4, "3x3", List.of("g", "h", "i", "j", "k", "m"));
    assertThat(fifth.slotOf("m")).isEqualTo(12);
    // A repository reordered keeps its id: placement order is the list's, the id is the slot's.
    ArrayRecord.Generation reordered =
        first.followedBy(1, "4x2", List.of("b", "a", "c", "d", "e", "f"));
    assertThat(reordered.slotIds()).containsExactly(1, 0, 2, 3, 4, 5);
  }

  @Test
  void generation_whenSlotIdsDoNotFit_isRefused() {
    assertThatThrownBy(
            () -> new ArrayRecord.Generation(1, "2x1", List.of("a", "b", "c"), List.of(0, 1, 1), 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("slots: [0, 1, 1]");
    assertThatThrownBy(
            () -> new ArrayRecord.Generation(1, "2x1", List.of("a", "b", "c"), List.of(0, 1, 5), 3))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void records_withoutSlotIdsOrPhase_encodeAsBeforeAndReadBack() {
    ArrayRecord old =
        record(
            ArrayRecord.State.RUNNING,
            new ArrayRecord.Generation(0, "4x2", A_F),
            new ArrayRecord.Generation(1, "3x3", A_F),
            null);
    String json = new String(Layout.encode(old), StandardCharsets.UTF_8);
    assertThat(json).doesNotContain("slots").doesNotContain("nextSlot").doesNotContain("phase");
    assertThat(Layout.decode(Layout.encode(old), ArrayRecord.class)).contains(old);

    ArrayRecord.Generation from = new ArrayRecord.Generation(0, "4x2", A_F);
    ArrayRecord joint =
        record(
            ArrayRecord.State.RUNNING,
            from,
            from.followedBy(1, "6x3", A_I),
            ArrayRecord.Phase.JOINT);
    ArrayRecord back = Layout.decode(Layout.encode(joint), ArrayRecord.class).orElseThrow();
    assertThat(back).isEqualTo(joint);
    assertThat(back.to().slotIds()).isEqualTo(ids(0, 9));
    assertThat(back.changesRepositories()).isTrue();
    assertThat(old.changesRepositories()).isFalse();
  }

  @Test
  void of_followsTheStateAndPhaseOfAReshapeOfTheRepositorySet() {
    ArrayRecord.Generation from = new ArrayRecord.Generation(0, "4x2", A_F);
    ArrayRecord.Generation to = from.followedBy(1, "6x3", A_I);
    assertThat(RecordedIndex.of(record(ArrayRecord.State.RUNNING, from, to, null), 4))
        .satisfies(q -> assertThat(q.phase()).isEqualTo(IndexQuorum.Phase.OLD))
        .satisfies(q -> assertThat(q.writeSlots()).isEqualTo(ids(0, 6)));
    for (ArrayRecord.Phase phase : ArrayRecord.Phase.values()) {
      IndexQuorum q = RecordedIndex.of(record(ArrayRecord.State.RUNNING, from, to, phase), 4);
      assertThat(q.phase().name()).isEqualTo(phase.name());
      // Both sets while JOINT and SWITCHED, the new one once DONE: here 0..8 either way.
      assertThat(q.writeSlots()).isEqualTo(ids(0, 9));
    }
    IndexQuorum switched =
        RecordedIndex.of(
            record(ArrayRecord.State.RUNNING, from, to, ArrayRecord.Phase.SWITCHED), 4);
    // 6x3's index write quorum is max(6, 4): six of the nine.
    assertThat(switched.mayCount(ids(3, 8))).isFalse();
    assertThat(switched.mayCount(ids(3, 9))).isTrue();
    IndexQuorum complete =
        RecordedIndex.of(record(ArrayRecord.State.COMPLETE, from, to, ArrayRecord.Phase.DONE), 6);
    assertThat(complete.phase()).isEqualTo(IndexQuorum.Phase.OLD);
    assertThat(complete.writeSlots()).isEqualTo(ids(0, 9));
    IndexQuorum aborted =
        RecordedIndex.of(
            record(ArrayRecord.State.ABORTED, from, to, ArrayRecord.Phase.SWITCHED), 4);
    assertThat(aborted.writeSlots()).isEqualTo(ids(0, 6));
    assertThatThrownBy(
            () ->
                RecordedIndex.of(
                    record(ArrayRecord.State.ABORTED, from, to, ArrayRecord.Phase.DONE), 4))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("moving it back is not built");

    ArrayRecord.Generation last = to.followedBy(2, "4x2", G_L);
    IndexQuorum done =
        RecordedIndex.of(record(ArrayRecord.State.RUNNING, to, last, ArrayRecord.Phase.DONE), 6);
    assertThat(done.writeSlots()).isEqualTo(ids(6, 12));
    assertThat(done.writeQuorum()).isEqualTo(4);
  }

  @Test
  void of_geometryOnly_isTheOneSetOnTheConfiguredQuorum() {
    ArrayRecord.Generation from = new ArrayRecord.Generation(0, "4x2", A_F);
    IndexQuorum q =
        RecordedIndex.of(
            record(ArrayRecord.State.RUNNING, from, from.followedBy(1, "3x3", A_F), null), 5);
    assertThat(q.phase()).isEqualTo(IndexQuorum.Phase.OLD);
    assertThat(q.writeSlots()).isEqualTo(ids(0, 6));
    assertThat(q.writeQuorum()).isEqualTo(5);
  }
}
