package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.decorator.FaultyRepository;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that a bucket's CORS configuration is a quorum record like a bucket record: it survives
 * {@code m} repositories out, a write that reaches fewer than a write quorum fails and changes
 * nothing, a read resting on fewer than a read quorum is {@code INSUFFICIENT_SHARDS} (never "no
 * configuration"), and a bucket created again does not inherit the configuration of the one deleted
 * before it.
 */
class BucketCorsTest {
  private final StoreFixture f = new StoreFixture("4x2", 4096);

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void bucketCors_whenPutDeletedAndMRepositoriesDown_readsTheNewestRecord() {
    f.store.createBucket("bkt");
    assertThat(f.store.bucketCors("bkt")).isEmpty();
    f.store.putBucketCors("bkt", "<first/>");
    f.store.putBucketCors("bkt", "<second/>");
    f.faulty.get(0).outage(true);
    f.faulty.get(5).outage(true);
    assertThat(f.reopen().bucketCors("bkt")).hasValue("<second/>");
    f.store.deleteBucketCors("bkt");
    assertThat(f.store.bucketCors("bkt")).isEmpty();
  }

  @Test
  void putBucketCors_whenFewerThanWriteQuorum_failsAndKeepsTheOldConfiguration() {
    f.store.createBucket("bkt");
    f.store.putBucketCors("bkt", "<old/>");
    for (int slot : new int[] {1, 2, 4}) {
      f.faulty.get(slot).failKeys(Pattern.compile("c/.*"), Kind.UNAVAILABLE);
    }
    assertThatThrownBy(() -> f.store.putBucketCors("bkt", "<new/>"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
    f.faulty.forEach(FaultyRepository::clearFaults);
    assertThat(f.reopen().bucketCors("bkt")).hasValue("<old/>");
  }

  @Test
  void bucketCors_whenFewerThanReadQuorumAnswer_isInsufficientShards() {
    f.store.createBucket("bkt");
    f.store.putBucketCors("bkt", "<rules/>");
    for (int slot = 0; slot < 4; slot++) { // 2 answer; a read quorum of 4x2 is 3
      f.faulty.get(slot).outage(true);
    }
    assertThatThrownBy(() -> f.store.bucketCors("bkt"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
  }

  @Test
  void bucketCors_whenBucketMissingOrCreatedAgain_isNoSuchBucketThenEmpty() {
    assertThatThrownBy(() -> f.store.bucketCors("none"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_BUCKET);
    f.store.createBucket("bkt");
    f.store.putBucketCors("bkt", "<rules/>");
    f.store.deleteBucket("bkt");
    assertThatThrownBy(() -> f.store.putBucketCors("bkt", "<rules/>"))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_BUCKET);
    f.store.createBucket("bkt");
    assertThat(f.store.bucketCors("bkt")).isEmpty();
  }

  @Test
  void bucketCors_whenBucketDeletedAndCreatedAgainWithinOneMillisecond_isEmpty() {
    // The clock stands still: deletion and re-creation share their millisecond, which a fast
    // machine does now and then (a clean-clone CI run failed the test above so).
    try (StoreFixture still =
        new StoreFixture(
            TestArray.builder("4x2")
                .clock(
                    java.time.Clock.fixed(
                        java.time.Instant.parse("2026-11-25T00:00:00Z"),
                        java.time.ZoneOffset.UTC)))) {
      still.store.createBucket("bkt");
      still.store.putBucketCors("bkt", "<rules/>");
      still.store.deleteBucket("bkt");
      still.store.createBucket("bkt");
      assertThat(still.store.bucketCors("bkt")).isEmpty();
    }
  }
}
