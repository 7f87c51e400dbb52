package io.racs.testkit;

import io.racs.repos.emulator.EmulatorProcess;
import io.racs.repos.emulator.Toxiproxy;
import io.racs.repos.emulator.ToxiproxyServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs a real Toxiproxy server ({@link ToxiproxyServer}, the TCP fault
 * proxy as {@code scripts/provision.sh} builds it) on a free port of 127.0.0.1 for a test class,
 * and kills it after the last test.
 *
 * <pre>{@code
 * @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(1);
 * @RegisterExtension static final ToxiproxyExtension TOXIPROXY = new ToxiproxyExtension();
 * ...
 * Toxiproxy.Proxy link = TOXIPROXY.proxyTo("minio-0", MINIO.server(0).endpoint());
 * link.add(Toxic.latency(Duration.ofMillis(20), Duration.ofMillis(10)));
 * }</pre>
 *
 * <p>After each test every proxy is put back as it was created, on its port: enabled, without
 * toxics, its connections closed ({@link Toxiproxy#reset()}), so tests do not depend on each
 * other's faults. The server draws its toxics' randomness from the seed given, or from {@link
 * TestSeed#get()}.
 */
public final class ToxiproxyExtension
    implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
  private final Long seed;
  private ToxiproxyServer server;
  private Path root;
  private Thread shutdownHook;

  /** A server seeded by {@link TestSeed#get()} (printed; pinned by {@code -Dracs.test.seed}). */
  public ToxiproxyExtension() {
    this.seed = null;
  }

  /** A server whose toxics draw from {@code seed}. */
  public ToxiproxyExtension(long seed) {
    this.seed = seed;
  }

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws IOException {
    if (server != null) {
      return;
    }
    root = Files.createTempDirectory("racs-toxiproxy-");
    server = ToxiproxyServer.create(root, seed != null ? seed : TestSeed.get());
    shutdownHook = new Thread(this::stop, "toxiproxy-extension-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    server.process().start();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    client().reset();
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
    TempDirs.deleteTree(root);
  }

  /** The server's API client. */
  public synchronized Toxiproxy client() {
    return server.client();
  }

  /** A new proxy called {@code name} to the host and port of {@code endpoint} (an HTTP URL). */
  public Toxiproxy.Proxy proxyTo(String name, URI endpoint) {
    return client().create(name, new InetSocketAddress(endpoint.getHost(), endpoint.getPort()));
  }

  /** The server's process: to kill, stop or restart it. */
  public synchronized EmulatorProcess process() {
    return server.process();
  }

  /** The last part of the server's own log, for failure messages. */
  public String log() {
    return server.process().logTail();
  }
}
