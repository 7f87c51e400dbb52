package io.racs.repos.s3;

import io.racs.repos.Keys;
import io.racs.repos.NetworkFailures;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.util.Optional;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;

/**
 * The one place an {@link S3Repository}'s SDK and I/O failures become the SPI's error kinds: see
 * "Errors" in {@link S3Repository}.
 */
final class S3Errors {
  private S3Errors() {}

  /** Translates an SDK failure of {@code operation} on {@code key} in repository {@code name}. */
  static RepositoryException translate(String name, SdkException e, String operation, String key) {
    String message = name + ": " + operation + " " + Keys.abbreviate(key) + ": " + e.getMessage();
    return new RepositoryException(kindOf(e), message, e);
  }

  /** Whether a 404 names the bucket, not the key. */
  static boolean isNoSuchBucket(AwsServiceException e) {
    return e instanceof NoSuchBucketException
        || (e.awsErrorDetails() != null && "NoSuchBucket".equals(e.awsErrorDetails().errorCode()));
  }

  static Kind kindOf(Throwable e) {
    if (e instanceof AwsServiceException service) {
      int status = service.statusCode();
      String code = service.awsErrorDetails() == null ? "" : service.awsErrorDetails().errorCode();
      if (status == 404) {
        // A missing bucket is missing storage, not a missing object: the caller must not take it
        // for "no such key" (see Repository).
        return isNoSuchBucket(service) ? Kind.UNAVAILABLE : Kind.NOT_FOUND;
      }
      if (status == 401 || status == 403) {
        return Kind.ACCESS_DENIED;
      }
      if (status == 412) {
        return Kind.PRECONDITION_FAILED;
      }
      if (status == 507 || "XMinioStorageFull".equals(code) || "QuotaExceeded".equals(code)) {
        return Kind.FULL;
      }
      if (status == 408 || "RequestTimeout".equals(code)) {
        return Kind.TIMEOUT;
      }
      if (status >= 500 || status == 429 || "SlowDown".equals(code)) {
        return Kind.UNAVAILABLE;
      }
      return Kind.UNEXPECTED;
    }
    if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException) {
      return Kind.TIMEOUT;
    }
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      Optional<Kind> network = NetworkFailures.kindOf(cause);
      if (network.isPresent()) {
        return network.get();
      }
      String message = cause.getMessage();
      if (message != null && message.contains("different checksum")) {
        return Kind.CORRUPT;
      }
      if (message != null && message.contains("timed out")) {
        return Kind.TIMEOUT;
      }
      if (cause instanceof IOException) {
        // NoHttpResponseException, a truncated body, a TLS failure: the far end went away.
        return Kind.UNAVAILABLE;
      }
    }
    return Kind.UNEXPECTED;
  }
}
