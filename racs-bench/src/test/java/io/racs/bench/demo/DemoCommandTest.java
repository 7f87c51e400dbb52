package io.racs.bench.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Proves {@code racs demo} refuses a bad {@code --proxies}, {@code --zookeeper}, a {@code --listen}
 * with no room for the proxies' consecutive ports, or {@code --clouds} with {@code --minio} with
 * one line and the usage exit code, before it creates its directory or runs anything.
 */
class DemoCommandTest {
  @TempDir Path tmp;

  @Test
  void call_whenProxiesOrZookeeperAreBad_exitsUsageInOneLine_andCreatesNothing() {
    AtomicInteger benches = new AtomicInteger();
    Path dir = tmp.resolve("demo");
    for (List<String> bad :
        List.of(
            List.of("--proxies", "0"),
            List.of("--proxies", "10"),
            List.of("--proxies", "-1"),
            List.of("--zookeeper", "127.0.0.1:2181"),
            List.of("--proxies", "3", "--zookeeper", " "),
            List.of("--proxies", "3", "--listen", "127.0.0.1:65534"),
            List.of("--clouds", "--minio", "6"))) {
      StringWriter err = new StringWriter();
      CommandLine cli =
          ExitCodes.document(
              new CommandLine(
                  new DemoCommand(
                      (out, e, args) -> {
                        benches.incrementAndGet();
                        return ExitCodes.OK;
                      })));
      cli.setOut(new PrintWriter(new StringWriter(), true));
      cli.setErr(new PrintWriter(err, true));
      List<String> args = new ArrayList<>(List.of("--dir", dir.toString(), "--no-wait"));
      args.addAll(bad);
      assertThat(cli.execute(args.toArray(String[]::new))).as("%s", bad).isEqualTo(ExitCodes.USAGE);
      assertThat(err.toString().strip().lines()).as(err.toString()).hasSize(1);
      assertThat(err.toString()).contains(bad.get(bad.size() - 2) + ": ").contains("(expected: ");
      assertThat(dir).as("%s", bad).doesNotExist();
    }
    assertThat(benches).hasValue(0);
  }

  @Test
  void run_whenProxiesIsNotANumber_exitsUsageInOneLine() {
    StringWriter err = new StringWriter();
    Path dir = tmp.resolve("demo");
    int code =
        BenchMain.run(
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true),
            "demo",
            "--dir",
            dir.toString(),
            "--proxies",
            "three");
    assertThat(code).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString().strip().lines())
        .as(err.toString())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("racs bench demo: ")
        .contains("--proxies", "three");
    assertThat(dir).doesNotExist();
  }
}
