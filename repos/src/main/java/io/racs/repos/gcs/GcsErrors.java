package io.racs.repos.gcs;

import com.google.api.client.http.HttpResponseException;
import com.google.cloud.BaseServiceException;
import io.racs.repos.Keys;
import io.racs.repos.NetworkFailures;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;

/**
 * The one place a {@link GcsRepository}'s client and I/O failures become the SPI's error kinds: see
 * "Errors" in {@link GcsRepository}.
 *
 * <p>A 404 means different things by request: a missing object for a read of one, a missing bucket
 * for an upload or a listing (which name no object that could be missing). The JSON API says which
 * only in its message text, and fake-gcs-server not at all, so each caller says what a 404 is to it
 * ({@code notFound}); reads that get one ask about the bucket before answering "no such object".
 */
final class GcsErrors {
  /** The reasons GCS gives with a 403 that are throttling, not a denial. */
  private static final Set<String> THROTTLED = Set.of("rateLimitExceeded", "userRateLimitExceeded");

  private GcsErrors() {}

  /**
   * Translates a failure of {@code operation} on {@code key} in repository {@code name}, reading a
   * 404 as {@code notFound}.
   */
  static RepositoryException translate(
      String name, Throwable e, String operation, String key, Kind notFound) {
    // A body that failed or had the wrong length is already the SPI's exception, as is a
    // credentials
    // failure; the client may have wrapped either on the way out.
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof RepositoryException repository) {
        return repository;
      }
    }
    String message = name + ": " + operation + " " + Keys.abbreviate(key) + ": " + summary(e);
    return new RepositoryException(kindOf(e, notFound), message, e);
  }

  static Kind kindOf(Throwable e, Kind notFound) {
    int status = status(e);
    if (status != 0) {
      return switch (status) {
        case 404 -> notFound;
        case 401 -> Kind.ACCESS_DENIED;
        case 403 -> THROTTLED.contains(reason(e)) ? Kind.UNAVAILABLE : Kind.ACCESS_DENIED;
        case 412 -> Kind.PRECONDITION_FAILED;
        case 408 -> Kind.TIMEOUT;
        // A resumable upload's session is gone (expired, or lost by the service).
        case 410 -> Kind.UNAVAILABLE;
        // 429 and 503 are GCS's throttling: transient, and the client has retried them already
        // where the request was safe to repeat; other 5xx are the service's own failures.
        case 429 -> Kind.UNAVAILABLE;
        default -> status >= 500 ? Kind.UNAVAILABLE : Kind.UNEXPECTED;
      };
    }
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
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

  /** The HTTP status behind {@code e}, or 0 when it carries none (a network failure). */
  static int status(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof BaseServiceException service && service.getCode() > 0) {
        return service.getCode();
      }
      if (cause instanceof HttpResponseException http) {
        return http.getStatusCode();
      }
    }
    return 0;
  }

  private static String reason(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof BaseServiceException service && service.getReason() != null) {
        return service.getReason();
      }
    }
    return "";
  }

  /** The status and the first line of the message: the rest may repeat the whole response. */
  private static String summary(Throwable e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    String line = newline < 0 ? message : message.substring(0, newline);
    int status = status(e);
    return status == 0 ? line : "status " + status + " " + reason(e) + ": " + line;
  }
}
