package io.racs.proxy.s3.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.store.api.StoreException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Proves that {@link StoreErrors} is the one translation from a failure to the S3 error a client
 * receives: S3 errors pass through, every store code maps to its S3 code (with the store's message
 * only where it names nothing internal), overload is a retryable 503, and anything else hides
 * behind {@code InternalError}.
 */
class StoreErrorsTest {
  private static IOException refused(S3ErrorCode code) {
    S3Exception refusal = S3Exception.of(code, "refused by the S3 layer");
    return new IOException(refusal.getMessage(), refusal);
  }

  @Test
  void translate_whenStoreExceptionCarriesAnS3Error_answersByTheStoreCode() {
    // Body refusals are recognised by the bridge on the way back (StoreBridgeTest), not dug out of
    // the store's exceptions: a store failure is translated by its own code.
    IOException body = refused(S3ErrorCode.BAD_DIGEST);
    S3Exception e =
        StoreErrors.translate(
            new StoreException(StoreException.Code.INCOMPLETE_BODY, "request body failed", body),
            "/b/k");
    assertThat(e.code()).isEqualTo(S3ErrorCode.INCOMPLETE_BODY);
  }

  @Test
  void translate_whenFailures_mapsThemOnce() {
    S3Exception s3 = S3Exception.of(S3ErrorCode.NO_SUCH_BUCKET);
    assertThat(StoreErrors.translate(new CompletionException(s3))).isSameAs(s3);
    assertThat(StoreErrors.translate(new IllegalStateException("bug")).code())
        .isEqualTo(S3ErrorCode.INTERNAL_ERROR);
    assertThat(StoreErrors.translate(new IllegalStateException("bug")).getMessage())
        .doesNotContain("bug");
    assertThat(StoreErrors.translate(new RejectedExecutionException()).code())
        .isEqualTo(S3ErrorCode.SLOW_DOWN);
    assertThat(StoreErrors.translate(new RuntimeException(), "/b").resource()).isEqualTo("/b");
  }

  @Test
  void translate_whenStoreFails_answersTheS3CodeAndNamesTheResource() {
    S3Exception missing =
        StoreErrors.translate(
            new StoreException(StoreException.Code.NO_SUCH_KEY, "no key k"), "/b/k");
    assertThat(missing.code()).isEqualTo(S3ErrorCode.NO_SUCH_KEY);
    assertThat(missing.getMessage()).isEqualTo("no key k");
    assertThat(missing.resource()).isEqualTo("/b/k");
    assertThat(
            StoreErrors.translate(
                    new StoreException(StoreException.Code.BUCKET_ALREADY_EXISTS, "exists"), "/b")
                .code())
        .isEqualTo(S3ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU);
  }

  /** Today's answer for each store code; a new code must be given one here. */
  private static final Map<StoreException.Code, S3ErrorCode> EXPECTED =
      Map.ofEntries(
          Map.entry(StoreException.Code.NO_SUCH_BUCKET, S3ErrorCode.NO_SUCH_BUCKET),
          Map.entry(
              StoreException.Code.BUCKET_ALREADY_EXISTS, S3ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU),
          Map.entry(StoreException.Code.BUCKET_NOT_EMPTY, S3ErrorCode.BUCKET_NOT_EMPTY),
          Map.entry(StoreException.Code.NO_SUCH_KEY, S3ErrorCode.NO_SUCH_KEY),
          Map.entry(StoreException.Code.NO_SUCH_VERSION, S3ErrorCode.NO_SUCH_VERSION),
          Map.entry(StoreException.Code.NO_SUCH_UPLOAD, S3ErrorCode.NO_SUCH_UPLOAD),
          Map.entry(StoreException.Code.INVALID_PART, S3ErrorCode.INVALID_PART),
          Map.entry(StoreException.Code.INVALID_PART_ORDER, S3ErrorCode.INVALID_PART_ORDER),
          Map.entry(StoreException.Code.ENTITY_TOO_SMALL, S3ErrorCode.ENTITY_TOO_SMALL),
          Map.entry(StoreException.Code.INVALID_RANGE, S3ErrorCode.INVALID_RANGE),
          Map.entry(StoreException.Code.BAD_DIGEST, S3ErrorCode.BAD_DIGEST),
          Map.entry(StoreException.Code.INVALID_ARGUMENT, S3ErrorCode.INVALID_ARGUMENT),
          Map.entry(StoreException.Code.INSUFFICIENT_SHARDS, S3ErrorCode.SERVICE_UNAVAILABLE),
          Map.entry(StoreException.Code.INSUFFICIENT_STORAGE, S3ErrorCode.X_MINIO_STORAGE_FULL),
          Map.entry(StoreException.Code.INCOMPLETE_BODY, S3ErrorCode.INCOMPLETE_BODY),
          Map.entry(StoreException.Code.COORDINATION_UNAVAILABLE, S3ErrorCode.SERVICE_UNAVAILABLE),
          Map.entry(StoreException.Code.LAYOUT_UNKNOWN, S3ErrorCode.SERVICE_UNAVAILABLE),
          Map.entry(StoreException.Code.INCONSISTENT, S3ErrorCode.INTERNAL_ERROR),
          Map.entry(StoreException.Code.ENCRYPTION_NOT_CONFIGURED, S3ErrorCode.NOT_IMPLEMENTED),
          Map.entry(StoreException.Code.CUSTOMER_KEY_REQUIRED, S3ErrorCode.INVALID_REQUEST),
          Map.entry(StoreException.Code.CUSTOMER_KEY_MISMATCH, S3ErrorCode.ACCESS_DENIED),
          Map.entry(StoreException.Code.ENCRYPTION_MISMATCH, S3ErrorCode.INVALID_REQUEST),
          Map.entry(StoreException.Code.OBJECT_LOCKED, S3ErrorCode.ACCESS_DENIED),
          Map.entry(StoreException.Code.OBJECT_LOCK_NOT_ENABLED, S3ErrorCode.INVALID_REQUEST),
          Map.entry(StoreException.Code.INVALID_BUCKET_STATE, S3ErrorCode.INVALID_BUCKET_STATE));

  @ParameterizedTest
  @EnumSource(StoreException.Code.class)
  void translate_whenStoreCode_answersItsS3CodeWithTheStoresMessageOnlyIfHarmless(
      StoreException.Code code) {
    S3Exception e = StoreErrors.translate(new StoreException(code, "store says"), "/b/k");
    S3ErrorCode expected = EXPECTED.get(code);
    assertThat(e.code()).isEqualTo(expected);
    assertThat(e.resource()).isEqualTo("/b/k");
    assertThat(e.getMessage())
        .isEqualTo(
            code == StoreException.Code.INSUFFICIENT_SHARDS
                ? StoreErrors.QUORUM_LOST
                : code == StoreException.Code.COORDINATION_UNAVAILABLE
                    ? StoreErrors.COORDINATION_LOST
                    : code == StoreException.Code.LAYOUT_UNKNOWN
                        ? "store says" // how long the layout went unread: the cause, nothing
                        // internal
                        // A 501 says what is not configured; other 5xx hide the store's words.
                        : expected.httpStatus() >= 500 && expected != S3ErrorCode.NOT_IMPLEMENTED
                            ? expected.defaultMessage()
                            : "store says");
  }

  @Test
  void translate_whenQuorumLostOrFull_hidesTheRepositoriesBehindTheDefaultMessage() {
    StoreException lost =
        new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            "2 of 6 answered",
            List.of(new StoreException.ShardFailure(3, "secret-repo", "refused")),
            null);
    S3Exception unavailable = StoreErrors.translate(lost, "/b/k");
    assertThat(unavailable.code()).isEqualTo(S3ErrorCode.SERVICE_UNAVAILABLE);
    assertThat(unavailable.httpStatus()).isEqualTo(503);
    assertThat(unavailable.getMessage())
        .isEqualTo(StoreErrors.QUORUM_LOST)
        .doesNotContain("secret-repo")
        .doesNotContain("reduce your request rate");
    S3Exception full =
        StoreErrors.translate(
            new StoreException(StoreException.Code.INSUFFICIENT_STORAGE, "slot 2 full"), "/b/k");
    assertThat(full.code()).isEqualTo(S3ErrorCode.X_MINIO_STORAGE_FULL);
    assertThat(full.getMessage()).doesNotContain("slot");
  }
}
