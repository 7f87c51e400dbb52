package io.racs.repos.azure;

import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import io.racs.repos.Keys;
import io.racs.repos.NetworkFailures;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * The one place an {@link AzureRepository}'s SDK and I/O failures become the SPI's error kinds: see
 * "Errors" in {@link AzureRepository}.
 */
final class AzureErrors {
  private AzureErrors() {}

  /** Translates a failure of {@code operation} on {@code key} in repository {@code name}. */
  static RepositoryException translate(String name, Throwable e, String operation, String key) {
    // A body that failed or had the wrong length is already the SPI's exception; the SDK may have
    // wrapped it on the way out of its pipeline.
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof RepositoryException repository) {
        return repository;
      }
    }
    String message = name + ": " + operation + " " + Keys.abbreviate(key) + ": " + summary(e);
    return new RepositoryException(kindOf(e), message, e);
  }

  /** Whether a 404 names the container, not the blob. */
  static boolean isMissingContainer(BlobStorageException e) {
    return BlobErrorCode.CONTAINER_NOT_FOUND.equals(e.getErrorCode())
        || BlobErrorCode.CONTAINER_BEING_DELETED.equals(e.getErrorCode());
  }

  static Kind kindOf(Throwable e) {
    BlobStorageException storage = storageCause(e);
    if (storage != null) {
      int status = storage.getStatusCode();
      BlobErrorCode code = storage.getErrorCode();
      if (status == 404) {
        // A missing container is missing storage, not a missing object (see Repository).
        return isMissingContainer(storage) ? Kind.UNAVAILABLE : Kind.NOT_FOUND;
      }
      if (status == 401 || status == 403) {
        return Kind.ACCESS_DENIED;
      }
      if (status == 412 || BlobErrorCode.BLOB_ALREADY_EXISTS.equals(code)) {
        // 412 ConditionNotMet, or 409 BlobAlreadyExists: what Put Blob with If-None-Match: *
        // answers when the blob exists, depending on the service version.
        return Kind.PRECONDITION_FAILED;
      }
      if (status == 409 && isMissingContainer(storage)) {
        return Kind.UNAVAILABLE;
      }
      if (status == 408 || BlobErrorCode.OPERATION_TIMED_OUT.equals(code)) {
        return Kind.TIMEOUT;
      }
      if (status >= 500 || status == 429 || BlobErrorCode.SERVER_BUSY.equals(code)) {
        // 503 ServerBusy is Azure's throttling: transient, and the SDK has retried it already.
        return Kind.UNAVAILABLE;
      }
      return Kind.UNEXPECTED;
    }
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      // The JDK HttpClient's own timeout, and the SDK's (a reactor timeout), are not I/O ones.
      if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException) {
        return Kind.TIMEOUT;
      }
      Optional<Kind> network = NetworkFailures.kindOf(cause);
      if (network.isPresent()) {
        return network.get();
      }
      if (cause instanceof IOException) {
        // A truncated body, a TLS failure, a closed connection: the far end went away.
        return Kind.UNAVAILABLE;
      }
    }
    return Kind.UNEXPECTED;
  }

  /** The service's own answer behind {@code e}, which a stream's IOException may wrap. */
  static BlobStorageException storageCause(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof BlobStorageException storage) {
        return storage;
      }
    }
    return null;
  }

  /** The first line of the SDK's message: the rest repeats the whole response, headers included. */
  private static String summary(Throwable e) {
    BlobStorageException storage = storageCause(e);
    if (storage != null) {
      return "status " + storage.getStatusCode() + " " + storage.getErrorCode();
    }
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
