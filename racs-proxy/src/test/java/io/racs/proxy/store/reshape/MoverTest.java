package io.racs.proxy.store.reshape;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves the mover of a geometry-only reshape (docs/reshape.md §5): 4x2 over six repositories moved
 * to 3x3 over the same six, with several versions of a key, a delete marker, tags given at PUT and
 * set later, a multipart object, inline, empty, striped and sealed versions, in a versioned and an
 * unversioned bucket. After the move every version is byte-exact with the same id, ETag, times,
 * checksums, tags, part table and order, each listed once, in 3x3; the old shards and records are
 * gone, and a store opened 3x3 with the new file reads it all. A mover stopped after a few keys
 * leaves every version listed exactly once, and a new mover resumes from its checkpoint, moving
 * what was written meanwhile too. Data comes from seed {@link ReshapeArray#SEED}.
 */
class MoverTest {
  private ReshapeArray fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void run_when4x2To3x3_movesEveryVersionByteExactAndCompletes() {
    fixture = new ReshapeArray(Duration.ZERO).fill();
    ErasureStore store = fixture.store;
    List<String> before = ReshapeArray.seen(store);
    Set<String> oldData = dataIds(store);
    fixture.recordReshape();

    List<String> progress = new ArrayList<>();
    Mover.Report report = fixture.move(-1, progress);

    assertThat(report.outcome()).as(report.reason()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(report.versionsMoved())
        .isEqualTo(before.stream().filter(l -> !l.startsWith("list")).count());
    assertThat(fixture.state()).isEqualTo(ArrayRecord.State.COMPLETE);
    assertThat(ReshapeArray.seen(store)).containsExactlyElementsOf(before);
    assertThat(ReshapeArray.geometries(store)).containsOnly("3x3");
    // The old layout is gone: its shards, its records (every index name left is a copy or a
    // removal record), and the mover's checkpoints.
    assertThat(fixture.stored("v/").keySet())
        .noneMatch(name -> oldData.contains(Layout.dataIdOfShard(name)));
    assertThat(fixture.stored("i/").keySet())
        .allMatch(name -> Layout.isCopy(name) || Layout.isRemovalRecord(name));
    assertThat(fixture.stored(Layout.MOVE_CHECKPOINTS)).isEmpty();

    // Run again, it has nothing to do.
    assertThat(fixture.move(-1, progress).outcome()).isEqualTo(Mover.Outcome.COMPLETE);

    // The new configuration file opens over markers written 4x2: the array record decides.
    ErasureStore threeByThree = fixture.reopen3x3();
    assertThat(ReshapeArray.seen(threeByThree)).containsExactlyElementsOf(before);
    byte[] after = fixture.data(3 * ReshapeArray.BLOCK);
    VersionMeta written = ReshapeArray.put(threeByThree, "bkt", "after", after);
    assertThat(ReshapeArray.read(threeByThree, threeByThree.head("bkt", "after"))).isEqualTo(after);
    assertThat(written.geometry()).isEqualTo("3x3");
  }

  @Test
  void run_whenStoppedAfterKeysAndRestarted_listsEachVersionOnceAndResumes() {
    fixture = new ReshapeArray(Duration.ZERO).fill();
    ErasureStore store = fixture.store;
    List<String> before = ReshapeArray.seen(store);
    fixture.recordReshape();

    List<String> progress = new ArrayList<>();
    Mover.Report stopped = fixture.move(3, progress);

    assertThat(stopped.outcome()).isEqualTo(Mover.Outcome.STOPPED);
    assertThat(stopped.versionsMoved()).isBetween(1L, 5L);
    assertThat(fixture.state()).isEqualTo(ArrayRecord.State.RUNNING);
    assertThat(ReshapeArray.seen(store)).containsExactlyElementsOf(before);
    assertThat(ReshapeArray.geometries(store)).contains("3x3", "4x2");

    // Writes while the move stands still are served and moved on with the rest.
    byte[] newer = fixture.data(4 * ReshapeArray.BLOCK + 1);
    VersionMeta overwrite = ReshapeArray.put(store, "bkt", "striped", newer);
    fixture.put("plain", "p9", 700);
    assertThat(ReshapeArray.read(store, store.head("bkt", "striped"))).isEqualTo(newer);
    List<String> during = ReshapeArray.seen(store);

    Mover.Report resumed = fixture.move(-1, progress);

    assertThat(resumed.outcome()).as(resumed.reason()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(progress).anyMatch(line -> line.startsWith("reshape: resuming sweep 1"));
    assertThat(resumed.versionsMoved())
        .isEqualTo(during.stream().filter(l -> !l.startsWith("list")).count());
    assertThat(ReshapeArray.seen(store)).containsExactlyElementsOf(during);
    assertThat(ReshapeArray.geometries(store)).containsOnly("3x3");
    assertThat(store.head("bkt", "striped").versionId()).isEqualTo(overwrite.versionId());
  }

  @Test
  void run_whenAVersionIsLostOnEveryCopy_marksTheReshapeFailedNamingIt() {
    fixture = new ReshapeArray(Duration.ZERO).fill();
    ErasureStore store = fixture.store;
    VersionMeta lost = store.head("bkt", "striped");
    fixture.loseShards(lost.parts().getFirst(), 3); // 3 of 6 left: fewer than k = 4
    fixture.recordReshape();
    List<String> progress = new ArrayList<>();

    Mover.Report report = fixture.move(-1, progress);

    String reason =
        "bkt/striped version "
            + lost.versionId()
            + " cannot be read: 3 of the 6 shards of its part 1 exist (need 4); abort the reshape"
            + " (racs reshape abort), then restore or delete the version";
    assertThat(report.outcome()).isEqualTo(Mover.Outcome.FAILED);
    assertThat(report.reason()).isEqualTo("the reshape failed: " + reason);
    ArrayRecord failed = new ArrayRecords(store).current().orElseThrow();
    assertThat(failed.state()).isEqualTo(ArrayRecord.State.FAILED);
    assertThat(failed.reason()).isEqualTo(reason);
    assertThat(progress).contains("reshape: failed: " + reason);

    // Final: a mover run again moves nothing and says why.
    Mover.Report again = fixture.move(-1, progress);
    assertThat(again.outcome()).isEqualTo(Mover.Outcome.FAILED);
    assertThat(again.reason()).isEqualTo("the reshape failed: " + reason);
    assertThat(again.versionsMoved()).isZero();
  }

  @Test
  void run_whenASlotIsDown_pausesAndNeverMarksItFailed() {
    fixture = new ReshapeArray(Duration.ZERO).fill();
    ErasureStore store = fixture.store;
    List<String> before = ReshapeArray.seen(store);
    fixture.recordReshape();
    fixture.array.faulty().get(5).outage(true);
    List<String> progress = new ArrayList<>();

    Mover.Report paused = fixture.move(3, progress);

    assertThat(paused.outcome()).isEqualTo(Mover.Outcome.STOPPED);
    assertThat(paused.reason()).startsWith("paused: slot 5");
    assertThat(progress).anyMatch(line -> line.startsWith("reshape: paused: slot 5"));
    assertThat(fixture.state()).isEqualTo(ArrayRecord.State.RUNNING);
    assertThat(MoveProgress.latest(store, 1).orElseThrow().problem()).startsWith("paused: slot 5");

    fixture.array.faulty().get(5).outage(false);
    Mover.Report resumed = fixture.move(-1, progress);

    assertThat(resumed.outcome()).as(resumed.reason()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(ReshapeArray.seen(store)).containsExactlyElementsOf(before);
  }

  /** The data ids of every version's striped parts. */
  private static Set<String> dataIds(ErasureStore store) {
    Set<String> ids = new HashSet<>();
    for (String bucket : List.of("bkt", "plain")) {
      for (ObjectStore.ListedVersion v :
          store
              .listVersions(bucket, new ObjectStore.VersionListRequest("", null, null, null, 1000))
              .versions()) {
        for (PartMeta part : v.meta().parts()) {
          if (!part.inline()) {
            ids.add(part.dataId());
          }
        }
      }
    }
    return ids;
  }
}
