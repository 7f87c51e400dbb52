package io.racs.proxy.store.heal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.Repository;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.DrivenClock;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves the collection of abandoned multipart uploads, on a store whose clock the test drives: an
 * upload idle for longer than the age is given up (new requests for it answer NoSuchUpload) and its
 * parts are deleted once the GC grace has passed since; an upload whose newest part is younger than
 * the age is kept however old its start; and a completion that read the upload just before it was
 * given up commits an object that stays whole.
 */
class AbandonedUploadsTest {
  private static final Duration AGE = AbandonedUploads.DEFAULT_AGE;
  private static final Duration GRACE = Duration.ofHours(1);
  private static final String BUCKET = "bkt";

  private final DrivenClock clock = new DrivenClock();
  private List<Repository> repositories;
  // Holds the commit (the index entry writes) of a completion, to race it with the collection.
  private final FaultyRepository.Gate commits =
      new FaultyRepository.Gate(Operation.PUT, key -> key.startsWith("i/"));
  private ErasureStore store;
  private Random random;

  @BeforeEach
  void open() {
    random = new Random(TestSeed.get());
    TestArray array =
        TestArray.builder("4x2")
            .blockBytes(4096)
            .minPartBytes(1)
            .gcGrace(GRACE)
            .clock(clock)
            .gated(commits)
            .open();
    repositories = array.base();
    store = array.store();
    store.createBucket(BUCKET);
  }

  @AfterEach
  void close() {
    commits.open();
    store.close();
  }

  private AbandonedUploads.Report run() {
    return AbandonedUploads.run(store, AGE, () -> false);
  }

  private byte[] data(int length) {
    return SeededBytes.bytes(random.nextLong(), length);
  }

  private ObjectStore.PartInfo part(String key, String upload, int number, byte[] data) {
    return store.uploadPart(
        BUCKET, key, upload, number, new ByteArrayInputStream(data), data.length, Map::of);
  }

  /** The names under {@code prefix} on every repository. */
  private List<String> stored(String prefix) {
    List<String> names = new ArrayList<>();
    for (Repository r : repositories) {
      RepositoryArray.listAll(r, prefix).forEach(info -> names.add(info.key()));
    }
    return names;
  }

  private static void assertNoSuchUpload(Runnable call) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_UPLOAD));
  }

  @Test
  void run_whenAnUploadIdledPastTheAge_givesItUpThenDeletesItsPartsAfterTheGrace() {
    String upload = store.createMultipartUpload(BUCKET, "k", ObjectStore.PutOptions.defaults());
    part("k", upload, 1, data(10_000));
    clock.advance(AGE);

    assertThat(run().abandoned()).isEmpty();
    assertThat(store.listMultipartUploads(BUCKET, "")).hasSize(1);

    clock.advance(Duration.ofMillis(1));
    assertThat(run().abandoned()).containsExactly(BUCKET + "/k " + upload);
    assertThat(store.listMultipartUploads(BUCKET, "")).isEmpty();
    assertNoSuchUpload(() -> store.listParts(BUCKET, "k", upload));
    assertNoSuchUpload(() -> part("k", upload, 2, data(10)));
    // The parts wait out the grace: a completion that read the upload before may still use them.
    assertThat(stored("v/")).isNotEmpty();

    clock.advance(GRACE);
    assertThat(run().collected()).isEmpty();
    clock.advance(Duration.ofMillis(1));
    assertThat(run().collected()).containsExactly(BUCKET + "/k " + upload);
    assertThat(stored("v/")).isEmpty();
    assertThat(stored("u/")).isEmpty();
  }

  @Test
  void run_whenHealCopiedAnAbandonedUploadsRecordBack_theUploadStaysGoneAndIsCollected()
      throws Exception {
    String upload = store.createMultipartUpload(BUCKET, "k", ObjectStore.PutOptions.defaults());
    part("k", upload, 1, data(10_000));
    // The upload's record as a repository that is out during the abandonment keeps it.
    String record =
        stored("u/").stream()
            .filter(n -> !Layout.isPartRecord(n) && !Layout.isRemovalRecord(n))
            .findFirst()
            .orElseThrow();
    byte[] bytes;
    try (var in = repositories.get(0).get(record, 0, -1)) {
      bytes = in.readAllBytes();
    }
    clock.advance(AGE.plusMillis(1));
    assertThat(run().abandoned()).containsExactly(BUCKET + "/k " + upload);
    // That repository comes back, and heal copies the record to every repository.
    for (Repository r : repositories) {
      r.put(record, new ByteArrayInputStream(bytes), bytes.length);
    }
    // Found in review: the upload was listed again and took parts.
    assertThat(store.listMultipartUploads(BUCKET, "")).isEmpty();
    assertNoSuchUpload(() -> store.listParts(BUCKET, "k", upload));
    assertNoSuchUpload(() -> part("k", upload, 2, data(10)));
    clock.advance(GRACE.plusMillis(1));
    assertThat(run().collected()).containsExactly(BUCKET + "/k " + upload);
    assertThat(stored("u/")).isEmpty();
  }

  @Test
  void run_whenAPartWasUploadedWithinTheAge_keepsTheUploadHoweverOldItsStart() throws Exception {
    String upload = store.createMultipartUpload(BUCKET, "k", ObjectStore.PutOptions.defaults());
    ObjectStore.PartInfo first = part("k", upload, 1, data(5000));
    clock.advance(AGE.minusDays(1));
    byte[] last = data(3000);
    ObjectStore.PartInfo second = part("k", upload, 2, last);
    clock.advance(Duration.ofDays(3)); // the upload is 9 days old, its newest part 3 days

    AbandonedUploads.Report report = run();

    assertThat(report.abandoned()).isEmpty();
    assertThat(report.failures()).isEmpty();
    VersionMeta done =
        store.completeMultipartUpload(
            BUCKET,
            "k",
            upload,
            List.of(
                new ObjectStore.CompletedPart(1, first.etag()),
                new ObjectStore.CompletedPart(2, second.etag())),
            parts -> Map.of());
    assertThat(done.sizeBytes()).isEqualTo(8000);
  }

  @Test
  void run_whileACompletionThatReadTheUploadCommits_leavesTheObjectWhole() throws Exception {
    String upload = store.createMultipartUpload(BUCKET, "k", ObjectStore.PutOptions.defaults());
    byte[] data = data(9000);
    ObjectStore.PartInfo only = part("k", upload, 1, data);
    clock.advance(AGE.plusDays(1));
    CompletableFuture<VersionMeta> completion = completionHeldAtItsCommit(upload, only);

    assertThat(run().abandoned()).containsExactly(BUCKET + "/k " + upload);
    commits.open();
    completion.get();
    clock.advance(GRACE.plusMinutes(1));
    run();

    assertThat(read("k")).isEqualTo(data);
    assertThat(stored("u/")).isEmpty();
  }

  @Test
  void abandonMultipartUpload_whileACompletionThatReadTheUploadCommits_leavesTheObjectWhole()
      throws Exception {
    String upload = store.createMultipartUpload(BUCKET, "k", ObjectStore.PutOptions.defaults());
    byte[] data = data(9000);
    ObjectStore.PartInfo only = part("k", upload, 1, data);
    String other = store.createMultipartUpload(BUCKET, "other", ObjectStore.PutOptions.defaults());
    part("other", other, 1, data(100));
    CompletableFuture<VersionMeta> completion = completionHeldAtItsCommit(upload, only);

    store.abandonMultipartUpload(BUCKET, "k", upload);
    store.abandonMultipartUpload(BUCKET, "other", other);
    commits.open();
    completion.get();
    assertNoSuchUpload(() -> store.listParts(BUCKET, "other", other));
    clock.advance(GRACE.plusMinutes(1));
    AbandonedUploads.Report report = AbandonedUploads.run(store, Duration.ZERO, () -> false);

    assertThat(read("k")).isEqualTo(data);
    assertThat(report.abandoned()).isEmpty();
    assertThat(report.collected())
        .containsExactlyInAnyOrder(BUCKET + "/k " + upload, BUCKET + "/other " + other);
    assertThat(stored("u/")).isEmpty();
  }

  /**
   * Completes {@code upload} of key {@code k} from its one part {@code only} on another thread, and
   * returns once it has read the upload and holds at its commit (every index entry write), so that
   * what the test does next happens between the two.
   */
  private CompletableFuture<VersionMeta> completionHeldAtItsCommit(
      String upload, ObjectStore.PartInfo only) throws InterruptedException {
    commits.arm(6);
    CompletableFuture<VersionMeta> completion =
        CompletableFuture.supplyAsync(
            () ->
                store.completeMultipartUpload(
                    BUCKET,
                    "k",
                    upload,
                    List.of(new ObjectStore.CompletedPart(1, only.etag())),
                    parts -> Map.of()));
    commits.awaitHeld(6, Duration.ofSeconds(30));
    return completion;
  }

  private byte[] read(String key) {
    try (ObjectStore.ObjectReader reader = store.get(BUCKET, key, 0, -1, 0)) {
      return reader.body().readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void abortMultipartUpload_whileACompletionThatReadTheUploadCommits_leavesTheObjectWhole()
      throws Exception {
    String upload = store.createMultipartUpload(BUCKET, "k", ObjectStore.PutOptions.defaults());
    byte[] data = data(9000);
    ObjectStore.PartInfo only = part("k", upload, 1, data);
    CompletableFuture<VersionMeta> completion = completionHeldAtItsCommit(upload, only);
    store.abortMultipartUpload(BUCKET, "k", upload);
    commits.open();
    completion.get();

    // Found in review: the abort deleted the parts' data at once, and the completion, answered
    // 200, committed an object made of nothing.
    assertThat(read("k")).isEqualTo(data);
    clock.advance(GRACE.plusMinutes(1));
    assertThat(run().collected()).containsExactly(BUCKET + "/k " + upload);
    assertThat(read("k")).isEqualTo(data);
    assertThat(stored("u/")).isEmpty();
  }
}
