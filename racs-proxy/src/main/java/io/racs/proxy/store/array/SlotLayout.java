package io.racs.proxy.store.array;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.format.Layout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * A layout of the array (docs/reshape.md §2): a geometry over a list of slot ids in placement
 * order. Shard {@code i} of a key goes to {@code slots[(rotation(key, n) + i) mod n]}, the rotation
 * of {@link Layout#rotation} with the layout's {@code n}; generation 0 over ids {@code 0..n-1} is
 * the placement every array had before slot ids, so every record written then names the slots it
 * would name now, byte for byte.
 *
 * @param generation the layout's generation (0: the array as first made)
 * @param geometry its {@code DxP}
 * @param slots its slot ids in placement order, one per shard, distinct
 */
public record SlotLayout(int generation, Geometry geometry, List<Integer> slots) {
  /** Checks the slots fit the geometry. */
  public SlotLayout {
    slots = List.copyOf(slots);
    if (generation < 0) {
      throw new IllegalArgumentException("generation: " + generation + " (expected: >= 0)");
    }
    if (slots.size() != geometry.totalShards()) {
      throw new IllegalArgumentException(
          "slots: "
              + slots
              + " (expected: "
              + geometry.totalShards()
              + " slot ids for "
              + geometry
              + ")");
    }
    if (new HashSet<>(slots).size() != slots.size() || slots.stream().anyMatch(id -> id < 0)) {
      throw new IllegalArgumentException(
          "slots: " + slots + " (expected: distinct slot ids, none below 0)");
    }
  }

  /** Generation 0 of {@code geometry}: slot ids {@code 0..n-1}, today's placement. */
  public static SlotLayout first(Geometry geometry) {
    return new SlotLayout(0, geometry, firstIds(geometry.totalShards()));
  }

  /** {@code geometry} in {@code generation} over the slot ids {@code 0..n-1}. */
  public static SlotLayout overFirst(int generation, Geometry geometry) {
    return new SlotLayout(generation, geometry, firstIds(geometry.totalShards()));
  }

  private static List<Integer> firstIds(int n) {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(i);
    }
    return ids;
  }

  /** The slot ids of {@code bucket/key}'s shards, shard {@code i} at index {@code i}. */
  public List<Integer> place(String bucket, String key) {
    int n = slots.size();
    int rotation = Layout.rotation(bucket, key, n);
    List<Integer> placed = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      placed.add(slots.get((rotation + i) % n));
    }
    return placed;
  }

  @Override
  public String toString() {
    return geometry + " over slots " + slots + " (generation " + generation + ")";
  }
}
