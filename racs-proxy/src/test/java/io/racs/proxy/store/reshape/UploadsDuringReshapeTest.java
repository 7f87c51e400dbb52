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
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that the mover completes no reshape while a multipart upload begun in the old layout is
 * open (docs/reshape.md §5): such an upload completes in the layout it began in, so the reshape
 * waits, saying which and how many, and is not marked complete; once the upload is completed the
 * next sweep moves its version into the target (byte-exact) and, once the last one is aborted, the
 * reshape completes. An upload begun in the target layout, still open, does not hold it up. Data
 * comes from seed {@link ReshapeArray#SEED}.
 */
class UploadsDuringReshapeTest {
  private ReshapeArray fixture;

  @AfterEach
  void close() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void run_whileUploadsBegunInTheOldLayoutAreOpen_waitsThenMovesTheCompletedOneAndCompletes()
      throws Exception {
    fixture = new ReshapeArray(Duration.ZERO).fill();
    ErasureStore store = fixture.store;
    String first = store.createMultipartUpload("bkt", "open-a", ObjectStore.PutOptions.defaults());
    byte[] data = fixture.data(2 * ReshapeArray.BLOCK + 5);
    String etag =
        store
            .uploadPart(
                "bkt", "open-a", first, 1, new ByteArrayInputStream(data), data.length, Map::of)
            .etag();
    String second =
        store.createMultipartUpload("plain", "open-b", ObjectStore.PutOptions.defaults());
    fixture.recordReshape();
    RecordedLayout.follow(store); // new writes take 3x3; the uploads begun before stay 4x2
    store.createMultipartUpload("bkt", "open-new", ObjectStore.PutOptions.defaults());
    List<String> progress = new ArrayList<>();

    Mover.Report waiting = fixture.move(-1, progress);

    assertThat(waiting.outcome()).isEqualTo(Mover.Outcome.STOPPED);
    assertThat(waiting.reason())
        .startsWith("waiting for 2 uploads begun in the old layout (oldest: bkt/open-a, begun 20")
        .endsWith("): complete or abort them");
    assertThat(progress).containsOnlyOnce("reshape: " + waiting.reason());
    assertThat(fixture.state()).isEqualTo(ArrayRecord.State.RUNNING);
    MoveProgress noted = MoveProgress.latest(store, 1).orElseThrow();
    assertThat(noted.waiting()).isEqualTo(waiting.reason());
    assertThat(noted.problem()).as("waiting is no error").isEmpty();
    assertThat(ReshapeArray.geometries(store)).containsOnly("3x3");

    // Completed after the sweeps, in the layout it began in.
    VersionMeta completed =
        store.completeMultipartUpload(
            "bkt",
            "open-a",
            first,
            List.of(new ObjectStore.CompletedPart(1, etag)),
            chosen -> Map.of());
    assertThat(completed.geometry()).isEqualTo("4x2");

    Mover.Report moved = fixture.move(-1, progress);

    assertThat(moved.outcome()).isEqualTo(Mover.Outcome.STOPPED);
    assertThat(moved.reason())
        .startsWith("waiting for 1 upload begun in the old layout (oldest: plain/open-b, begun ")
        .endsWith("): complete or abort it");
    VersionMeta now = store.head("bkt", "open-a");
    assertThat(now.versionId()).isEqualTo(completed.versionId());
    assertThat(now.geometry()).isEqualTo("3x3");
    assertThat(now.etag()).isEqualTo(completed.etag());
    assertThat(ReshapeArray.read(store, now)).isEqualTo(data);

    store.abortMultipartUpload("plain", "open-b", second);
    Mover.Report done = fixture.move(-1, progress);

    assertThat(done.outcome()).as(done.reason()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(fixture.state()).isEqualTo(ArrayRecord.State.COMPLETE);
    assertThat(ReshapeArray.geometries(store)).containsOnly("3x3");
    assertThat(ReshapeArray.read(store, store.head("bkt", "open-a"))).isEqualTo(data);
    assertThat(store.listMultipartUploads("bkt", null))
        .extracting(ObjectStore.UploadInfo::key)
        .containsExactly("open-new");
  }
}
