package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A PUT whose body is still streaming when its bucket is deleted (through the same proxy) is
 * refused with {@code NoSuchBucket}, as S3 refuses it (s3-tests {@code
 * test_atomic_write_bucket_gone}), and leaves nothing that a bucket created later under the same
 * name would show. Before, the PUT answered 200 and its object came back in the new bucket.
 */
class PutRacingDeleteBucketTest {
  private final StoreFixture f = new StoreFixture("4x2", 64 << 10);

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void put_whenTheBucketIsDeletedWhileTheBodyStreams_isNoSuchBucketAndLeavesNothing()
      throws Exception {
    f.store.createBucket("bkt");
    byte[] data = SeededBytes.bytes(TestSeed.get(), 600_000); // striped, not inline
    PipedOutputStream sender = new PipedOutputStream();
    PipedInputStream body = new PipedInputStream(sender, 64 << 10);
    CompletableFuture<VersionMeta> put =
        CompletableFuture.supplyAsync(
            () -> f.store.put("bkt", "k", body, data.length, ObjectStore.PutOptions.defaults()));
    sender.write(data, 0, data.length / 2);
    f.store.deleteBucket("bkt"); // empty: nothing of the PUT is committed yet
    sender.write(data, data.length / 2, data.length - data.length / 2);
    sender.close();

    assertThatThrownBy(put::get)
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_BUCKET));
    f.store.createBucket("bkt");
    assertThatThrownBy(() -> f.store.head("bkt", "k"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_KEY));
  }
}
