package io.racs.proxy.store.reshape;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.VersionMeta;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that new writes take a geometry-only reshape's target at once (docs/reshape.md §2, §6):
 * once a store has re-read the array record ({@link RecordedLayout#follow}), striped, inline and
 * multipart PUTs and delete markers are written 3x3 while older versions stay 4x2 and read
 * byte-exact, and the mover moves only those; an abort turns new writes back to 4x2. The mover
 * completes no earlier than the fence: a sweep that found nothing before it waits, and a version a
 * late proxy wrote in the old layout meanwhile is moved before the reshape is marked complete; a
 * reshape aborted while the mover runs is never marked complete. Data comes from seed {@link
 * ReshapeArray#SEED}.
 */
class WritesDuringReshapeTest {
  private ReshapeArray fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void writes_whileReshapeRuns_takeTheTargetLayout() throws Exception {
    fixture = new ReshapeArray(Duration.ZERO).fill();
    ErasureStore store = fixture.store;
    long oldVersions = ReshapeArray.seen(store).stream().filter(l -> !l.startsWith("list")).count();
    fixture.recordReshape();
    RecordedLayout.follow(store);

    byte[] striped = fixture.data(5 * ReshapeArray.BLOCK + 1);
    VersionMeta put = ReshapeArray.put(store, "bkt", "new-striped", striped);
    VersionMeta inline = ReshapeArray.put(store, "bkt", "new-inline", fixture.data(100));
    VersionMeta marker = store.delete("bkt", "striped").orElseThrow();
    String upload = store.createMultipartUpload("bkt", "new-mp", ObjectStore.PutOptions.defaults());
    byte[] part = fixture.data(2 * ReshapeArray.BLOCK);
    String etag =
        store
            .uploadPart(
                "bkt",
                "new-mp",
                upload,
                1,
                new ByteArrayInputStream(part),
                part.length,
                java.util.Map::of)
            .etag();
    VersionMeta multipart =
        store.completeMultipartUpload(
            "bkt",
            "new-mp",
            upload,
            List.of(new ObjectStore.CompletedPart(1, etag)),
            chosen -> java.util.Map.of());

    assertThat(List.of(put, inline, marker, multipart))
        .extracting(VersionMeta::geometry)
        .containsOnly("3x3");
    assertThat(ReshapeArray.read(store, store.head("bkt", "new-striped"))).isEqualTo(striped);
    assertThat(ReshapeArray.read(store, store.head("bkt", "new-mp"))).isEqualTo(part);
    assertThat(ReshapeArray.geometries(store)).contains("4x2", "3x3");
    List<String> before = ReshapeArray.seen(store);

    Mover.Report report = fixture.move(-1, new ArrayList<>());

    assertThat(report.outcome()).as(report.reason()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(report.versionsMoved()).isEqualTo(oldVersions);
    assertThat(ReshapeArray.seen(store)).containsExactlyElementsOf(before);
    assertThat(ReshapeArray.geometries(store)).containsOnly("3x3");
  }

  @Test
  void writes_afterAbort_takeTheOldLayoutAgain() {
    fixture = new ReshapeArray(Duration.ZERO).fill();
    ErasureStore store = fixture.store;
    fixture.recordReshape();
    RecordedLayout.follow(store);
    assertThat(ReshapeArray.put(store, "bkt", "during", fixture.data(300)).geometry())
        .isEqualTo("3x3");
    ArrayRecords records = new ArrayRecords(store);
    ArrayRecord running = records.current().orElseThrow();
    records.write(running.next(records.nextId(), ArrayRecord.State.ABORTED, null));

    RecordedLayout.follow(store);

    assertThat(ReshapeArray.put(store, "bkt", "after", fixture.data(300)).geometry())
        .isEqualTo("4x2");
  }

  @Test
  void run_whenAbortedMeanwhile_neverMarksItComplete() {
    fixture = new ReshapeArray(Duration.ZERO).fill();
    ErasureStore store = fixture.store;
    fixture.recordReshape();
    ArrayRecords records = new ArrayRecords(store);
    ArrayRecord running = records.current().orElseThrow();
    AtomicInteger asked = new AtomicInteger();

    // Another process aborts while this mover is at its third key.
    Mover.Report report =
        Mover.run(
            store,
            Mover.Options.defaults()
                .withRate(0)
                .withFence(Duration.ZERO)
                .withPause(Duration.ofMillis(5))
                .withStop(
                    () -> {
                      if (asked.incrementAndGet() == 3) {
                        records.write(
                            running.next(records.nextId(), ArrayRecord.State.ABORTED, null));
                      }
                      return false;
                    }));

    assertThat(report.outcome()).isEqualTo(Mover.Outcome.STOPPED);
    assertThat(report.reason()).isEqualTo("the reshape is aborted since this run began");
    assertThat(fixture.state()).isEqualTo(ArrayRecord.State.ABORTED);
  }

  @Test
  void run_beforeTheFence_waitsAndMovesWhatALateProxyWroteInTheOldLayout() {
    fixture = new ReshapeArray(Duration.ZERO).fill();
    ErasureStore store = fixture.store;
    fixture.recordReshape();
    fixture.fence = Duration.ofHours(1);
    AtomicInteger asked = new AtomicInteger();
    List<String> progress = new ArrayList<>();

    // Stopped while it waits for the fence: everything is moved, but it is not complete.
    Mover.Report waiting =
        Mover.run(
            store,
            Mover.Options.defaults()
                .withRate(0)
                .withFence(fixture.fence)
                .withPause(Duration.ofMillis(5))
                .withProgress(progress::add)
                .withStop(() -> asked.incrementAndGet() > 100));

    assertThat(waiting.outcome()).isEqualTo(Mover.Outcome.STOPPED);
    assertThat(progress).contains("reshape: waiting for every proxy to write the new layout");
    assertThat(fixture.state()).isEqualTo(ArrayRecord.State.RUNNING);
    assertThat(ReshapeArray.geometries(store)).containsOnly("3x3");

    // A proxy that has not re-read the array record yet writes 4x2 (this store has not followed).
    VersionMeta late = ReshapeArray.put(store, "bkt", "late", fixture.data(3 * 4096));
    assertThat(late.geometry()).isEqualTo("4x2");
    fixture.clock.advance(Duration.ofHours(2));

    Mover.Report done = fixture.move(-1, progress);

    assertThat(done.outcome()).as(done.reason()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(ReshapeArray.geometries(store)).containsOnly("3x3");
    assertThat(store.head("bkt", "late").versionId()).isEqualTo(late.versionId());
  }
}
