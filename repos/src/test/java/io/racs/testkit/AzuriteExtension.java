package io.racs.testkit;

import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.BlobServiceVersion;
import io.racs.repos.emulator.AzuriteServer;
import io.racs.repos.emulator.EmulatorProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs a real Azurite blob service ({@link AzuriteServer}, as {@code
 * scripts/provision.sh} installs it) on a free port of 127.0.0.1 for a test class, with its own
 * temporary directory, and kills it after the last test.
 *
 * <pre>{@code
 * @RegisterExtension static final AzuriteExtension AZURITE = new AzuriteExtension();
 * }</pre>
 */
public final class AzuriteExtension implements BeforeAllCallback, AfterAllCallback {
  /** The storage service version Azurite 3.35 speaks. */
  public static final String SERVICE_VERSION = AzuriteServer.SERVICE_VERSION;

  /** Azurite's well-known development account. */
  public static final String ACCOUNT_NAME = AzuriteServer.ACCOUNT_NAME;

  /** The development account's well-known key (public, in Azure's own documentation). */
  public static final String ACCOUNT_KEY = AzuriteServer.ACCOUNT_KEY;

  private AzuriteServer server;
  private Path root;
  private BlobServiceClient service;
  private Thread shutdownHook;

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws IOException {
    if (server != null) {
      return;
    }
    root = Files.createTempDirectory("racs-azurite-");
    server = AzuriteServer.create(root);
    shutdownHook = new Thread(this::stop, "azurite-extension-shutdown");
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

  /** The blob service URL, with the account in the path as Azurite expects. */
  public String endpoint() {
    return server.endpoint().toString();
  }

  /** A connection string for the development account on this server. */
  public String connectionString() {
    return server.connectionString();
  }

  /** A service client for setting up and inspecting containers, over the JDK HttpClient. */
  public synchronized BlobServiceClient service() {
    if (service == null) {
      service =
          new BlobServiceClientBuilder()
              .connectionString(connectionString())
              .httpClient(new JdkHttpClientBuilder().build())
              .serviceVersion(BlobServiceVersion.valueOf("V" + SERVICE_VERSION.replace('-', '_')))
              .buildClient();
    }
    return service;
  }

  /** The last part of Azurite's own log, for failure messages. */
  public String log() {
    return server.process().logTail();
  }
}
