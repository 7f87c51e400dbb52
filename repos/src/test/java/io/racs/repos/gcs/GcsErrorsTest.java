package io.racs.repos.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.storage.StorageException;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Proves the one translation of GCS failures into error kinds on the client's own exceptions, for
 * the answers fake-gcs-server never gives (401, 403, throttling, 5xx): denials are {@code
 * ACCESS_DENIED} but rate limits are transient, a 404 is what the caller says it is, 412 is a
 * precondition, timeouts and refused connections are told apart, and a failure of the caller's own
 * body passes through unchanged.
 */
class GcsErrorsTest {
  private static Kind kind(int status, String reason) {
    return GcsErrors.translate(
            "gc", new StorageException(status, "msg", reason, null), "get", "k", Kind.NOT_FOUND)
        .kind();
  }

  @Test
  void translate_whenDenied_accessDeniedUnlessRateLimited() {
    assertThat(kind(401, "required")).isEqualTo(Kind.ACCESS_DENIED);
    assertThat(kind(403, "forbidden")).isEqualTo(Kind.ACCESS_DENIED);
    assertThat(kind(403, "rateLimitExceeded")).isEqualTo(Kind.UNAVAILABLE);
    assertThat(kind(403, "userRateLimitExceeded")).isEqualTo(Kind.UNAVAILABLE);
  }

  @Test
  void translate_whenThrottledOrFailing_unavailableAndTransient() {
    for (int status : new int[] {429, 500, 502, 503, 504, 410}) {
      assertThat(kind(status, null)).as("status %d", status).isEqualTo(Kind.UNAVAILABLE);
    }
    assertThat(Kind.UNAVAILABLE.isTransient()).isTrue();
    assertThat(kind(408, null)).isEqualTo(Kind.TIMEOUT);
    assertThat(kind(400, "invalid")).isEqualTo(Kind.UNEXPECTED);
  }

  @Test
  void translate_when404Or412_asTheCallerSaysAndPrecondition() {
    StorageException notFound = new StorageException(404, "Not Found", "notFound", null);
    assertThat(GcsErrors.translate("gc", notFound, "get", "k", Kind.NOT_FOUND).kind())
        .isEqualTo(Kind.NOT_FOUND);
    assertThat(GcsErrors.translate("gc", notFound, "put", "k", Kind.UNAVAILABLE).kind())
        .isEqualTo(Kind.UNAVAILABLE);
    assertThat(kind(412, "conditionNotMet")).isEqualTo(Kind.PRECONDITION_FAILED);
  }

  @Test
  void translate_whenNetworkFails_timeoutOrUnavailable() {
    assertThat(
            GcsErrors.kindOf(
                new StorageException(new SocketTimeoutException("Read timed out")), Kind.NOT_FOUND))
        .isEqualTo(Kind.TIMEOUT);
    assertThat(
            GcsErrors.kindOf(
                new StorageException(new ConnectException("Connection refused")), Kind.NOT_FOUND))
        .isEqualTo(Kind.UNAVAILABLE);
    assertThat(GcsErrors.kindOf(new IOException(new IOException("reset")), Kind.NOT_FOUND))
        .isEqualTo(Kind.UNAVAILABLE);
  }

  @Test
  void translate_whenBodyFailed_passesItsExceptionThrough() {
    RepositoryException body = new RepositoryException(Kind.UNEXPECTED, "gc: the body failed");
    assertThat(GcsErrors.translate("gc", new IOException(body), "put", "k", Kind.UNAVAILABLE))
        .isSameAs(body);
  }

  @Test
  void translate_message_namesRepositoryOperationKeyAndStatusOnOneLine() {
    RepositoryException e =
        GcsErrors.translate(
            "gc",
            new StorageException(
                503, "Service Unavailable\nGET http://x\n{...}", "backendError", null),
            "list",
            "a/b",
            Kind.UNAVAILABLE);
    assertThat(e.getMessage())
        .contains("gc: list")
        .contains("a/b")
        .contains("status 503 backendError")
        .doesNotContain("\n");
  }
}
