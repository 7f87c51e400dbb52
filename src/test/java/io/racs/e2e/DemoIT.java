package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code ./racs demo} does what the README promises, as a new user runs it: the proxy over
 * six repositories (local directories, and six real MinIO processes with {@code --minio 6}), a
 * bench whose report is a self-contained HTML page with charts, reads and writes surviving two lost
 * repositories, and a heal that restores full redundancy.
 */
class DemoIT {
  private static Launcher.Result demo(Path dir, String... extra) {
    String[] args = new String[5 + extra.length];
    args[0] = "demo";
    args[1] = "--dir";
    args[2] = dir.resolve("demo").toString();
    args[3] = "--listen";
    args[4] = "127.0.0.1:0";
    System.arraycopy(extra, 0, args, 5, extra.length);
    String[] withNoWait = java.util.Arrays.copyOf(args, args.length + 1);
    withNoWait[args.length] = "--no-wait";
    return Launcher.run(Map.of(), withNoWait);
  }

  private static void assertDemoOutput(Launcher.Result result, Path dir) throws IOException {
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout())
        .contains("[1/6]", "[2/6]", "[3/6]", "[4/6]", "[5/6]", "[6/6]")
        .contains("16/16 GETs byte-exact with 2 of 6 repositories gone")
        .contains("PUT during the outage: ok")
        .contains("unrecoverable objects: none")
        .contains("16/16 GETs byte-exact with two *other* repositories gone")
        .contains("aws --endpoint-url http://127.0.0.1:");
    Path report = dir.resolve("demo/report/report.html");
    String html = Files.readString(report);
    assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").contains("</html>");
    assertThat(html)
        .as("self-contained: no external scripts or styles")
        .doesNotContain("<script src=", "<link ");
    assertThat(dir.resolve("demo/report/results.json")).exists();
  }

  @Test
  void demo_onLocalDirectories_completes(@TempDir Path dir) throws IOException {
    assertDemoOutput(demo(dir), dir);
  }

  @Test
  void demo_onSixMinioServers_completes(@TempDir Path dir) throws IOException {
    Launcher.Result result = demo(dir, "--minio", "6");
    assertDemoOutput(result, dir);
    assertThat(result.stdout()).contains("starting 6 MinIO servers");
  }
}
