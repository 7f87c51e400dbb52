package io.racs.proxy.s3.bridge;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.store.api.StoreException;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one translation of any failure into the S3 error a client receives (minio's {@code
 * toAPIError}), and so the one place a {@link StoreException} becomes an {@link S3Exception}: the
 * bridge applies it to every store call, and the connection to whatever a handler throws. Lost
 * quorum is a 503 {@code ServiceUnavailable} that SDKs retry, a write lost to full repositories a
 * 507 {@code XMinioStorageFull} that they do not.
 *
 * <p>Stateless and thread-safe.
 */
public final class StoreErrors {
  private static final Logger LOG = LoggerFactory.getLogger(StoreErrors.class);

  private StoreErrors() {}

  /**
   * The S3 error to answer {@code failure} with:
   *
   * <ul>
   *   <li>An {@link S3Exception}, itself or as a cause (a write condition's refusal, a body's
   *       refusal), is the answer as it is.
   *   <li>A {@link StoreException} maps by its code; lost quorum is a 503 {@code
   *       ServiceUnavailable} that SDKs retry, a write lost to full repositories a 507 {@code
   *       XMinioStorageFull} that they do not. Those two and {@code InternalError} answer with
   *       their default message, never the store's (which names repositories); the others keep the
   *       store's message. A write refused while the array's layout may be stale ({@code
   *       LAYOUT_UNKNOWN}) is a 503 too, saying how long the layout went unread.
   *   <li>Overload ({@link RejectedExecutionException}) is {@code SlowDown}; a timeout or a
   *       cancellation is {@code ServiceUnavailable}.
   *   <li>Anything else is a bug: {@code InternalError}, with the cause attached for the server log
   *       and never shown to the client.
   * </ul>
   *
   * @param resource the resource to name in the error, unless it names one already; may be null
   */
  public static S3Exception translate(Throwable failure, String resource) {
    S3Exception translated = errorOf(failure);
    return translated.resource() == null && resource != null
        ? translated.withResource(resource)
        : translated;
  }

  /** {@link #translate(Throwable, String)} without a resource. */
  public static S3Exception translate(Throwable failure) {
    return translate(failure, null);
  }

  private static S3Exception errorOf(Throwable failure) {
    if (failure instanceof StoreException se) {
      return fromStore(se);
    }
    S3Exception carried = carried(failure);
    if (carried != null) {
      return carried;
    }
    Throwable t = unwrap(failure);
    if (t instanceof RejectedExecutionException) {
      return S3Exception.of(S3ErrorCode.SLOW_DOWN, null, t);
    }
    if (t instanceof TimeoutException) {
      return S3Exception.of(S3ErrorCode.SERVICE_UNAVAILABLE, null, t);
    }
    return S3Exception.of(S3ErrorCode.INTERNAL_ERROR, null, t);
  }

  /**
   * The message of the 503 a request gets when too few repositories answered (a read or write
   * quorum lost to outages or stalls): the cause, not S3's "reduce your request rate", which would
   * send a client looking in the wrong place; which repositories, only the operator is told.
   */
  static final String QUORUM_LOST =
      "Too few of the storage array's repositories are available to serve this request;"
          + " retry later.";

  /**
   * The message of the 503 a bucket create or delete gets while the proxy is not connected to
   * ZooKeeper: the cause, for the same reason as {@link #QUORUM_LOST}.
   */
  static final String COORDINATION_LOST =
      "This proxy is not connected to the coordination service, which bucket creates and deletes"
          + " need; retry later.";

  private static S3Exception fromStore(StoreException se) {
    S3ErrorCode code =
        switch (se.code()) {
          case NO_SUCH_BUCKET -> S3ErrorCode.NO_SUCH_BUCKET;
          case BUCKET_ALREADY_EXISTS -> S3ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU;
          case BUCKET_NOT_EMPTY -> S3ErrorCode.BUCKET_NOT_EMPTY;
          case NO_SUCH_KEY -> S3ErrorCode.NO_SUCH_KEY;
          case NO_SUCH_VERSION -> S3ErrorCode.NO_SUCH_VERSION;
          case NO_SUCH_UPLOAD -> S3ErrorCode.NO_SUCH_UPLOAD;
          case INVALID_PART -> S3ErrorCode.INVALID_PART;
          case INVALID_PART_ORDER -> S3ErrorCode.INVALID_PART_ORDER;
          case ENTITY_TOO_SMALL -> S3ErrorCode.ENTITY_TOO_SMALL;
          case INVALID_RANGE -> S3ErrorCode.INVALID_RANGE;
          case BAD_DIGEST -> S3ErrorCode.BAD_DIGEST;
          case INVALID_ARGUMENT -> S3ErrorCode.INVALID_ARGUMENT;
          case INSUFFICIENT_SHARDS, COORDINATION_UNAVAILABLE, LAYOUT_UNKNOWN ->
              S3ErrorCode.SERVICE_UNAVAILABLE;
          case INSUFFICIENT_STORAGE -> S3ErrorCode.X_MINIO_STORAGE_FULL;
          case INCOMPLETE_BODY -> S3ErrorCode.INCOMPLETE_BODY;
          case INCONSISTENT -> S3ErrorCode.INTERNAL_ERROR;
          // MinIO answers a server-side-encryption request it has no key for with a 501.
          case ENCRYPTION_NOT_CONFIGURED -> S3ErrorCode.NOT_IMPLEMENTED;
          case CUSTOMER_KEY_REQUIRED, ENCRYPTION_MISMATCH -> S3ErrorCode.INVALID_REQUEST;
          case CUSTOMER_KEY_MISMATCH, OBJECT_LOCKED -> S3ErrorCode.ACCESS_DENIED;
          case OBJECT_LOCK_NOT_ENABLED -> S3ErrorCode.INVALID_REQUEST;
          case INVALID_BUCKET_STATE -> S3ErrorCode.INVALID_BUCKET_STATE;
        };
    String message =
        se.code() == StoreException.Code.INSUFFICIENT_SHARDS
            ? QUORUM_LOST
            : se.code() == StoreException.Code.COORDINATION_UNAVAILABLE
                ? COORDINATION_LOST
                // How long the layout went unread names nothing internal, and tells the cause.
                : se.code() == StoreException.Code.LAYOUT_UNKNOWN
                    ? se.getMessage()
                    // A 501 says what is not configured (harmless); other 5xx hide the store's.
                    : code.httpStatus() >= 500 && code != S3ErrorCode.NOT_IMPLEMENTED
                        ? code.defaultMessage()
                        : se.getMessage();
    if (se.code() == StoreException.Code.INSUFFICIENT_SHARDS) {
      // Which repositories failed, and how, is for the operator (it names them): the log and the
      // health report say it, the client gets the cause in general terms.
      LOG.debug("answering 503: {}", se.getMessage());
    }
    return S3Exception.of(code, message, se);
  }

  /**
   * The S3 error {@code failure} is or carries as a cause (a body's {@link IOException}, a future's
   * wrapper), or null.
   */
  static S3Exception carried(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof S3Exception s3) {
        return s3;
      }
    }
    return null;
  }

  /**
   * The failure inside the wrappers of a future; a cancellation (a deadline's doing) counts as a
   * timeout.
   */
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
