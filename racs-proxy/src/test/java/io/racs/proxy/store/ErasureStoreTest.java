package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.TestSeed;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves the striping store's object semantics on a 4x2 array of memory repositories with small
 * stripes: byte-exact round trips at every stripe boundary, ranges, listing in S3 order with
 * prefixes, delimiters and pages, overwrite and delete as new versions with the old ones collected,
 * buckets, copy, and that a failed PUT changes nothing visible and leaves no shards.
 */
class ErasureStoreTest {
  private final StoreFixture f = new StoreFixture("4x2", 4096);

  @AfterEach
  void close() {
    f.close();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 3, 4095, 4096, 4097, 3 * 4096 + 5, 100_000})
  void putGet_atStripeBoundaries_roundTripsExactly(int size) {
    f.store.createBucket("bkt");
    byte[] data = StoreFixture.bytes(size, size);
    VersionMeta meta = f.put("bkt", "k", data);
    assertThat(meta.sizeBytes()).isEqualTo(size);
    assertThat(meta.etag()).hasSize(32);
    assertThat(f.get("bkt", "k")).isEqualTo(data);
    assertThat(f.store.head("bkt", "k").etag()).isEqualTo(meta.etag());
    // Every repository holds exactly one shard of the version: in its record when the object is
    // at most one block (inline, the default for up to 128 KiB), else in a shard object.
    boolean inline = size <= 4096;
    assertThat(meta.parts().getFirst().inline()).isEqualTo(inline);
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, "v/")).hasSize(inline ? 0 : 1);
      assertThat(f.names(slot, "i/")).hasSize(1);
    }
  }

  @Test
  void get_whenRandomRanges_returnsExactlyThoseBytes() {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    f.store.createBucket("bkt");
    byte[] data = StoreFixture.bytes(seed, 50_000);
    f.put("bkt", "k", data);
    for (int i = 0; i < 50; i++) {
      int offset = random.nextInt(data.length);
      int length = random.nextInt(data.length - offset) + 1;
      assertThat(f.get("bkt", "k", offset, length))
          .as("seed %d range %d+%d", seed, offset, length)
          .isEqualTo(Arrays.copyOfRange(data, offset, offset + length));
    }
    assertThat(f.get("bkt", "k", 49_999, -1)).hasSize(1);
    assertThatThrownBy(() -> f.get("bkt", "k", 50_000, 10))
        .isInstanceOf(StoreException.class)
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INVALID_RANGE);
  }

  @Test
  void put_ofAKeyThatIsAnotherKeysHashedName_leavesTheOtherKeyAsItWas() {
    // A key too long for entry names is stored under a prefix and its hash; a key may be exactly
    // that form (any character may be in a key). The two must not share their versions: a write of
    // one superseded, and collected, the other's.
    f.store.createBucket("bkt");
    String longKey = "l".repeat(1000);
    String shortKey = f.store.context().nameKey("bkt", longKey);
    assertThat(shortKey).hasSizeLessThan(longKey.length());
    byte[] longData = StoreFixture.bytes(31, 5_000);
    byte[] shortData = StoreFixture.bytes(32, 6_000);

    f.put("bkt", longKey, longData);
    f.put("bkt", shortKey, shortData); // waits for the collections it starts

    assertThat(f.get("bkt", longKey)).isEqualTo(longData);
    assertThat(f.get("bkt", shortKey)).isEqualTo(shortData);
    assertThat(f.store.head("bkt", longKey).key()).isEqualTo(longKey);
  }

  @Test
  void read_whenVersionSupersededAfterHead_neverReturnsTheNewerBytes() throws IOException {
    f.store.createBucket("bkt");
    byte[] first = StoreFixture.bytes(1, 10_000);
    f.put("bkt", "k", first);
    VersionMeta headed = f.store.head("bkt", "k");
    try (ObjectStore.ObjectReader reader = f.store.read(headed, 100, 50)) {
      assertThat(reader.meta().versionId()).isEqualTo(headed.versionId());
      assertThat(reader.body().readAllBytes()).isEqualTo(Arrays.copyOfRange(first, 100, 150));
    }
    f.put("bkt", "k", StoreFixture.bytes(2, 10_000)); // collects the first version's shards
    assertThatThrownBy(() -> f.store.read(headed, 0, -1).body().readAllBytes())
        .isInstanceOf(StoreException.class)
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
  }

  @Test
  void get_whenVersionReadBefore_takesItsRecordFromTheCacheNotTheRepositories() {
    f.store.createBucket("bkt");
    byte[] data = StoreFixture.bytes(3, 5_000);
    f.put("bkt", "k", data);
    assertThat(f.get("bkt", "k")).isEqualTo(data);
    for (FaultyRepository repository : f.faulty) {
      repository.failKeys(Pattern.compile("i/.*"), Kind.UNAVAILABLE);
    }
    // Listings still name the version; its record is immutable, so the copy read first serves.
    assertThat(f.get("bkt", "k")).isEqualTo(data);
    assertThatThrownBy(() -> f.reopen().head("bkt", "k"))
        .as("a store that never read the record must read it, and cannot: that is no 404")
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
  }

  @Test
  void get_whenKeyChangesBetweenReads_neverServesTheVersionReadEarlier() {
    // A whole GET starts reading the version it served last time while it lists; the listing
    // decides, so an overwrite, a delete and a re-creation in between are all seen.
    f.store.createBucket("bkt");
    byte[] first = StoreFixture.bytes(11, 9_000);
    f.put("bkt", "k", first);
    assertThat(f.get("bkt", "k")).isEqualTo(first);
    assertThat(f.get("bkt", "k")).isEqualTo(first);
    byte[] second = StoreFixture.bytes(12, 3_000);
    f.put("bkt", "k", second); // collects the first version's shards
    assertThat(f.get("bkt", "k")).isEqualTo(second);
    f.store.delete("bkt", "k");
    assertThatThrownBy(() -> f.get("bkt", "k"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_KEY);
    byte[] third = StoreFixture.bytes(13, 0);
    f.put("bkt", "k", third);
    assertThat(f.get("bkt", "k")).isEqualTo(third);
    assertThat(f.get("bkt", "k")).isEqualTo(third);
  }

  @Test
  void get_whenTheVersionServedBeforeWasCollected_countsNoDegradedRead() {
    // The GET starts reading the version it served last time; that read finds the collected
    // shards gone, and is dropped: it is not a degraded read of the current version.
    f.store.createBucket("bkt");
    f.put("bkt", "k", StoreFixture.bytes(21, 6_000));
    f.get("bkt", "k");
    byte[] second = StoreFixture.bytes(22, 6_000);
    f.put("bkt", "k", second);
    assertThat(f.get("bkt", "k")).isEqualTo(second);
    assertThat(f.store.stats().unavailablePieces()).isZero();
    assertThat(f.store.stats().degradedStripes()).isZero();
  }

  @Test
  void get_whenBucketOrKeyMissing_tellsWhichOne() {
    f.store.createBucket("bkt");
    assertThatThrownBy(() -> f.store.head("bkt", "nothing"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_KEY);
    assertThatThrownBy(() -> f.store.get("nobucket", "k", 0, -1, 0))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_BUCKET);
  }

  @Test
  void aWriteDuringTheCollectionOfItsKey_movesThatCollectionOn() throws Exception {
    f.store.createBucket("bkt");
    f.put("bkt", "k", StoreFixture.bytes(1, 10_000));
    FaultyRepository.Stall stall = f.faulty.get(0).stall(Operation.DELETE);
    f.store.put(
        "bkt",
        "k",
        StoreFixture.stream(StoreFixture.bytes(2, 10_000)),
        10_000,
        ObjectStore.PutOptions.defaults());
    stall.awaitStalled(); // the second write's collection of the first is under way, held
    byte[] third = StoreFixture.bytes(3, 10_000);
    VersionMeta newest =
        f.store.put(
            "bkt",
            "k",
            StoreFixture.stream(third),
            third.length,
            ObjectStore.PutOptions.defaults());
    stall.release();
    assertThat(f.get("bkt", "k")).isEqualTo(third);
    assertOnlyVersionLeft(newest.versionId());
  }

  /** Every slot holds one shard object and one index entry, the entry of {@code versionId}. */
  private void assertOnlyVersionLeft(String versionId) {
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, "v/")).as("superseded shards collected on slot %d", slot).hasSize(1);
      assertThat(f.names(slot, "i/bkt/"))
          .as("superseded entries collected on slot %d", slot)
          .singleElement()
          .asString()
          .endsWith(versionId);
    }
  }

  @Test
  void concurrentOverwrites_ofOneKey_leaveOnlyTheNewestVersion() throws Exception {
    f.store.createBucket("bkt");
    int threads = 4;
    int perThread = 15;
    Map<String, byte[]> written = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(
          pool.submit(
              () -> {
                for (int i = 0; i < perThread; i++) {
                  byte[] data = StoreFixture.bytes(thread * 1000L + i, 10_000 + i);
                  VersionMeta meta =
                      f.store.put(
                          "bkt",
                          "hot",
                          StoreFixture.stream(data),
                          data.length,
                          ObjectStore.PutOptions.defaults());
                  written.put(meta.versionId(), data);
                }
                return null;
              }));
    }
    try {
      for (Future<?> d : done) {
        d.get();
      }
    } finally {
      pool.shutdown();
    }
    String newest =
        written.keySet().stream()
            .filter(v -> written.keySet().stream().noneMatch(other -> VersionId.newer(other, v)))
            .findFirst()
            .orElseThrow();
    assertThat(f.get("bkt", "hot")).isEqualTo(written.get(newest));
    assertOnlyVersionLeft(newest);
  }

  @Test
  void overwriteAndDelete_createNewVersionsAndCollectOldOnes() {
    f.store.createBucket("bkt");
    f.put("bkt", "k", StoreFixture.bytes(1, 10_000));
    byte[] second = StoreFixture.bytes(2, 20_000);
    f.put("bkt", "k", second);
    assertThat(f.get("bkt", "k")).isEqualTo(second);
    assertThat(f.names(0, "v/")).as("old shards collected").hasSize(1);
    assertThat(f.names(0, "i/bkt/")).as("old index entry collected").hasSize(1);
    f.store.delete("bkt", "k");
    assertThatThrownBy(() -> f.store.head("bkt", "k"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_KEY);
    assertThat(f.names(0, "v/")).as("data of the deleted version collected").isEmpty();
    f.store.delete("bkt", "never-written"); // deleting a missing key succeeds
    assertThat(f.store.list("bkt", new ObjectStore.ListRequest("", null, "", 1000)).objects())
        .isEmpty();
  }

  @Test
  void list_withPrefixDelimiterAndPages_followsS3Order() {
    f.store.createBucket("bkt");
    List<String> keys =
        List.of("a", "a/b", "a/c/d", "a/c/e", "bkt", "b/", "ä", "z//", "a%20", "a\u0001", "😀");
    for (String key : keys) {
      f.put("bkt", key, key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    List<String> sorted = new ArrayList<>(keys);
    sorted.sort(io.racs.repos.Keys.ORDER);
    List<String> listed = new ArrayList<>();
    String after = "";
    while (true) {
      ObjectStore.ListResult page =
          f.store.list("bkt", new ObjectStore.ListRequest("", null, after, 3));
      page.objects().forEach(o -> listed.add(o.key()));
      if (!page.truncated()) {
        break;
      }
      after = page.nextStartAfter().orElseThrow();
    }
    assertThat(listed).containsExactlyElementsOf(sorted);

    ObjectStore.ListResult top =
        f.store.list("bkt", new ObjectStore.ListRequest("", "/", "", 1000));
    assertThat(top.commonPrefixes()).containsExactly("a/", "b/", "z/");
    assertThat(top.objects())
        .extracting(VersionMeta::key)
        .containsExactly("a", "a\u0001", "a%20", "bkt", "ä", "😀");

    ObjectStore.ListResult nested =
        f.store.list("bkt", new ObjectStore.ListRequest("a/", "/", "", 1000));
    assertThat(nested.objects()).extracting(VersionMeta::key).containsExactly("a/b");
    assertThat(nested.commonPrefixes()).containsExactly("a/c/");

    ObjectStore.ListResult paged = f.store.list("bkt", new ObjectStore.ListRequest("", "/", "", 2));
    assertThat(paged.truncated()).isTrue();
    ObjectStore.ListResult rest =
        f.store.list(
            "bkt",
            new ObjectStore.ListRequest("", "/", paged.nextStartAfter().orElseThrow(), 1000));
    List<String> all = new ArrayList<>();
    paged.objects().forEach(o -> all.add(o.key()));
    all.addAll(paged.commonPrefixes());
    rest.objects().forEach(o -> all.add(o.key()));
    all.addAll(rest.commonPrefixes());
    assertThat(all)
        .containsExactlyInAnyOrder("a", "a\u0001", "a%20", "bkt", "ä", "😀", "a/", "b/", "z/");
  }

  @Test
  void awkwardKeys_includingLongOnes_roundTripAndList() {
    f.store.createBucket("bkt");
    List<String> keys =
        List.of(
            "..",
            "../../etc/passwd",
            "//",
            "a/",
            "%2F",
            "\u0007bell",
            "x".repeat(1024),
            "é".repeat(512));
    for (String key : keys) {
      f.put("bkt", key, key.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    for (String key : keys) {
      assertThat(new String(f.get("bkt", key), java.nio.charset.StandardCharsets.UTF_8))
          .isEqualTo(key);
    }
    assertThat(f.store.list("bkt", new ObjectStore.ListRequest("", null, "", 1000)).objects())
        .hasSize(keys.size());
    assertThatThrownBy(() -> f.put("bkt", "x".repeat(1025), new byte[1]))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INVALID_ARGUMENT);
  }

  @Test
  void buckets_createDeleteListAndErrors() {
    f.store.createBucket("alpha");
    f.store.createBucket("beta");
    assertThatThrownBy(() -> f.store.createBucket("alpha"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.BUCKET_ALREADY_EXISTS);
    assertThat(f.store.listBuckets())
        .extracting(ObjectStore.BucketInfo::name)
        .containsExactly("alpha", "beta");
    f.put("alpha", "k", new byte[] {1});
    assertThatThrownBy(() -> f.store.deleteBucket("alpha"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.BUCKET_NOT_EMPTY);
    f.store.delete("alpha", "k");
    f.store.deleteBucket("alpha");
    assertThat(f.store.bucketExists("alpha")).isFalse();
    assertThat(f.store.listBuckets())
        .extracting(ObjectStore.BucketInfo::name)
        .containsExactly("beta");
    assertThatThrownBy(() -> f.put("alpha", "k", new byte[] {1}))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_BUCKET);
    assertThatThrownBy(() -> f.store.createBucket("Bad_Name"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INVALID_ARGUMENT);
    f.store.createBucket("alpha"); // re-created after deletion
    assertThat(f.store.bucketExists("alpha")).isTrue();
  }

  @Test
  void copy_isServerSideAndKeepsOrReplacesMetadata() {
    f.store.createBucket("bkt");
    byte[] data = StoreFixture.bytes(5, 30_000);
    f.store.put(
        "bkt",
        "src",
        StoreFixture.stream(data),
        data.length,
        new ObjectStore.PutOptions("text/plain", Map.of("color", "blue"), null, null));
    VersionMeta copied = f.store.copy("bkt", "src", "bkt", "dst", null);
    assertThat(f.get("bkt", "dst")).isEqualTo(data);
    assertThat(copied.contentType()).isEqualTo("text/plain");
    assertThat(copied.userMetadata()).containsEntry("color", "blue");
    VersionMeta replaced =
        f.store.copy(
            "bkt",
            "src",
            "bkt",
            "dst2",
            new ObjectStore.PutOptions("image/png", Map.of(), null, null));
    assertThat(replaced.contentType()).isEqualTo("image/png");
    assertThat(replaced.userMetadata()).isEmpty();
  }

  @Test
  void put_whenMorePlusOneRepositoriesDown_failsAndChangesNothing() {
    f.store.createBucket("bkt");
    byte[] first = StoreFixture.bytes(1, 9000);
    f.put("bkt", "k", first);
    f.faulty.get(1).outage(true);
    f.faulty.get(2).outage(true);
    f.faulty.get(4).outage(true);
    assertThatThrownBy(() -> f.put("bkt", "k", StoreFixture.bytes(2, 9000)))
        .isInstanceOf(StoreException.class)
        .satisfies(
            e -> {
              StoreException se = (StoreException) e;
              assertThat(se.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
              assertThat(se.failures())
                  .extracting(StoreException.ShardFailure::slot)
                  .contains(1, 2, 4);
            });
    for (int slot : new int[] {1, 2, 4}) {
      f.faulty.get(slot).outage(false);
    }
    assertThat(f.get("bkt", "k")).isEqualTo(first);
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, "v/")).as("slot %d keeps only the first version", slot).hasSize(1);
    }
  }

  @Test
  void put_whenBodyFailsHalfway_leavesNothingVisibleAndNoShards() {
    f.store.createBucket("bkt");
    InputStream failing =
        new InputStream() {
          private int served;

          @Override
          public int read() throws IOException {
            if (served++ > 20_000) {
              throw new IOException("client went away");
            }
            return 7;
          }
        };
    assertThatThrownBy(
            () -> f.store.put("bkt", "k", failing, 50_000, ObjectStore.PutOptions.defaults()))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INCOMPLETE_BODY);
    assertThatThrownBy(() -> f.store.head("bkt", "k"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_KEY);
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, "v/")).isEmpty();
    }
    assertThatThrownBy(
            () ->
                f.store.put(
                    "bkt",
                    "short",
                    StoreFixture.stream(new byte[10]),
                    11,
                    ObjectStore.PutOptions.defaults()))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INCOMPLETE_BODY);
  }

  @Test
  void put_whenUpToMRepositoriesDown_succeedsAndIsReadable() {
    f.store.createBucket("bkt");
    f.faulty.get(0).failKeys(java.util.regex.Pattern.compile("v/.*"), Kind.UNAVAILABLE);
    f.faulty.get(3).outage(true);
    byte[] data = StoreFixture.bytes(9, 40_000);
    f.put("bkt", "k", data);
    assertThat(f.store.stats().underReplicatedWrites()).isPositive();
    assertThat(f.get("bkt", "k")).isEqualTo(data);
  }
}
