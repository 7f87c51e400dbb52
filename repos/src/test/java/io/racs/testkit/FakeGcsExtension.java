package io.racs.testkit;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.racs.repos.emulator.EmulatorProcess;
import io.racs.repos.emulator.FakeGcsServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs a real fake-gcs-server ({@link FakeGcsServer}, the Google Cloud
 * Storage emulator as {@code scripts/provision.sh} builds it) on a free port of 127.0.0.1 for a
 * test class, and kills it after the last test.
 *
 * <pre>{@code
 * @RegisterExtension static final FakeGcsExtension GCS = new FakeGcsExtension();
 * }</pre>
 *
 * <p>{@link #persistent()} keeps objects on disk, so that a test can kill and restart the server
 * and find them again; the default keeps them in memory, which is faster.
 */
public final class FakeGcsExtension implements BeforeAllCallback, AfterAllCallback {
  /** The project the emulator's buckets are created in; it checks none. */
  public static final String PROJECT = FakeGcsServer.PROJECT;

  private final FakeGcsServer.Backend backend;
  private FakeGcsServer server;
  private Path root;
  private Storage service;
  private Thread shutdownHook;

  /** An emulator with its objects in memory. */
  public FakeGcsExtension() {
    this(FakeGcsServer.Backend.MEMORY);
  }

  private FakeGcsExtension(FakeGcsServer.Backend backend) {
    this.backend = backend;
  }

  /** An emulator whose objects survive a kill and restart of the process. */
  public static FakeGcsExtension persistent() {
    return new FakeGcsExtension(FakeGcsServer.Backend.FILESYSTEM);
  }

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws IOException {
    if (server != null) {
      return;
    }
    root = Files.createTempDirectory("racs-fake-gcs-");
    server = FakeGcsServer.create(root, backend);
    shutdownHook = new Thread(this::stop, "fake-gcs-extension-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    server.process().start();
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
    if (server == null) {
      return;
    }
    server.process().kill();
    server = null;
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      // Best effort: a temporary directory left behind is harmless.
    }
  }

  /** The running server's process: to kill, stop, restart or stall it. */
  public synchronized EmulatorProcess process() {
    return server.process();
  }

  /** The server's root URL, the {@code endpoint} of a {@code gcs} repository. */
  public String endpoint() {
    return server.endpoint().toString();
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
    return server.process().logTail();
  }
}
