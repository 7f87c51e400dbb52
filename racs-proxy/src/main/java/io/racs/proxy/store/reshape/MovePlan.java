package io.racs.proxy.store.reshape;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What moving an array's versions into a target layout costs each repository, counted version by
 * version as the mover would move them (docs/reshape.md, "The mover"): for each part, its k data
 * shards read from the slots its record names and its shards written, in the target's geometry and
 * block size, to the slots the key's rotation picks among the target's; the version's record
 * written on every repository of the target and its old record and shards deleted. A version whose
 * layout already is the target's costs nothing. The walk of the index that finds the versions is
 * counted too ({@link #listed}).
 *
 * <p>Record sizes are those of the records as they are: a moved record differs only in its layout
 * fields. Not thread-safe: one walk adds to one plan.
 */
public final class MovePlan {
  /** Entries per listing page, as the store lists the index ({@code IndexMerge}). */
  static final int PAGE_ENTRIES = 1000;

  /**
   * One layout as the plan sees it.
   *
   * @param config its geometry, block size and inline size
   * @param slots the repository in each slot, by name
   */
  public record Target(StoreConfig config, List<String> slots) {
    /** Checks that there is one repository per shard. */
    public Target {
      Objects.requireNonNull(config, "config");
      slots = List.copyOf(slots);
      if (slots.size() != config.geometry().totalShards()) {
        throw new IllegalArgumentException(
            "slots: " + slots.size() + " (expected: " + config.geometry().totalShards() + ")");
      }
    }
  }

  /** What one repository is asked: requests and bytes. Mutable, filled by the plan. */
  public static final class Work {
    long gets;
    long getBytes;
    long puts;
    long putBytes;
    long lists;
    long deletes;

    public long gets() {
      return gets;
    }

    /** Bytes the repository returns to GETs (the provider's data transfer out). */
    public long getBytes() {
      return getBytes;
    }

    public long puts() {
      return puts;
    }

    public long putBytes() {
      return putBytes;
    }

    public long lists() {
      return lists;
    }

    public long deletes() {
      return deletes;
    }
  }

  private final List<String> current;
  private final Target target;
  private final Map<String, Work> work = new LinkedHashMap<>();
  private long versions;
  private long moved;
  private long storedBytes;

  /**
   * A plan from the array whose slots hold {@code current} (repository names by slot id) to {@code
   * target}.
   */
  public MovePlan(List<String> current, Target target) {
    this.current = List.copyOf(current);
    this.target = Objects.requireNonNull(target, "target");
    this.current.forEach(name -> work.put(name, new Work()));
    target.slots().forEach(name -> work.putIfAbsent(name, new Work()));
  }

  /** Counts the listing of {@code entries} index entries of one bucket on every current slot. */
  public void listed(long entries) {
    long pages = Math.max(1, (entries + PAGE_ENTRIES - 1) / PAGE_ENTRIES);
    for (String name : current) {
      work.get(name).lists += pages;
    }
  }

  /** Counts the move of one version (or delete marker), as its record describes it. */
  public void add(VersionMeta version) {
    versions++;
    long record = Layout.encode(version).length;
    // The walk reads each record once, from one repository: count it on the key's first slot.
    read(slotName(Layout.rotation(version.bucket(), version.key(), current.size())), record);
    if (inPlace(version)) {
      return;
    }
    moved++;
    Geometry to = target.config().geometry();
    List<String> placed = placement(version);
    boolean inlineThere =
        !version.multipart()
            && version.parts().size() == 1
            && target.config().inlines(version.parts().getFirst().sizeBytes());
    for (PartMeta part : version.parts()) {
      storedBytes += part.sizeBytes();
      int k = Geometry.parse(version.geometry()).dataShards();
      long shard = part.shardObjectBytes(k);
      for (int i = 0; i < k; i++) {
        read(slotName(part.slots().get(i)), part.inline() ? record + shard : shard);
      }
      if (!part.inline()) {
        part.slots().forEach(slot -> delete(slotName(slot)));
      }
      long written = moved(part, to).shardObjectBytes(to.dataShards());
      for (String name : placed) {
        write(name, written);
        if (!inlineThere) {
          work.get(name).puts++; // inline, the shard rides in the record's PUT (below)
        }
      }
    }
    for (String name : target.slots()) {
      write(name, record);
      work.get(name).puts++;
    }
    for (String name : current) {
      delete(name);
    }
  }

  /** Each repository's work, current slots first, then the repositories the target adds. */
  public Map<String, Work> work() {
    return Collections.unmodifiableMap(work);
  }

  /** Versions (and delete markers) counted. */
  public long versions() {
    return versions;
  }

  /** Versions that must move: those not already in the target layout. */
  public long moved() {
    return moved;
  }

  /** Stored bytes of the versions that must move. */
  public long storedBytes() {
    return storedBytes;
  }

  /** Bytes read from every repository together. */
  public long bytesRead() {
    return work.values().stream().mapToLong(w -> w.getBytes).sum();
  }

  /** Bytes written to every repository together. */
  public long bytesWritten() {
    return work.values().stream().mapToLong(w -> w.putBytes).sum();
  }

  /** Whether {@code version} already is in the target's geometry, on the slots it would take. */
  private boolean inPlace(VersionMeta version) {
    if (!Geometry.parse(version.geometry()).equals(target.config().geometry())) {
      return false;
    }
    if (!current.equals(target.slots())) {
      return false; // records and markers go where the target's repositories are
    }
    List<String> placed = placement(version);
    for (PartMeta part : version.parts()) {
      List<String> names = new ArrayList<>();
      part.slots().forEach(slot -> names.add(slotName(slot)));
      if (!names.equals(placed)) {
        return false;
      }
    }
    return true;
  }

  /** The target repositories of shards 0..n-1 of {@code version}'s key (the key's rotation). */
  private List<String> placement(VersionMeta version) {
    int n = target.slots().size();
    int rotation = Layout.rotation(version.bucket(), version.key(), n);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      names.add(target.slots().get((rotation + i) % n));
    }
    return names;
  }

  /** {@code part} as the mover writes it: same bytes, the target's piece size. */
  private PartMeta moved(PartMeta part, Geometry to) {
    int pieceBytes = (target.config().blockBytes() + to.dataShards() - 1) / to.dataShards();
    return new PartMeta(
        part.partNumber(),
        part.dataId(),
        part.sizeBytes(),
        part.etag(),
        pieceBytes,
        List.of(), // only its sizes are asked for
        part.checksums(),
        false);
  }

  private String slotName(int slot) {
    if (slot < 0 || slot >= current.size()) {
      throw new IllegalArgumentException(
          "slot: " + slot + " (expected: 0 to " + (current.size() - 1) + ")");
    }
    return current.get(slot);
  }

  private void read(String name, long bytes) {
    Work w = work.get(name);
    w.gets++;
    w.getBytes += bytes;
  }

  private void write(String name, long bytes) {
    work.get(name).putBytes += bytes;
  }

  private void delete(String name) {
    work.get(name).deletes++;
  }
}
