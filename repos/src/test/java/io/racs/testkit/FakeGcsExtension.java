package io.racs.testkit;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs a real fake-gcs-server (the Google Cloud Storage emulator, as
 * {@code scripts/provision.sh} builds it) on a free port of 127.0.0.1 for a test class, over plain
 * HTTP with its in-memory backend, and kills it by PID after the last test.
 *
 * <pre>{@code
 * @RegisterExtension static final FakeGcsExtension GCS = new FakeGcsExtension();
 * }</pre>
 *
 * <p>It is ready once its JSON API answers a bucket listing, polled without sleeping (see {@link
 * ServerProcess#awaitReady}).
 */
public final class FakeGcsExtension implements BeforeAllCallback, AfterAllCallback {
  /** The project the emulator's buckets are created in; it checks none. */
  public static final String PROJECT = "racs-test";

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private ServerProcess server;
  private Path log;
  private int port;
  private Storage service;

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws IOException {
    if (server != null) {
      return;
    }
    log = Files.createTempFile("racs-fake-gcs-", ".log");
    port = ServerProcess.freeLoopbackPort();
    server =
        ServerProcess.start(
            "fake-gcs-server",
            new ProcessBuilder(
                List.of(
                    TestTools.fakeGcs().toString(),
                    "-scheme",
                    "http",
                    "-host",
                    "127.0.0.1",
                    "-port",
                    Integer.toString(port),
                    "-backend",
                    "memory",
                    "-log-level",
                    "warn")),
            log);
    HttpRequest buckets =
        HttpRequest.newBuilder(URI.create(endpoint() + "/storage/v1/b"))
            .timeout(Duration.ofSeconds(2))
            .build();
    try (HttpClient http = HttpClient.newHttpClient()) {
      server.awaitReady(READY_TIMEOUT, () -> answers(http, buckets));
    }
  }

  private static boolean answers(HttpClient http, HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false; // Not listening yet.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for fake-gcs-server", e);
    }
  }

  @Override
  public synchronized void afterAll(ExtensionContext context) throws IOException {
    if (server == null) {
      return;
    }
    server.stop();
    server = null;
    Files.deleteIfExists(log);
  }

  /** The server's root URL, the {@code endpoint} of a {@code gcs} repository. */
  public String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** A client for setting up and inspecting buckets, unauthenticated as the emulator takes it. */
  public synchronized Storage service() {
    if (service == null) {
      service =
          StorageOptions.http()
              .setHost(endpoint())
              .setProjectId(PROJECT)
              .setCredentials(NoCredentials.getInstance())
              .build()
              .getService();
    }
    return service;
  }

  /** The last part of the server's own log, for failure messages. */
  public String log() {
    return server.logTail();
  }
}
