package io.racs.testkit;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * <p>It is ready once its JSON API answers a bucket listing, polled without sleeping: between two
 * polls it waits on the process, which notices an early exit at once.
 */
public final class FakeGcsExtension implements BeforeAllCallback, AfterAllCallback {
  /** The project the emulator's buckets are created in; it checks none. */
  public static final String PROJECT = "racs-test";

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private Process process;
  private Path log;
  private int port;
  private Storage service;
  private Thread shutdownHook;

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws IOException {
    if (process != null) {
      return;
    }
    log = Files.createTempFile("racs-fake-gcs-", ".log");
    port = freePort();
    ProcessBuilder pb =
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
                "warn"));
    pb.redirectErrorStream(true);
    pb.redirectOutput(log.toFile());
    process = pb.start();
    shutdownHook = new Thread(this::stop, "fake-gcs-extension-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    awaitReady();
  }

  private void awaitReady() {
    HttpRequest buckets =
        HttpRequest.newBuilder(URI.create(endpoint() + "/storage/v1/b"))
            .timeout(Duration.ofSeconds(2))
            .build();
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    try (HttpClient http = HttpClient.newHttpClient()) {
      while (System.nanoTime() < deadline) {
        if (!process.isAlive()) {
          throw new IllegalStateException(
              "fake-gcs-server exited with status " + process.exitValue() + "; log:\n" + log());
        }
        try {
          if (http.send(buckets, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return;
          }
        } catch (IOException e) {
          // Not listening yet.
        }
        // Waiting on the process doubles as the poll interval and notices an early exit at once.
        process.waitFor(50, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for fake-gcs-server", e);
    }
    stop();
    throw new IllegalStateException(
        "fake-gcs-server not answering within " + READY_TIMEOUT + "; log:\n" + log());
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
    if (shutdownHook != null) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // The JVM is already shutting down, and the hook runs anyway.
      }
    }
  }

  private synchronized void stop() {
    if (process == null) {
      return;
    }
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process = null;
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      // Best effort: a temporary file left behind is harmless.
    }
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
    try {
      String text = Files.readString(log);
      return text.length() > 4000 ? text.substring(text.length() - 4000) : text;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port on 127.0.0.1", e);
    }
  }
}
