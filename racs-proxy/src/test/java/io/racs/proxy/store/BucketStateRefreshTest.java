package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.bucket.BucketCatalog;
import io.racs.proxy.store.bucket.BucketDocuments;
import io.racs.proxy.store.bucket.RefreshAhead;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.Await;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a store caches of a bucket (that it exists, its versioning state, its default encryption) is
 * read again in the background once it is three quarters of its second old, so that a steady stream
 * of requests never waits for a listing of the bucket's records: over distant repositories that was
 * one request a second paying a round trip more. The cache's promise is unchanged: an answer is
 * never used past its second, and a re-read that finds the bucket changed through another proxy
 * drops the answer at once.
 *
 * <p>The caches age on a driven ticker ({@link StoreConfig#ticker()}), so nothing waits on real
 * time. A gate holds the listings of the bucket's records (or of its encryption documents): a
 * request that needs one waits, and one served from the cache does not.
 */
class BucketStateRefreshTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  // Far enough into a cached answer's life that a request re-reads it: 0.85 s.
  private static final long DUE =
      BucketCatalog.CACHE_NANOS - RefreshAhead.LEFT_NANOS + 100_000_000L;
  private static final String BUCKET_RECORDS = Layout.bucketPrefix() + "bkt" + Layout.SEPARATOR;
  private static final String ENCRYPTION_DOCUMENTS =
      BucketDocuments.Kind.ENCRYPTION.prefix() + "bkt" + Layout.SEPARATOR;
  private static final String ANNOUNCEMENTS =
      BucketDocuments.Kind.RETAGGED.prefix() + "bkt" + Layout.SEPARATOR;

  private final long seed = TestSeed.get();
  private final AtomicLong ticks = new AtomicLong(1_000_000_000_000L);
  private final List<MemoryRepository> memories = new ArrayList<>();
  private final FaultyRepository.Gate bucketListings =
      new FaultyRepository.Gate(Operation.LIST, BUCKET_RECORDS::equals);
  private final FaultyRepository.Gate encryptionListings =
      new FaultyRepository.Gate(Operation.LIST, ENCRYPTION_DOCUMENTS::equals);
  private final FaultyRepository.Gate announcementListings =
      new FaultyRepository.Gate(Operation.LIST, ANNOUNCEMENTS::equals);
  // Not armed: counts the listings of all the bucket's objects (a LIST of no prefix; a write's
  // ordering listing is of its key's prefix).
  private final FaultyRepository.Gate objectListings =
      new FaultyRepository.Gate(Operation.LIST, Layout.indexPrefix("bkt")::equals);
  private final List<ErasureStore> stores = new ArrayList<>();
  private ErasureStore store;

  @BeforeEach
  void openArray() {
    for (int i = 0; i < 6; i++) {
      memories.add(MemoryRepository.create("mem" + i));
    }
    store = open();
    store.createBucket("bkt");
  }

  @AfterEach
  void close() {
    bucketListings.open();
    encryptionListings.open();
    announcementListings.open();
    objectListings.open();
    stores.forEach(ErasureStore::close);
  }

  /** A proxy over the array, its caches aging on the test's ticker. */
  private ErasureStore open() {
    ErasureStore opened =
        TestArray.builder("4x2")
            .stallGrace(Duration.ofSeconds(30))
            .ticker(ticks::get)
            .over(memories)
            .gated(bucketListings)
            .gated(encryptionListings)
            .gated(announcementListings)
            .gated(objectListings)
            .open()
            .store();
    stores.add(opened);
    return opened;
  }

  private CompletableFuture<VersionMeta> putLater(String key) {
    byte[] data = StoreFixture.bytes(seed + key.hashCode(), 1000);
    return CompletableFuture.supplyAsync(
        () ->
            store.put(
                "bkt",
                key,
                new ByteArrayInputStream(data),
                data.length,
                ObjectStore.PutOptions.defaults()));
  }

  private static <T> T done(CompletableFuture<T> future) throws Exception {
    return future.get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  private void awaitNoReRead() throws InterruptedException {
    Await.until("the bucket's re-read ended", () -> !store.refreshingBucketState());
  }

  @Test
  void put_whenBucketStateIsNearItsEnd_answersFromTheCacheWhileItsReReadIsHeld() throws Exception {
    done(putLater("k0")); // reads the bucket's state: good for a second from here
    ticks.addAndGet(DUE);

    bucketListings.arm(6);
    VersionMeta written = done(putLater("k1"));
    // The PUT has answered, and a re-read of the bucket's records is held behind it.
    bucketListings.awaitHeld(6, WAIT);
    assertThat(written.key()).isEqualTo("k1");
    assertThat(store.refreshingBucketState()).isTrue();
    bucketListings.open();
    awaitNoReRead();

    // 1.7 s after the first read, past its second: the re-read at 0.85 s keeps the state fresh.
    ticks.addAndGet(DUE);
    bucketListings.rearm(6);
    assertThat(done(putLater("k2")).key()).isEqualTo("k2");
    bucketListings.awaitHeld(6, WAIT); // the next re-read, again behind the answer
    bucketListings.open();
    awaitNoReRead();
  }

  @Test
  void put_whenBucketStateIsPastItsLife_waitsForTheBucketsRecordsAsBefore() throws Exception {
    done(putLater("k0"));
    ticks.addAndGet(BucketCatalog.CACHE_NANOS + 1); // nothing used the state meanwhile

    bucketListings.arm(6);
    CompletableFuture<VersionMeta> put = putLater("k1");
    bucketListings.awaitHeld(6, WAIT);
    // The held listing is the PUT's own (no re-read runs): an expired state is never used.
    assertThat(store.refreshingBucketState()).isFalse();
    assertThat(put).isNotDone();
    bucketListings.open();
    assertThat(done(put).key()).isEqualTo("k1");
  }

  @Test
  void list_whenBucketDeletedThroughAnotherProxy_isRefusedOnceTheReReadSawIt() throws Exception {
    ObjectStore.ListRequest all = new ObjectStore.ListRequest("", null, "", 10);
    assertThat(store.list("bkt", all).objects()).isEmpty(); // the state is cached from here
    open().deleteBucket("bkt");
    ticks.addAndGet(DUE);

    // Within its second the cached answer still stands (as it always did without coordination),
    // and the re-read it starts finds the deletion.
    assertThat(store.list("bkt", all).objects()).isEmpty();
    awaitNoReRead();
    assertThatThrownBy(() -> store.list("bkt", all))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_BUCKET));
  }

  @Test
  void list_whenBucketStateIsPastItsLife_listsTheObjectsWhileTheBucketsRecordsAreRead()
      throws Exception {
    ObjectStore.ListRequest all = new ObjectStore.ListRequest("", null, "", 10);
    done(putLater("k0"));
    ticks.addAndGet(BucketCatalog.CACHE_NANOS + 1); // nothing used the state meanwhile

    bucketListings.arm(6);
    CompletableFuture<ObjectStore.ListResult> listed =
        CompletableFuture.supplyAsync(() -> store.list("bkt", all));
    bucketListings.awaitHeld(6, WAIT);
    // The bucket's records are held, and the objects are listed meanwhile: one round for both.
    objectListings.awaitCompleted(6, WAIT);
    assertThat(listed).isNotDone(); // an expired state is never used: the LIST waits for it
    bucketListings.open();
    assertThat(done(listed).objects()).extracting(VersionMeta::key).contains("k0");
  }

  @Test
  void list_whenBucketDeletedThroughAnotherProxyAndStateIsPastItsLife_isRefused() {
    ObjectStore.ListRequest all = new ObjectStore.ListRequest("", null, "", 10);
    assertThat(store.list("bkt", all).objects()).isEmpty();
    open().deleteBucket("bkt");
    ticks.addAndGet(BucketCatalog.CACHE_NANOS + 1);

    assertThatThrownBy(() -> store.list("bkt", all))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_BUCKET));
  }

  @Test
  void bucketEncryptionRecently_whenNearItsEnd_answersFromTheCacheAndTheReReadSeesAChange()
      throws Exception {
    store.putBucketEncryption("bkt", "<SSE-S3/>");
    assertThat(store.bucketEncryptionRecently("bkt")).contains("<SSE-S3/>");
    open().deleteBucketEncryption("bkt");
    ticks.addAndGet(DUE);

    encryptionListings.arm(6);
    Optional<String> cached =
        done(CompletableFuture.supplyAsync(() -> store.bucketEncryptionRecently("bkt")));
    encryptionListings.awaitHeld(6, WAIT);
    // Answered while the re-read of the documents was held: the cached answer, within its second.
    assertThat(cached).contains("<SSE-S3/>");
    encryptionListings.open();
    awaitNoReRead();
    assertThat(store.bucketEncryptionRecently("bkt")).isEmpty();
  }

  @Test
  void objectTaggings_whenNeverRetaggedIsNearItsEnd_answersFromTheCacheWhileItsReReadIsHeld()
      throws Exception {
    done(putLater("k0"));
    // Read as never retagged: no listing of the key's tag sets is needed while that is trusted.
    assertThat(store.objectTaggings("bkt", "k0")).isEmpty();
    ticks.addAndGet(DUE);

    announcementListings.arm(6);
    assertThat(done(CompletableFuture.supplyAsync(() -> store.objectTaggings("bkt", "k0"))))
        .isEmpty();
    announcementListings.awaitHeld(6, WAIT); // the re-read, held behind the answer
    assertThat(store.refreshingBucketState()).isTrue();
    announcementListings.open();
    awaitNoReRead();
  }
}
