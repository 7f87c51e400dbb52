package io.racs.testkit;

import io.racs.repos.emulator.Toxiproxy;
import io.racs.repos.emulator.ToxiproxyServer;
import io.racs.repos.process.ServerProcess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
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
  private final EmulatorLifecycle<ToxiproxyServer> lifecycle;

  /** A server seeded by {@link TestSeed#get()} (printed; pinned by {@code -Dracs.test.seed}). */
  public ToxiproxyExtension() {
    this.lifecycle = lifecycle(null);
  }

  /** A server whose toxics draw from {@code seed}. */
  public ToxiproxyExtension(long seed) {
    this.lifecycle = lifecycle(seed);
  }

  private static EmulatorLifecycle<ToxiproxyServer> lifecycle(Long seed) {
    return new EmulatorLifecycle<>(
        "toxiproxy",
        home -> ToxiproxyServer.create(home, seed != null ? seed : TestSeed.get()),
        ToxiproxyServer::process);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    lifecycle.start();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    client().reset();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    lifecycle.stop();
  }

  /** The server's API client. */
  public Toxiproxy client() {
    return lifecycle.server().client();
  }

  /** A new proxy called {@code name} to the host and port of {@code endpoint} (an HTTP URL). */
  public Toxiproxy.Proxy proxyTo(String name, URI endpoint) {
    return client().create(name, new InetSocketAddress(endpoint.getHost(), endpoint.getPort()));
  }

  /** The server's process: to kill, stop or restart it. */
  public ServerProcess process() {
    return lifecycle.server().process();
  }

  /** The last part of the server's own log, for failure messages. */
  public String log() {
    return lifecycle.server().process().logTail();
  }
}
