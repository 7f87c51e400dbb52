package io.racs.repos.emulator;

import io.racs.repos.minio.ProvisionedTools;
import io.racs.repos.process.ServerProcess;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real Toxiproxy server (the TCP fault proxy, as {@code scripts/provision.sh} builds it with Go)
 * whose HTTP API listens on 127.0.0.1, ready once the API answers its version. The proxies it
 * opens, and the faults ("toxics") on them, are made through {@link #client()}.
 *
 * <p>Toxiproxy draws the randomness of its toxics (latency jitter, a toxicity below 1) from the
 * seed it is started with, so a run with the same seed and the same connections draws the same
 * delays. What it cannot do: drop or reorder single packets (it proxies a byte stream, not
 * packets), or make a name stop resolving (a test does that with an endpoint of its own).
 */
public final class ToxiproxyServer implements AutoCloseable {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private final ServerProcess process;

  private ToxiproxyServer(Path home, Path binary, long seed) {
    this.process =
        new ServerProcess(
            "toxiproxy",
            home,
            port ->
                List.of(
                    binary.toString(),
                    "-host",
                    "127.0.0.1",
                    "-port",
                    Integer.toString(port),
                    "-seed",
                    Long.toString(seed)),
            READY_TIMEOUT,
            port -> ServerProcess.answersOk(URI.create("http://127.0.0.1:" + port + "/version")));
  }

  /**
   * A server living under {@code home}, run from the provisioned binary, drawing its toxics'
   * randomness from {@code seed}.
   */
  public static ToxiproxyServer create(Path home, long seed) {
    return new ToxiproxyServer(home, ProvisionedTools.require("RACS_TOXIPROXY"), seed);
  }

  /** The process: start, stop, kill, its PID and log. */
  public ServerProcess process() {
    return process;
  }

  /** The root URL of the HTTP API. */
  public URI api() {
    return URI.create("http://127.0.0.1:" + process.port());
  }

  /** A client of the running server's API. */
  public Toxiproxy client() {
    return Toxiproxy.of(api());
  }

  @Override
  public void close() {
    process.close();
  }
}
