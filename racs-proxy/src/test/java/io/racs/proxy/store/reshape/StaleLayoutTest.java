package io.racs.proxy.store.reshape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.ArrayRecordsUnlisted;
import io.racs.proxy.testing.ReshapeRecords;
import io.racs.proxy.testing.TestArray;
import io.racs.testkit.DrivenClock;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves the refusal of docs/reshape.md §6 on a driven ticker: once the listing of the array
 * records has failed on every repository for longer than the layout ttl (30 s), every new write
 * (PUT, CopyObject, a delete marker (DeleteObjects writes one per key the same way),
 * CreateMultipartUpload, UploadPart and CompleteMultipartUpload) is refused with {@code
 * LAYOUT_UNKNOWN} naming how long, while GET, HEAD and listings are still served; one successful
 * re-read makes writes work again. Before the ttl writes work, and an array with no reshape
 * recorded keeps writing for as long as the listing succeeds (it finds no record), however long
 * that is.
 */
class StaleLayoutTest {
  private final DrivenClock clock = new DrivenClock();
  private final AtomicBoolean listingsFail = new AtomicBoolean();
  private TestArray array;
  private ErasureStore store;

  @BeforeEach
  void open() {
    array =
        TestArray.builder("4x2")
            .clock(clock)
            .ticker(() -> clock.millis() * 1_000_000L)
            .wrap(rs -> ArrayRecordsUnlisted.wrap(rs, listingsFail))
            .open();
    store = array.store();
    store.createBucket("bkt");
  }

  @AfterEach
  void close() {
    array.close();
  }

  private VersionMeta put(String key, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return store.put(
        "bkt",
        key,
        new ByteArrayInputStream(bytes),
        bytes.length,
        ObjectStore.PutOptions.defaults());
  }

  private static void refused(ThrowingCallable write, long seconds) {
    assertThatThrownBy(write)
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.LAYOUT_UNKNOWN))
        .hasMessageStartingWith("the array's layout could not be read for " + seconds + " s");
  }

  @Test
  void writes_whenTheArrayRecordIsUnreadPastTheTtl_areRefusedAndReadsServed() {
    VersionMeta old = put("old", "before the outage");
    String upload = store.createMultipartUpload("bkt", "mp", ObjectStore.PutOptions.defaults());
    byte[] part = "a part".getBytes(StandardCharsets.UTF_8);
    String etag =
        store
            .uploadPart(
                "bkt", "mp", upload, 1, new ByteArrayInputStream(part), part.length, Map::of)
            .etag();
    listingsFail.set(true);
    assertThat(RecordedLayout.follow(store)).isFalse();
    clock.advance(Duration.ofSeconds(30));
    assertThat(put("within", "still trusted").versionId()).isNotEmpty(); // at the ttl, not past it

    clock.advance(Duration.ofSeconds(11));
    assertThat(RecordedLayout.follow(store)).isFalse();

    refused(() -> put("new", "refused"), 41);
    refused(() -> store.copy("bkt", "old", "bkt", "copied", null), 41);
    refused(() -> store.delete("bkt", "old"), 41);
    refused(() -> store.createMultipartUpload("bkt", "mp2", ObjectStore.PutOptions.defaults()), 41);
    refused(
        () ->
            store.uploadPart(
                "bkt", "mp", upload, 2, new ByteArrayInputStream(part), part.length, Map::of),
        41);
    refused(
        () ->
            store.completeMultipartUpload(
                "bkt",
                "mp",
                upload,
                List.of(new ObjectStore.CompletedPart(1, etag)),
                chosen -> Map.of()),
        41);
    // Reads need no layout: each version's record names its own.
    assertThat(store.head("bkt", "old").versionId()).isEqualTo(old.versionId());
    assertThat(ReshapeArray.read(store, store.head("bkt", "old")))
        .isEqualTo("before the outage".getBytes(StandardCharsets.UTF_8));
    assertThat(store.list("bkt", new ObjectStore.ListRequest("", null, null, 100)).objects())
        .extracting(VersionMeta::key)
        .containsExactly("old", "within");

    listingsFail.set(false);
    assertThat(RecordedLayout.follow(store)).isTrue();

    assertThat(put("new", "accepted again").key()).isEqualTo("new");
    assertThat(store.delete("bkt", "old")).isPresent();
    assertThat(
            store
                .completeMultipartUpload(
                    "bkt",
                    "mp",
                    upload,
                    List.of(new ObjectStore.CompletedPart(1, etag)),
                    chosen -> Map.of())
                .key())
        .isEqualTo("mp");
  }

  @Test
  void writes_whenNoReshapeIsRecordedAndTheListingSucceeds_areNeverRefused() {
    for (int i = 0; i < 5; i++) {
      clock.advance(Duration.ofMinutes(10));
      assertThat(RecordedLayout.follow(store)).isTrue(); // reads "no record": a successful read
      assertThat(put("k" + i, "no reshape ever").key()).isEqualTo("k" + i);
    }
    assertThat(new ArrayRecords(store).current()).isEmpty();
  }

  @Test
  void writes_whenAFailedReshapeNamesATargetThatDoesNotParse_areNeverRefused() {
    // What the mover records when it fails on a target it cannot hold (MoveFailures).
    ReshapeRecords.record(
        store, ArrayRecord.State.FAILED, "4xx2", "the target geometry 4xx2 is not one", null, 50);
    for (int i = 0; i < 3; i++) {
      clock.advance(Duration.ofMinutes(1));
      assertThat(RecordedLayout.follow(store)).as("re-read %d", i).isTrue();
      assertThat(put("f" + i, "old layout").key()).isEqualTo("f" + i);
    }
  }
}
