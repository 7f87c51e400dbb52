package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.runtime.ServerConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs status} against a running proxy over six fs repositories: healthy, it prints
 * every repository up and exits 0; with one root missing (an unmounted disk) it says the array is
 * degraded, names the repository and why, and exits 1; with no proxy there it says so in one line
 * and exits 1; a malformed endpoint is a usage error.
 */
class StatusCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private RacsServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private int racs(String... args) {
    return RacsMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private Path config() throws IOException {
    StringBuilder yaml = new StringBuilder("array:\n  geometry: 4x2\nrepositories:\n");
    for (int i = 0; i < 6; i++) {
      Files.createDirectories(dir.resolve("r" + i));
      yaml.append("  - {name: r")
          .append(i)
          .append(", type: fs, path: ")
          .append(dir.resolve("r" + i))
          .append("}\n");
    }
    return Files.writeString(dir.resolve("racs.yaml"), yaml);
  }

  private String start(ArrayConfig array) throws Exception {
    server =
        RacsServer.start(
            array.open(),
            ServerConfig.defaults()
                .with("127.0.0.1:0", Map.of("admin", "admin-secret"))
                .withAdmin("127.0.0.1:0"));
    return "http://127.0.0.1:" + server.adminPort();
  }

  @Test
  void status_ofAHealthyArray_listsEveryRepositoryUp_andExitsZero() throws Exception {
    ArrayConfig array = ArrayConfig.load(config());
    String admin = start(array);

    int code = racs("status", "--endpoint", admin);

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString())
        .startsWith("array: healthy (6 of 6 repositories up; 6 take writes, writes need 4)")
        .contains("lifecycle: on")
        .contains("warnings: none");
    for (int i = 0; i < 6; i++) {
      assertThat(out.toString()).containsPattern("\\n +" + i + "  r" + i + " +up ");
    }
  }

  @Test
  void status_withARepositoryMissing_saysDegradedAndWhich_andExitsOne() throws Exception {
    ArrayConfig array = ArrayConfig.load(config());
    array.open().close(); // the array is made on all six
    Files.move(dir.resolve("r3"), dir.resolve("away3")); // an unmounted disk
    String admin = start(array);

    int code = racs("status", "--endpoint", admin);

    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.FAILURE);
    assertThat(out.toString())
        .startsWith("array: degraded, serving (5 of 6 repositories up; 5 take writes")
        .containsPattern("\\n +3  r3 +unavailable ")
        .containsPattern("warnings:\\n  slot 3 \\(r3\\) is unavailable: .*does not exist");
  }

  @Test
  void status_withNoProxyThere_saysSoInOneLine_andExitsOne() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }

    int code = racs("status", "--endpoint", "http://127.0.0.1:" + port);

    assertThat(code).isEqualTo(ExitCodes.FAILURE);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString().strip().lines())
        .singleElement()
        .asString()
        .startsWith("racs status: no answer from http://127.0.0.1:" + port);
  }

  @Test
  void status_withBadOptions_isAUsageError() throws Exception {
    assertThat(racs("status", "--endpoint", "not a url")).isEqualTo(ExitCodes.USAGE);
    assertThat(racs("status", "--endpoint", "http://x:1", "--config", config().toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("give one of them");
  }
}
