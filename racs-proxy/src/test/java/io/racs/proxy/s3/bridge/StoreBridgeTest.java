package io.racs.proxy.s3.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.store.StoreException;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Proves that the bridge is the one translation from a failure to the S3 error a client receives:
 * S3 errors pass through, every store code maps to its S3 code (with the store's message only where
 * it names nothing internal), overload is a retryable 503, and anything else hides behind {@code
 * InternalError}.
 */
class StoreBridgeTest {
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
