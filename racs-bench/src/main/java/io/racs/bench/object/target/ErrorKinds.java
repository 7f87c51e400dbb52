package io.racs.bench.object.target;

import io.racs.bench.object.target.s3.S3ErrorException;
import io.racs.bench.object.target.s3.S3TransportException;
import io.racs.repos.RepositoryException;
import java.io.IOException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Names a failure for the error counts of a report: the repository kind ({@code NOT_FOUND}, {@code
 * UNAVAILABLE}, ...), {@code S3_<status>_<code>} for an S3 error answer, {@code S3_CLIENT} for a
 * request without an answer, {@code STORE_<code>} for the in-process array's failures, {@code IO}
 * for a broken body, {@code VERIFY_MISMATCH} for bytes that are not the object's content, else the
 * exception's simple class name.
 */
public final class ErrorKinds {
  /** A GET returned bytes other than the object's content. */
  public static final String VERIFY_MISMATCH = "VERIFY_MISMATCH";

  private ErrorKinds() {}

  /**
   * Whether {@code kind} says the object was not there: the repository's {@code NOT_FOUND}, or an
   * S3 404 ({@code S3_404_NoSuchKey}, or bare {@code S3_404} for a HEAD, which has no body).
   */
  public static boolean isNotFound(String kind) {
    return kind != null
        && (kind.equals("NOT_FOUND") || kind.equals("S3_404") || kind.equals("S3_404_NoSuchKey"));
  }

  /** The kind of {@code failure}. */
  public static String of(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof RepositoryException r) {
        return r.kind().name();
      }
      if (t instanceof io.racs.proxy.store.api.StoreException store) {
        return "STORE_" + store.code().name();
      }
      if (t instanceof S3ErrorException s3) {
        return "S3_" + s3.status() + (s3.code() == null ? "" : "_" + s3.code());
      }
      if (t instanceof S3Exception s3) {
        String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
        return "S3_" + s3.statusCode() + (code == null ? "" : "_" + code);
      }
    }
    if (failure instanceof SdkClientException || failure instanceof S3TransportException) {
      return "S3_CLIENT";
    }
    if (failure instanceof IOException || failure instanceof java.io.UncheckedIOException) {
      return "IO";
    }
    return failure.getClass().getSimpleName();
  }
}
