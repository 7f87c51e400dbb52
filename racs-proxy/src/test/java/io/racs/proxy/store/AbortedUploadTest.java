package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.AbandonedRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.DrivenClock;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that an aborted multipart upload stays aborted when a repository missed the abort's
 * deletes (it was out or stalled): the abort leaves a mark on a write quorum, which readers and
 * heal count as they count a version's removal record, so heal does not copy the upload back, it is
 * not listed and takes no parts; past the GC grace heal collects what is left, and the mark last,
 * only once every repository proves the upload gone. An abort that cannot reach a write quorum
 * answers 503 and changes nothing, and a mark on too few repositories hides nothing.
 */
class AbortedUploadTest {
  private static final String BUCKET = "bkt";
  private static final Duration GRACE = Duration.ofHours(1);

  private final DrivenClock clock = new DrivenClock();
  private final StoreFixture f =
      new StoreFixture(
          TestArray.builder("4x2")
              .blockBytes(4096)
              .minPartBytes(1)
              .slowShardTimeout(Duration.ofSeconds(5))
              .gcGrace(GRACE)
              .clock(clock));
  private final Random random = new Random(TestSeed.get());

  @AfterEach
  void close() {
    f.close();
  }

  private byte[] data(int length) {
    return SeededBytes.bytes(random.nextLong(), length);
  }

  private ObjectStore.PartInfo part(String key, String upload, int number, byte[] data) {
    return f.store.uploadPart(
        BUCKET, key, upload, number, StoreFixture.stream(data), data.length, Map::of);
  }

  private static void assertNoSuchUpload(Runnable call) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_UPLOAD));
  }

  private void assertGone(String upload) {
    assertThat(f.store.listMultipartUploads(BUCKET, "")).isEmpty();
    assertNoSuchUpload(() -> f.store.listParts(BUCKET, "k", upload));
    assertNoSuchUpload(() -> part("k", upload, 2, data(10)));
    assertNoSuchUpload(
        () ->
            f.store.completeMultipartUpload(
                BUCKET,
                "k",
                upload,
                List.of(new ObjectStore.CompletedPart(1, "\"x\"")),
                p -> Map.of()));
  }

  /** An upload of key {@code k}, and the ETag of its one part, {@code body}. */
  private record Started(String upload, String etag) {}

  private Started started(byte[] body) {
    f.store.createBucket(BUCKET);
    String upload = f.store.createMultipartUpload(BUCKET, "k", ObjectStore.PutOptions.defaults());
    return new Started(upload, part("k", upload, 1, body).etag());
  }

  private void complete(Started started) {
    f.store.completeMultipartUpload(
        BUCKET,
        "k",
        started.upload(),
        List.of(new ObjectStore.CompletedPart(1, started.etag())),
        p -> Map.of());
  }

  /** Slots 0 to 2 refuse every mark: a write quorum (4 of 6) cannot take one. */
  private void refuseMarks() {
    for (int slot = 0; slot < 3; slot++) {
      f.faulty.get(slot).failKeys(Pattern.compile(".*-gone"), RepositoryException.Kind.UNAVAILABLE);
    }
  }

  private void slot0MissesDeletes() {
    f.faulty.get(0).failOperation(Operation.DELETE, RepositoryException.Kind.UNAVAILABLE);
  }

  /** An upload of key {@code k} with one part, aborted while slot 0 refuses every delete. */
  private String abortedWhileSlot0MissesTheDeletes() {
    String upload = started(data(10_000)).upload();
    slot0MissesDeletes();
    f.store.abortMultipartUpload(BUCKET, "k", upload);
    f.faulty.get(0).clearFaults();
    return upload;
  }

  @Test
  void abortMultipartUpload_whenARepositoryMissedTheDeletesAndHealRuns_theUploadStaysGone() {
    String upload = abortedWhileSlot0MissesTheDeletes();

    // Before the mark, heal copied slot 0's upload record to every repository, and the upload was
    // listed again and took parts.
    HealReport report = Healer.heal(f.store, HealOptions.defaults());

    assertThat(report.notDone()).isEmpty();
    assertGone(upload);
    for (int slot = 1; slot < 6; slot++) {
      assertThat(f.names(slot, "u/"))
          .as("slot %d", slot)
          .noneMatch(name -> !Layout.isPartRecord(name) && !Layout.isRemovalRecord(name));
    }
  }

  @Test
  void heal_pastTheGraceOfAnAbortARepositoryMissed_collectsWhatIsLeftThenTheMark() {
    String upload = abortedWhileSlot0MissesTheDeletes();
    assertThat(f.names(0, "u/")).hasSize(3); // the upload record, its part record and the mark
    assertThat(f.names(0, "v/")).isNotEmpty();
    clock.advance(GRACE.plusMillis(1));

    // Slot 0 out: nothing can prove its copies gone, so the mark stays, and so does the upload's
    // absence.
    f.faulty.get(0).outage(true);
    Healer.heal(f.store, HealOptions.defaults());
    f.faulty.get(0).outage(false);
    assertGone(upload);
    assertThat(f.names(1, "u/")).hasSize(1);

    HealReport report = Healer.heal(f.store, HealOptions.defaults());

    assertThat(report.notDone()).isEmpty();
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, "u/")).as("slot %d", slot).isEmpty();
      assertThat(f.names(slot, "v/")).as("slot %d", slot).isEmpty();
    }
    assertGone(upload);
  }

  @Test
  void abortMultipartUpload_whenFewerThanAWriteQuorumTakeTheMark_failsAndChangesNothing() {
    byte[] body = data(10_000);
    Started started = started(body);
    refuseMarks();

    assertThatThrownBy(() -> f.store.abortMultipartUpload(BUCKET, "k", started.upload()))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS));

    f.faulty.forEach(r -> r.clearFaults());
    assertThat(f.store.listMultipartUploads(BUCKET, "")).hasSize(1);
    complete(started);
    assertThat(f.get(BUCKET, "k")).isEqualTo(body);
  }

  @Test
  void listMultipartUploads_whenAMarkIsOnFewerThanAWriteQuorum_theUploadIsStillThere() {
    f.store.createBucket(BUCKET);
    String upload = f.store.createMultipartUpload(BUCKET, "k", ObjectStore.PutOptions.defaults());
    String record =
        f.names(0, "u/").stream().filter(n -> !Layout.isPartRecord(n)).findFirst().orElseThrow();
    // What a failed abort whose rollback missed two repositories leaves.
    byte[] mark = Layout.encode(new AbandonedRecord(BUCKET, "k", upload, clock.millis()));
    for (int slot = 0; slot < 2; slot++) {
      f.memories
          .get(slot)
          .put(Layout.removalRecord(record), StoreFixture.stream(mark), mark.length);
    }

    Healer.heal(f.store, HealOptions.defaults());

    assertThat(f.store.listMultipartUploads(BUCKET, "")).hasSize(1);
    part("k", upload, 1, data(100));
    assertThat(f.store.listParts(BUCKET, "k", upload)).hasSize(1);
    for (int slot = 2; slot < 6; slot++) {
      assertThat(f.names(slot, "u/")).as("slot %d", slot).noneMatch(Layout::isRemovalRecord);
    }
  }

  @Test
  void completeMultipartUpload_whenARepositoryMissedTheDeletesAndHealRuns_theUploadStaysGone() {
    byte[] body = data(10_000);
    Started started = started(body);
    slot0MissesDeletes();
    complete(started);
    f.faulty.get(0).clearFaults();

    Healer.heal(f.store, HealOptions.defaults());

    assertGone(started.upload());
    assertThat(f.get(BUCKET, "k")).isEqualTo(body);
    clock.advance(GRACE.plusMillis(1));
    Healer.heal(f.store, HealOptions.defaults());
    assertThat(f.names(0, "u/")).isEmpty();
    assertThat(f.get(BUCKET, "k")).isEqualTo(body); // the parts' data is the object's
  }

  @Test
  void abortMultipartUpload_ofACompletedUploadHealBroughtBack_keepsTheObjectsData() {
    byte[] body = data(10_000);
    Started started = started(body);
    // The completion's mark reaches too few repositories, and slot 0 misses its deletes.
    refuseMarks();
    slot0MissesDeletes();
    complete(started);
    f.faulty.forEach(r -> r.clearFaults());
    Healer.heal(f.store, HealOptions.defaults());
    assertThat(f.store.listMultipartUploads(BUCKET, "")).hasSize(1); // back, as before the mark

    f.store.abortMultipartUpload(BUCKET, "k", started.upload());

    // Found in review: the abort deleted the parts' data, which is the committed object's.
    assertThat(f.get(BUCKET, "k")).isEqualTo(body);
    assertGone(started.upload());
  }

  @Test
  void completeMultipartUpload_whenItsCommitFailsAndTheClientRetries_theObjectIsWhole() {
    byte[] body = data(10_000);
    Started started = started(body);
    for (int slot = 0; slot < 3; slot++) {
      f.faulty.get(slot).failKeys(Pattern.compile("i/.*"), RepositoryException.Kind.UNAVAILABLE);
    }
    assertThatThrownBy(() -> complete(started))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS));
    f.store.awaitCollections(); // whatever the failed commit deletes in the background, deleted
    f.faulty.forEach(r -> r.clearFaults());

    complete(started); // an SDK retries the 503

    // Found in review: the failed commit deleted the parts' data, and the retry committed an
    // object made of nothing.
    assertThat(f.get(BUCKET, "k")).isEqualTo(body);
  }

  /**
   * A completion whose commit fails leaves its entry on slot 3, which missed the rollback's delete.
   * {@code retried}: the client retries and commits; otherwise the upload waits. Either way heal,
   * past the GC grace, collects the leftover entry, and must keep the parts' data.
   */
  private void failedCompletionLeavesAnEntry(boolean retried) {
    byte[] body = data(10_000);
    Started started = started(body);
    for (int slot = 0; slot < 3; slot++) {
      f.faulty.get(slot).failKeys(Pattern.compile("i/.*"), RepositoryException.Kind.UNAVAILABLE);
    }
    f.faulty.get(3).failOperation(Operation.DELETE, RepositoryException.Kind.UNAVAILABLE);
    assertThatThrownBy(() -> complete(started)).isInstanceOf(StoreException.class);
    f.faulty.forEach(r -> r.clearFaults());
    assertThat(f.names(3, "i/")).hasSize(1);
    if (retried) {
      complete(started);
    }
    clock.advance(GRACE.plusMillis(1));

    Healer.heal(f.store, HealOptions.defaults());

    if (!retried) {
      complete(started);
    }
    assertThat(f.get(BUCKET, "k")).isEqualTo(body);
  }

  @Test
  void heal_ofAFailedCompletionsEntryAfterTheRetryCommitted_keepsTheObjectsData() {
    failedCompletionLeavesAnEntry(true);
  }

  @Test
  void heal_ofAFailedCompletionsEntryWhileTheUploadWaits_keepsItsParts() {
    failedCompletionLeavesAnEntry(false);
  }
}
