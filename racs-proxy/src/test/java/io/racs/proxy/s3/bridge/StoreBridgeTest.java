package io.racs.proxy.s3.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.ObjectStore;
import io.racs.proxy.store.StoreConfig;
import io.racs.proxy.store.StoreException;
import io.racs.repos.Repository;
import io.racs.repos.memory.MemoryRepository;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves that the bridge is the one translation from a failure to the S3 error a client receives:
 * S3 errors pass through, every store code maps to its S3 code (with the store's message only where
 * it names nothing internal), overload is a retryable 503, and anything else hides behind {@code
 * InternalError}; and that a request body the S3 layer refuses while the store reads it keeps its
 * S3 error, small (inline) or striped, whole object or part, with nothing stored.
 */
class StoreBridgeTest {
  private static final int MIB = 1 << 20;
  private static final String BUCKET = "bucket";

  private final ErasureStore store = openStore();
  private final StoreBridge bridge = new StoreBridge(store);

  private static ErasureStore openStore() {
    Geometry geometry = Geometry.parse("4x2");
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < geometry.totalShards(); i++) {
      repositories.add(MemoryRepository.create("mem" + i));
    }
    ErasureStore store = ErasureStore.open(StoreConfig.builder(geometry).build(), repositories);
    store.createBucket(BUCKET);
    return store;
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** A body that yields {@code goodBytes} zero bytes, then fails with {@code failure}. */
  private static InputStream failingAfter(long goodBytes, IOException failure) {
    return new InputStream() {
      private long left = goodBytes;

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : 0;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (left == 0) {
          throw failure;
        }
        int n = (int) Math.min(len, left);
        left -= n;
        return n;
      }
    };
  }

  private static IOException refused(S3ErrorCode code) {
    S3Exception refusal = S3Exception.of(code, "refused by the S3 layer");
    return new IOException(refusal.getMessage(), refusal);
  }

  @ParameterizedTest(name = "{0} bytes before the refusal")
  @ValueSource(longs = {1024, 3L * MIB})
  void put_whenBodyRefusedMidway_answersTheBodysErrorAndStoresNothing(long goodBytes) {
    S3Exception e =
        catchThrowableOfType(
            S3Exception.class,
            () ->
                bridge.put(
                    BUCKET,
                    "k",
                    failingAfter(goodBytes, refused(S3ErrorCode.BAD_DIGEST)),
                    goodBytes * 2,
                    ObjectStore.PutOptions.defaults(),
                    ObjectStore.WriteCondition.NONE));
    assertThat(e.code()).isEqualTo(S3ErrorCode.BAD_DIGEST);
    assertThat(e.getMessage()).isEqualTo("refused by the S3 layer");
    assertThat(e.resource()).isEqualTo("/bucket/k");
    assertThat(catchThrowableOfType(S3Exception.class, () -> bridge.head(BUCKET, "k")).code())
        .isEqualTo(S3ErrorCode.NO_SUCH_KEY);
  }

  @Test
  void uploadPart_whenBodyRefusedMidway_answersTheBodysError() {
    String uploadId = bridge.createMultipartUpload(BUCKET, "k", ObjectStore.PutOptions.defaults());
    S3Exception e =
        catchThrowableOfType(
            S3Exception.class,
            () ->
                bridge.uploadPart(
                    BUCKET,
                    "k",
                    uploadId,
                    1,
                    failingAfter(2L * MIB, refused(S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH)),
                    -1,
                    Map::of));
    assertThat(e.code()).isEqualTo(S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH);
    assertThat(bridge.listParts(BUCKET, "k", uploadId)).isEmpty();
  }

  @Test
  void put_whenBodyFailsWithoutAnS3Error_answersTheStoresIncompleteBody() {
    S3Exception e =
        catchThrowableOfType(
            S3Exception.class,
            () ->
                bridge.put(
                    BUCKET,
                    "k",
                    failingAfter(2L * MIB, new IOException("connection reset")),
                    4L * MIB,
                    ObjectStore.PutOptions.defaults(),
                    ObjectStore.WriteCondition.NONE));
    assertThat(e.code()).isEqualTo(S3ErrorCode.INCOMPLETE_BODY);
    assertThat(e.resource()).isEqualTo("/bucket/k");
  }

  @Test
  void translate_whenStoreExceptionCarriesAnS3Error_answersByTheStoreCode() {
    // Body refusals are recognised by the bridge on the way back, not dug out of the store's
    // exceptions: a store failure is translated by its own code.
    IOException body = refused(S3ErrorCode.BAD_DIGEST);
    S3Exception e =
        StoreBridge.translate(
            new StoreException(StoreException.Code.INCOMPLETE_BODY, "request body failed", body),
            "/b/k");
    assertThat(e.code()).isEqualTo(S3ErrorCode.INCOMPLETE_BODY);
  }

  @Test
  void translate_whenFailures_mapsThemOnce() {
    S3Exception s3 = S3Exception.of(S3ErrorCode.NO_SUCH_BUCKET);
    assertThat(StoreBridge.translate(new CompletionException(s3))).isSameAs(s3);
    assertThat(StoreBridge.translate(new IllegalStateException("bug")).code())
        .isEqualTo(S3ErrorCode.INTERNAL_ERROR);
    assertThat(StoreBridge.translate(new IllegalStateException("bug")).getMessage())
        .doesNotContain("bug");
    assertThat(StoreBridge.translate(new RejectedExecutionException()).code())
        .isEqualTo(S3ErrorCode.SLOW_DOWN);
    assertThat(StoreBridge.translate(new RuntimeException(), "/b").resource()).isEqualTo("/b");
  }

  @Test
  void translate_whenStoreFails_answersTheS3CodeAndNamesTheResource() {
    S3Exception missing =
        StoreBridge.translate(
            new StoreException(StoreException.Code.NO_SUCH_KEY, "no key k"), "/b/k");
    assertThat(missing.code()).isEqualTo(S3ErrorCode.NO_SUCH_KEY);
    assertThat(missing.getMessage()).isEqualTo("no key k");
    assertThat(missing.resource()).isEqualTo("/b/k");
    assertThat(
            StoreBridge.translate(
                    new StoreException(StoreException.Code.BUCKET_ALREADY_EXISTS, "exists"), "/b")
                .code())
        .isEqualTo(S3ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU);
  }

  @Test
  void translate_whenQuorumLostOrFull_hidesTheRepositoriesBehindTheDefaultMessage() {
    StoreException lost =
        new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            "2 of 6 answered",
            List.of(new StoreException.ShardFailure(3, "secret-repo", "refused")),
            null);
    S3Exception unavailable = StoreBridge.translate(lost, "/b/k");
    assertThat(unavailable.code()).isEqualTo(S3ErrorCode.SERVICE_UNAVAILABLE);
    assertThat(unavailable.httpStatus()).isEqualTo(503);
    assertThat(unavailable.getMessage())
        .isEqualTo(S3ErrorCode.SERVICE_UNAVAILABLE.defaultMessage());
    S3Exception full =
        StoreBridge.translate(
            new StoreException(StoreException.Code.INSUFFICIENT_STORAGE, "slot 2 full"), "/b/k");
    assertThat(full.code()).isEqualTo(S3ErrorCode.X_MINIO_STORAGE_FULL);
    assertThat(full.getMessage()).doesNotContain("slot");
  }
}
