package io.racs.proxy.store.array;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.format.Layout;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.memory.MemoryRepository;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Proves the array addresses its repositories by stable slot id (docs/reshape.md §2): a layout
 * places shard {@code i} of a key on {@code slots[(rotation + i) mod n]} of its own slot-id list,
 * generation 0 over ids {@code 0..n-1} placing every key exactly where slot positions did (so every
 * existing record stays valid); a layout over other ids keeps the key's rotation; and an id of no
 * live layout is never asked, answering {@code UNAVAILABLE} "retired", while fan-outs over every
 * slot leave it out.
 */
class SlotIdsTest {
  @Test
  void place_generationZero_isThePlacementBySlotPosition() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    for (Geometry geometry : List.of(Geometry.of(4, 2), Geometry.of(6, 3), Geometry.of(3, 3))) {
      SlotLayout first = SlotLayout.first(geometry);
      int n = geometry.totalShards();
      for (int k = 0; k < 200; k++) {
        String key = "key-" + random.nextLong();
        int rotation = Layout.rotation("b", key, n);
        List<Integer> byPosition = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          byPosition.add((rotation + i) % n);
        }
        assertThat(first.place("b", key)).as("seed %d, %s", seed, key).isEqualTo(byPosition);
      }
    }
  }

  @Test
  void place_overOtherIds_keepsTheRotationOverTheLayoutsList() {
    SlotLayout other =
        new SlotLayout(2, Geometry.of(4, 2), IntStream.range(6, 12).boxed().toList());
    for (String key : List.of("a", "b", "photos/cat.jpg", "x".repeat(300))) {
      int rotation = Layout.rotation("b", key, 6);
      List<Integer> placed = other.place("b", key);
      for (int i = 0; i < 6; i++) {
        assertThat(placed.get(i)).isEqualTo(6 + (rotation + i) % 6);
      }
    }
  }

  @Test
  void layout_whenSlotsDoNotFitTheGeometry_isRefused() {
    assertThatThrownBy(() -> new SlotLayout(0, Geometry.of(4, 2), List.of(0, 1, 2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("slots: [0, 1, 2] (expected: 6 slot ids for 4x2)");
    assertThatThrownBy(() -> new SlotLayout(0, Geometry.of(2, 1), List.of(0, 1, 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("slots: [0, 1, 1] (expected: distinct slot ids, none below 0)");
  }

  @Test
  void retiredSlot_isNeverAskedAndAnswersUnavailableRetired() {
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      repositories.add(MemoryRepository.create("mem" + i));
    }
    StoreContext context =
        new StoreContext(
            StoreConfig.builder(Geometry.of(2, 1)).writeQuorum(2).build(),
            repositories.subList(0, 3),
            "array");
    RepositoryArray array = context.array;
    try {
      RepositoryArray.putBytes(array.slot(1), "x", new byte[] {1});
      array.retire(Set.of(1));
      assertThat(array.ids()).containsExactly(0, 2);
      assertThat(array.fanOut((slot, r) -> r.head("x")))
          .extracting(RepositoryArray.Outcome::slot)
          .containsExactly(0, 2);
      List<RepositoryArray.Outcome<Optional<?>>> asked =
          array.fanOut(List.of(1), (slot, r) -> r.head("x"));
      assertThat(asked.get(0).ok()).isFalse();
      assertThat(asked.get(0).failure())
          .isInstanceOfSatisfying(
              RepositoryException.class,
              e -> assertThat(e.kind()).isEqualTo(RepositoryException.Kind.UNAVAILABLE))
          .hasMessageContaining("mem1: retired (slot 1 is in no live layout)");
      assertThatThrownBy(
              () ->
                  context.slotsFor(
                      "b", "k", new SlotLayout(1, Geometry.of(2, 1), List.of(0, 1, 2))))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("expected: live slot ids");
      assertThat(context.slotsFor("b", "k", new SlotLayout(1, Geometry.of(1, 1), List.of(0, 2))))
          .containsExactlyInAnyOrder(0, 2);
    } finally {
      array.close();
    }
  }
}
