package io.racs.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.cli.ExitCodes;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs bench probes} summarises curl-timed requests (curl's {@code %{http_code}
 * %{time_total}} lines) as a markdown row: the count, nearest-rank p50 and p99, the max, the
 * answers that were not 2xx (000, no answer, among them) and the count by status; and refuses a
 * file that is not such lines in one line.
 */
class ProbesCommandTest {
  @TempDir Path dir;

  @Test
  void probes_printARowPerFile() throws IOException {
    Path probe = dir.resolve("probe-stopped-3.txt");
    StringBuilder lines = new StringBuilder();
    for (int i = 1; i <= 10; i++) {
      lines.append(i <= 8 ? "503" : "000").append(' ').append(i / 1000.0).append('\n');
    }
    Files.writeString(probe, lines);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(BenchCli.run(out, err, "probes", probe.toString())).isEqualTo(ExitCodes.OK);
    assertThat(out.toString().lines())
        .containsExactly(
            "| probe | operations | p50 ms | p99 ms | max ms | errors | answers by status |",
            "|---|---|---|---|---|---|---|",
            "| probe-stopped-3 | 10 | 6.0 | 10.0 | 10.0 | 10 | 000 2 503 8 |");
  }

  @Test
  void probes_whenInputIsBad_exitsUsageInOneLine() throws IOException {
    Files.writeString(dir.resolve("bad.txt"), "200 fast\n");
    Files.writeString(dir.resolve("empty.txt"), "");
    BenchCli.assertEachRefusedInOneLine(
        "probes",
        List.of(
            List.of(dir.resolve("bad.txt").toString()),
            List.of(dir.resolve("empty.txt").toString()),
            List.of(dir.resolve("missing.txt").toString())));
  }
}
