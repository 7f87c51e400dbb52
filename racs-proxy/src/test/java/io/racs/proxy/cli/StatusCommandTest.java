package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.store.array.RepositoryHealth;
import io.racs.proxy.testing.TestArray;
import io.racs.proxy.testing.TestClients;
import io.racs.proxy.testing.TestProxies;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Proves that {@code racs status} prints each repository of a running proxy and exits 0 while all
 * are up, 1 once one is out (a directory gone), 1 when nothing answers at the endpoint, and 2 for
 * an endpoint that is no URL.
 */
class StatusCommandTest {
  private static final String ACCESS = TestProxies.ACCESS;
  private static final String SECRET = TestProxies.SECRET;

  @TempDir Path dir;
  private RacsServer server;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private int status(String endpoint) {
    return RacsMain.run(
        new PrintWriter(out, true), new PrintWriter(err, true), "status", "--endpoint", endpoint);
  }

  @Test
  void status_whenHealthyThenOneRepositoryGone_exitsZeroThenOne() throws Exception {
    TestArray array = TestArray.builder("4x2").fs(dir).open();
    server = TestProxies.start(array.store());
    String endpoint = "http://127.0.0.1:" + server.adminPort();
    assertThat(status(endpoint)).as(out.toString()).isZero();
    assertThat(out.toString()).contains("healthy, 6 of 6").contains("r0").contains("up");

    try (S3Client s3 = TestClients.s3(server.port(), ACCESS, SECRET)) {
      s3.createBucket(b -> b.bucket("status-bucket"));
      Files.move(dir.resolve("r2"), dir.resolve("r2-away"));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      int n = 0;
      while (array.store().health().get(2).state() == RepositoryHealth.State.UP) {
        assertThat(System.nanoTime()).as("r2 still up after 15 s").isLessThan(deadline);
        int k = n++;
        try {
          s3.putObject(b -> b.bucket("status-bucket").key("k" + k), RequestBody.fromString("x"));
        } catch (RuntimeException refused) {
          // Only the health the store reports matters here.
        }
      }
    }
    out.getBuffer().setLength(0);
    assertThat(status(endpoint)).as(out.toString()).isEqualTo(1);
    assertThat(out.toString()).contains("DEGRADED, 5 of 6").contains("warning:");
  }

  @Test
  void status_whenNothingListens_exitsOne() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    assertThat(status("http://127.0.0.1:" + port)).isEqualTo(1);
    assertThat(out.toString()).contains("cannot read");
  }

  @Test
  void status_whenEndpointIsNoUrl_exitsTwo() {
    assertThat(status("127.0.0.1:9001")).isEqualTo(2);
    assertThat(err.toString())
        .contains("--endpoint: 127.0.0.1:9001 (expected: http://HOST:ADMINPORT)");
  }
}
