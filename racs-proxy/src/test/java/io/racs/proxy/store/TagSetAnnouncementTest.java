package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.object.ObjectTags;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.Repository;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.CountingRepository;
import io.racs.testkit.CountingRepository.Call;
import io.racs.testkit.CountingRepository.Ledger;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every GET and HEAD through the S3 front end asks for the key's tag sets ({@code
 * x-amz-tagging-count}). They were a listing on every repository each time, as many calls as
 * finding the version; now a bucket in which no tag set was ever set after a write lists none
 * ({@link ObjectTags}), and a tag set acknowledged through one proxy is still counted by the very
 * next read through another, which had just read "never retagged".
 */
class TagSetAnnouncementTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final List<Repository> memories = new ArrayList<>();
  private final Ledger ledger = new Ledger(6);
  private final List<ErasureStore> stores = new ArrayList<>();

  @BeforeEach
  void openArray() {
    for (int i = 0; i < 6; i++) {
      memories.add(MemoryRepository.create("mem" + i));
    }
  }

  @AfterEach
  void close() {
    stores.forEach(ErasureStore::close);
  }

  /** A proxy over the shared repositories. */
  private ErasureStore open() {
    ErasureStore store = TestArray.builder("4x2").over(memories).counting(ledger).open().store();
    stores.add(store);
    return store;
  }

  private static VersionMeta put(ErasureStore store, String key) {
    byte[] data = key.getBytes(StandardCharsets.UTF_8);
    return store.put(
        "bkt", key, new ByteArrayInputStream(data), data.length, ObjectStore.PutOptions.defaults());
  }

  /** The listings of tag-set records since the last reset. */
  private List<Call> tagSetListings() {
    return ledger.calls().stream()
        .filter(c -> c.kind() == CountingRepository.Kind.LIST)
        .filter(c -> c.key().startsWith(ObjectTags.bucketPrefix("bkt")))
        .toList();
  }

  @Test
  void objectTaggings_whenBucketNeverRetagged_listsNoTagSets() throws Exception {
    ErasureStore writer = open();
    writer.createBucket("bkt");
    put(writer, "k");
    ErasureStore reader = open();
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();

    assertThat(reader.objectTaggings("bkt", "k")).isEmpty();
    assertThat(reader.objectTaggings("bkt", "k")).isEmpty();
    assertThat(writer.objectTaggings("bkt", "k")).isEmpty();

    // Before: 18 listings of t/bkt/k (6 per call).
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    assertThat(tagSetListings()).isEmpty();
  }

  @Test
  void objectTaggings_whenTaggedThroughAnotherProxyJustNow_countsItOnTheNextRead()
      throws Exception {
    ErasureStore tagger = open();
    tagger.createBucket("bkt");
    VersionMeta version = put(tagger, "k");
    ErasureStore reader = open();
    // The reader has just read "never retagged", and trusts that for a second.
    assertThat(reader.objectTaggings("bkt", "k")).isEmpty();

    long started = System.nanoTime();
    tagger.putObjectTagging(version, Map.of("colour", "blue"));
    long tookNanos = System.nanoTime() - started;

    // Without the announcement's wait this was empty: the reader's "never" was still fresh.
    assertThat(reader.objectTaggings("bkt", "k"))
        .containsExactly(
            new ObjectStore.ObjectTagging(version.versionId(), Map.of("colour", "blue")));
    assertThat(tookNanos).isGreaterThanOrEqualTo(ObjectTags.FENCE_NANOS);
    ledger.reset();
    assertThat(open().objectTaggings("bkt", "k")).hasSize(1);
    assertThat(tagSetListings()).hasSize(6);
  }

  @Test
  void putObjectTagging_whenBucketAlreadyAnnounced_waitsOncePerProxyOnly() throws Exception {
    ErasureStore first = open();
    first.createBucket("bkt");
    VersionMeta one = put(first, "one");
    VersionMeta two = put(first, "two");
    first.putObjectTagging(one, Map.of("a", "1"));

    // A second proxy finds the announcement, which may have been written just now: it waits it out
    // once, and not again.
    ErasureStore second = open();
    long started = System.nanoTime();
    second.putObjectTagging(two, Map.of("b", "2"));
    assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(ObjectTags.FENCE_NANOS);
    long again = System.nanoTime();
    second.putObjectTagging(one, Map.of("c", "3"));
    assertThat(System.nanoTime() - again).isLessThan(ObjectTags.FENCE_NANOS);

    assertThat(first.objectTaggings("bkt", "one"))
        .containsExactly(new ObjectStore.ObjectTagging(one.versionId(), Map.of("c", "3")));
    assertThat(first.objectTaggings("bkt", "two"))
        .containsExactly(new ObjectStore.ObjectTagging(two.versionId(), Map.of("b", "2")));
  }

  @Test
  void putObjectTagging_whenBucketCreatedAgain_announcesItAnew() throws Exception {
    ErasureStore tagger = open();
    tagger.createBucket("bkt");
    VersionMeta old = put(tagger, "k");
    tagger.putObjectTagging(old, Map.of("a", "1"));
    tagger.delete("bkt", "k");
    tagger.removeVersion("bkt", "k", old.versionId());
    tagger.deleteBucket("bkt");
    tagger.createBucket("bkt");
    VersionMeta version = put(tagger, "k");
    ErasureStore reader = open();
    assertThat(reader.objectTaggings("bkt", "k")).isEmpty();

    long started = System.nanoTime();
    tagger.putObjectTagging(version, Map.of("b", "2"));
    assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(ObjectTags.FENCE_NANOS);
    // The old bucket's tag set may still be listed: it names a version that no longer exists.
    assertThat(reader.objectTaggings("bkt", "k"))
        .filteredOn(t -> t.versionId().equals(version.versionId()))
        .containsExactly(new ObjectStore.ObjectTagging(version.versionId(), Map.of("b", "2")));
  }
}
