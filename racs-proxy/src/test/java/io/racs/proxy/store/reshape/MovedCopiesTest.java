package io.racs.proxy.store.reshape;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves how a version with two copies is served while the older one waits for the newer to settle
 * (docs/reshape.md §3, §5): every version is listed once and read from its copy in the target
 * layout; a read whose copy lost too many shards reads the older copy; a DELETE by version id
 * removes both copies and their data; heal keeps the older copy until the newer one has settled,
 * then collects it, and the mover then completes. The settle time is an hour, passed by moving the
 * store's clock on. Data comes from seed {@link ReshapeArray#SEED}.
 */
class MovedCopiesTest {
  // Keys the fixture writes: six in bkt, four in plain.
  private static final int KEYS = 10;

  private ReshapeArray fixture;
  private ErasureStore store;
  private List<String> before;

  @BeforeEach
  void moveWithoutCollecting() {
    fixture = new ReshapeArray(Duration.ofHours(1)).fill();
    store = fixture.store;
    before = ReshapeArray.seen(store);
    fixture.recordReshape();
    // Stopped when it would wait for the first copy to settle, having copied every version.
    Mover.Report report = fixture.move(KEYS, new ArrayList<>());
    assertThat(report.outcome()).isEqualTo(Mover.Outcome.STOPPED);
    assertThat(report.copiesCollected()).isZero();
  }

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void list_whenBothCopiesStored_showsEachVersionOnceFromItsNewCopy() {
    VersionMeta striped = store.head("bkt", "striped");
    String entry = store.context().indexEntry("bkt", "striped", striped.versionId());
    assertThat(fixture.stored("i/")).containsKeys(entry, Layout.copyEntry(entry, 1));

    assertThat(ReshapeArray.seen(store)).containsExactlyElementsOf(before);
    assertThat(ReshapeArray.geometries(store)).containsOnly("3x3");
  }

  @Test
  void get_whenNewCopyLostTooManyShards_readsTheOlderCopy() {
    VersionMeta copy = store.head("bkt", "striped");
    assertThat(copy.layout()).isEqualTo(1);
    byte[] expected = ReshapeArray.read(store, copy);
    fixture.loseShards(copy.parts().getFirst(), 4); // 3x3 needs 3 of 6

    // A ranged GET: a whole one may take a read begun from the version this store served last.
    try (ObjectStore.ObjectReader r = store.get("bkt", "striped", 1, -1, 0, null)) {
      assertThat(r.body().readAllBytes())
          .isEqualTo(java.util.Arrays.copyOfRange(expected, 1, expected.length));
      assertThat(r.meta().geometry()).isEqualTo("4x2");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThat(ReshapeArray.read(store, store.version("bkt", "striped", copy.versionId())))
        .isEqualTo(expected);
  }

  @Test
  void removeVersion_whenBothCopiesStored_removesEveryCopyAndItsData() {
    List<ObjectStore.ListedVersion> versions =
        store
            .listVersions("bkt", new ObjectStore.VersionListRequest("striped", null, null, null, 9))
            .versions();
    VersionMeta older = versions.get(1).meta();
    String entry = store.context().indexEntry("bkt", "striped", older.versionId());
    VersionMeta original = store.context().read(entryOf(entry), VersionMeta.class).orElseThrow();
    List<String> dataIds = new ArrayList<>();
    for (VersionMeta m : List.of(older, original)) {
      m.parts().forEach(p -> dataIds.add(p.dataId()));
    }

    store.removeVersion("bkt", "striped", older.versionId());
    store.awaitCollections();

    assertThat(fixture.stored("i/").keySet())
        .filteredOn(name -> Layout.versionOf(name).equals(older.versionId()))
        .allMatch(Layout::isRemovalRecord);
    assertThat(fixture.stored("v/").keySet())
        .noneMatch(name -> dataIds.contains(Layout.dataIdOfShard(name)));
    List<String> expected = new ArrayList<>(before);
    expected.removeIf(line -> line.contains(" " + older.versionId() + " "));
    assertThat(ReshapeArray.seen(store)).containsExactlyElementsOf(expected);
  }

  @Test
  void heal_whenNewCopySettles_collectsTheOlderCopyThenTheMoverCompletes() {
    VersionMeta small = store.head("bkt", "small");
    String entry = store.context().indexEntry("bkt", "small", small.versionId());
    PartMeta striped =
        store
            .context()
            .read(
                entryOf(
                    store
                        .context()
                        .indexEntry("bkt", "striped", store.head("bkt", "striped").versionId())),
                VersionMeta.class)
            .orElseThrow()
            .parts()
            .getFirst();

    HealReport early = Healer.heal(store, HealOptions.defaults());
    assertThat(early.unrecoverable()).isEmpty();
    assertThat(fixture.stored("i/")).containsKeys(entry, Layout.copyEntry(entry, 1));
    assertThat(fixture.stored("v/")).containsKey(Layout.shard(striped.dataId(), 0));

    fixture.clock.advance(Duration.ofHours(2));
    HealReport settled = Healer.heal(store, HealOptions.defaults());

    assertThat(settled.unrecoverable()).isEmpty();
    assertThat(fixture.stored("i/"))
        .doesNotContainKey(entry)
        .containsKey(Layout.copyEntry(entry, 1));
    assertThat(fixture.stored("v/").keySet())
        .noneMatch(name -> Layout.dataIdOfShard(name).equals(striped.dataId()));
    assertThat(fixture.stored("i/").keySet())
        .allMatch(name -> Layout.isCopy(name) || Layout.isRemovalRecord(name));
    assertThat(ReshapeArray.seen(store)).containsExactlyElementsOf(before);
    assertThat(fixture.move(-1, new ArrayList<>()).outcome()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(Map.copyOf(fixture.stored(Layout.MOVE_CHECKPOINTS))).isEmpty();
  }

  /** The merged listing entry of one index name, as the store reads records. */
  private io.racs.proxy.store.array.IndexMerge.Entry entryOf(String name) {
    io.racs.proxy.store.array.IndexMerge merge =
        io.racs.proxy.store.array.IndexMerge.ungrouped(store.context().array, name, "", 10);
    for (var e = merge.next(); e != null; e = merge.next()) {
      if (e.name().equals(name)) {
        return e;
      }
    }
    throw new AssertionError("not listed: " + name);
  }
}
