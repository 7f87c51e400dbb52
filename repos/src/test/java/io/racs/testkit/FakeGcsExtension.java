package io.racs.testkit;

import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.racs.repos.emulator.FakeGcsServer;
import io.racs.repos.process.ServerProcess;
import java.io.IOException;
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

  private final EmulatorLifecycle<FakeGcsServer> lifecycle;
  private Storage service;

  /** An emulator with its objects in memory. */
  public FakeGcsExtension() {
    this(FakeGcsServer.Backend.MEMORY);
  }

  private FakeGcsExtension(FakeGcsServer.Backend backend) {
    this.lifecycle =
        new EmulatorLifecycle<>(
            "fake-gcs", home -> FakeGcsServer.create(home, backend), FakeGcsServer::process);
  }

  /** An emulator whose objects survive a kill and restart of the process. */
  public static FakeGcsExtension persistent() {
    return new FakeGcsExtension(FakeGcsServer.Backend.FILESYSTEM);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    lifecycle.start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    lifecycle.stop();
  }

  /** The running server's process: to kill, stop, restart or stall it. */
  public ServerProcess process() {
    return lifecycle.server().process();
  }

  /** The server's root URL, the {@code endpoint} of a {@code gcs} repository. */
  public String endpoint() {
    return lifecycle.server().endpoint().toString();
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
    return lifecycle.server().process().logTail();
  }
}
