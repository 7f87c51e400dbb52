package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Proves {@code ./racs demo} does what the README promises, as a new user runs it (but for shorter
 * bench iterations, {@link #BENCH_DURATION}): the proxy over six repositories (local directories,
 * and six real MinIO processes with {@code --minio 6}), a bench whose report is a self-contained
 * HTML page with charts, reads and writes surviving two lost repositories, and a heal that restores
 * full redundancy; with {@code --proxies 3}, three proxies over the same repositories coordinated
 * through an embedded ZooKeeper, their membership and leader as {@code /health/ready} reports them,
 * objects read back through another proxy than wrote them, and the leader stopped while another
 * takes over and the rest keep serving every object; and a bad {@code --proxies} refused in one
 * line, exit 2, before anything is created.
 */
@Isolated
class DemoIT {
  /**
   * The bench's iteration length in every demo here: what the assertions check (each step, the
   * report) does not depend on it, and the default 2 s would spend 24 more seconds a demo (two
   * targets, two client counts, six iterations each). ReportBrowserIT runs the demo at 1 s too.
   */
  private static final String BENCH_DURATION = "1s";

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
        .contains("aws --endpoint-url http://127.0.0.1:")
        // The array is compared with one directory behind the same S3 front end.
        .contains("what racs-proxy/one-dir compares: both are the same S3 front end");
    Path report = dir.resolve("demo/report/report.html");
    String html = Files.readString(report);
    assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").contains("</html>");
    assertThat(html)
        .as("self-contained: no external scripts or styles")
        .doesNotContain("<script src=", "<link ");
    assertThat(dir.resolve("demo/report/results.json")).exists();
    // The story is not interleaved with the proxy's log: that goes to demo/proxy.log.
    assertThat(result.stderr().lines())
        .as(result.stderr())
        .noneMatch(
            line ->
                line.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} +(TRACE|DEBUG|INFO|WARN|ERROR) .*"));
    assertThat(result.stdout()).contains("proxy log:");
    assertThat(dir.resolve("demo/proxy.log")).exists();
  }

  @Test
  void demo_onLocalDirectories_completes(@TempDir Path dir) throws IOException {
    assertDemoOutput(demo(dir, "--duration", BENCH_DURATION), dir);
  }

  @Test
  void demo_withThreeProxies_showsMembershipAndLeader_andServesAfterTheLeaderStops(
      @TempDir Path dir) throws IOException {
    Launcher.Result result = demo(dir, "--proxies", "3", "--duration", BENCH_DURATION);
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    String out = result.stdout();
    assertThat(out)
        .contains("[1/7]", "[2/7]", "[3/7]", "[4/7]", "[5/7]", "[6/7]", "[7/7]")
        .containsPattern("starting an embedded ZooKeeper at 127\\.0\\.0\\.1:\\d+")
        .contains("front: no load balancer; the demo sends its requests round robin")
        .contains("16/16 GETs byte-exact, none through the proxy that wrote it")
        .contains("16/16 GETs byte-exact through the 2 remaining proxies")
        .contains("PUT after the failover: ok");
    // Membership as the first proxy's /health/ready lists it: all three, by id and S3 address.
    Matcher members = Pattern.compile("members, from proxy-1's /health/ready: (.*)").matcher(out);
    assertThat(members.find()).as(out).isTrue();
    for (int i = 1; i <= 3; i++) {
      Matcher endpoint =
          Pattern.compile("proxy-" + i + " {2}S3 at http://(127\\.0\\.0\\.1:\\d+)").matcher(out);
      assertThat(endpoint.find()).as(out).isTrue();
      assertThat(members.group(1)).contains("proxy-" + i + " (" + endpoint.group(1) + ")");
    }
    // The leader named before is the one stopped, and the new one is another, agreed by both
    // survivors (the demo waits for that), and listed among exactly the two that remain.
    Matcher leader = Pattern.compile("leader \\(runs scrub and heal\\): (proxy-\\d)").matcher(out);
    assertThat(leader.find()).isTrue();
    String first = leader.group(1);
    assertThat(out).contains("stopping the leader, " + first);
    Matcher moved = Pattern.compile("leadership moved: (proxy-\\d) -> (proxy-\\d)").matcher(out);
    assertThat(moved.find()).as(out).isTrue();
    assertThat(moved.group(1)).isEqualTo(first);
    assertThat(moved.group(2)).isNotEqualTo(first);
    assertThat(leader.find()).isTrue();
    assertThat(leader.group(1)).isEqualTo(moved.group(2));
    Matcher after = Pattern.compile("members, from (proxy-\\d)'s /health/ready: (.*)").matcher(out);
    assertThat(after.find() && after.find()).as(out).isTrue();
    assertThat(after.group(2)).doesNotContain(first + " (").contains(moved.group(2) + " (");
    assertThat(after.group(2).split(", ")).hasSize(2);
    // The bench drove all three endpoints as one round-robin target.
    assertThat(dir.resolve("demo/report/results.json")).exists();
    assertThat(out).contains("racs-3-proxies/mixed/1MiB/c8");
  }

  @Test
  void demo_withBadProxies_isRefusedInOneLine_beforeAnythingIsCreated(@TempDir Path dir) {
    for (String[] bad :
        List.of(
            new String[] {"--proxies", "0"},
            new String[] {"--proxies", "10"},
            new String[] {"--zookeeper", "127.0.0.1:2181"})) {
      Launcher.Result result = demo(dir, bad);
      assertThat(result.exitCode()).as(String.join(" ", bad)).isEqualTo(2);
      assertThat(result.stderr().strip().lines())
          .as(result.stderr())
          .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
          .startsWith("racs bench demo: " + bad[0] + ": " + bad[1] + " (expected: ");
      assertThat(dir.resolve("demo")).doesNotExist();
    }
  }

  @Test
  void demo_onSixMinioServers_completes(@TempDir Path dir) throws IOException {
    Launcher.Result result = demo(dir, "--minio", "6", "--duration", BENCH_DURATION);
    assertDemoOutput(result, dir);
    assertThat(result.stdout()).contains("starting 6 MinIO servers");
  }
}
