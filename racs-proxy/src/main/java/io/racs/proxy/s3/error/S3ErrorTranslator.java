package io.racs.proxy.s3.error;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The one translation of any failure into the S3 error a client receives (minio {@code
 * toAPIError}). Lower tiers throw their own exceptions; the S3 layer calls {@link #translate} once,
 * at the edge, and renders the result. Unknown failures are {@code InternalError} with the cause
 * attached for the server log, never shown to the client.
 *
 * <p>The store tier's typed results (lost quorum, not found, precondition) are mapped here when
 * that tier exists; until then they fall through to {@code InternalError}.
 */
public final class S3ErrorTranslator {
  private S3ErrorTranslator() {}

  /** Translates {@code failure}; an {@link S3Exception} is returned as is. */
  public static S3Exception translate(Throwable failure) {
    Throwable t = unwrap(failure);
    if (t instanceof S3Exception s3) {
      return s3;
    }
    if (t instanceof RejectedExecutionException) {
      return S3Exception.of(S3ErrorCode.SLOW_DOWN, null, t);
    }
    if (t instanceof TimeoutException) {
      return S3Exception.of(S3ErrorCode.SERVICE_UNAVAILABLE, null, t);
    }
    return S3Exception.of(S3ErrorCode.INTERNAL_ERROR, null, t);
  }

  /** Translates {@code failure} and names the resource if the error does not yet. */
  public static S3Exception translate(Throwable failure, String resource) {
    S3Exception e = translate(failure);
    return e.resource() == null && resource != null ? e.withResource(resource) : e;
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof CancellationException) {
      return new TimeoutException("cancelled");
    }
    return t;
  }
}
