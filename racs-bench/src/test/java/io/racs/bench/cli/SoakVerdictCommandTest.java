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
 * Proves {@code racs bench soak-verdict} passes a soak whose bench runs had no error and whose
 * proxy stayed within its growth bounds after warm-up, fails it (exit 1, each reason listed) for a
 * wrong answer, growth past a bound (the smallest of the last three samples over the largest of the
 * first three after warm-up, so that one spike does not count) or an ERROR line, and refuses bad
 * input in one line.
 */
class SoakVerdictCommandTest {
  @TempDir Path work;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private void bench(String name, String mix, long ops, String errors) throws IOException {
    Path dir = Files.createDirectories(work.resolve("bench-" + name));
    long total = errors.isEmpty() ? 0 : Long.parseLong(errors.replaceAll(".*: ", ""));
    Files.writeString(
        dir.resolve("results.json"),
        """
        {"schemaVersion": 2, "kind": "object", "points": [{"id": "%s/mixed/1KiB/c4/d0ms",
          "mix": "%s", "ops": %d, "errorsTotal": %d, "errors": {%s}, "verifiedObjects": 55,
          "throughput": {"opsPerSecond": {"mean": 12.25, "halfWidth": null}}}]}
        """
            .formatted(name, mix, ops, total, errors));
  }

  /** Samples every 10 s over 200 s: RSS 100 MiB plus {@code rssStepKib} per sample, 40 fds. */
  private Path samples(long rssStepKib, boolean spike) throws IOException {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i <= 20; i++) {
      long rss = 102400 + i * rssStepKib + (spike && i == 19 ? 512000 : 0);
      lines.append(i * 10).append('\t').append(rss).append('\t').append(40).append('\n');
    }
    Path file = work.resolve("samples.tsv");
    Files.writeString(file, lines);
    return file;
  }

  private int verdict(Path samples, String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(work.toString(), "--samples", samples.toString(), "--seconds", "200"));
    args.addAll(List.of(more));
    return BenchCli.run(out, err, "soak-verdict", args.toArray(String[]::new));
  }

  @Test
  void verdict_ofACleanSoak_passesAndPrintsTheSummary() throws IOException {
    bench("verify", "get=55,put=25,head=10,list=10", 1200, "");
    bench("churn", "put=50,delete=50", 600, "");
    Files.writeString(work.resolve("racs.log"), "12:00:00.000 INFO  serving\n");
    assertThat(verdict(samples(0, true))).as(out.toString()).isEqualTo(ExitCodes.OK);
    assertThat(out.toString().lines())
        .containsExactly(
            "soak summary",
            "  bench verify: get=55,put=25,head=10,list=10: 1200 ops (12.3/s), 55 GETs verified,"
                + " errors: none",
            "  bench churn: put=50,delete=50: 600 ops (12.3/s), 55 GETs verified, errors: none",
            "  samples: 21 (every few seconds), warm-up: first 60 s",
            "  proxy RSS: start 100 MiB, max 600 MiB, end 100 MiB; open fds: start 40, max 40,"
                + " end 40",
            "  growth after warm-up: RSS +0.0 MiB (bound 64), fds +0 (bound 32)",
            "  proxy log: 0 ERROR, 0 WARN lines",
            "soak: passed");
  }

  @Test
  void verdict_ofAWrongAnswerGrowthAndAnErrorLine_failsWithEachReason() throws IOException {
    bench("verify", "get=100", 900, "\"VERIFY_MISMATCH\": 2");
    bench("churn", "put=50,delete=50", 600, "");
    Files.writeString(
        work.resolve("racs.log"), "12:00:01.000 ERROR store lost\n12:00:02.000 WARN  slow\n");
    // 5 MiB a sample: from the first three after 60 s (max 140 MiB) to the last three (min 190).
    assertThat(verdict(samples(5120, false), "--proxy-gone")).isEqualTo(ExitCodes.FAILURE);
    assertThat(out.toString())
        .contains("growth after warm-up: RSS +50.0 MiB (bound 64)")
        .contains("    12:00:01.000 ERROR store lost", "    12:00:02.000 WARN  slow")
        .endsWith(
            """
            soak: FAILED
              - bench verify: 2 wrong answers
              - bench verify: 2 errors (VERIFY_MISMATCH 2)
              - the proxy is no longer running
              - the proxy logged 1 ERROR lines
            """);
    out.getBuffer().setLength(0);
    assertThat(verdict(samples(5120, false), "--rss-growth-mib", "40"))
        .isEqualTo(ExitCodes.FAILURE);
    assertThat(out.toString()).contains("  - RSS grew 50.0 MiB after warm-up (bound 40 MiB)");
  }

  @Test
  void verdict_whenInputIsBad_exitsUsageInOneLine() throws IOException {
    Files.writeString(work.resolve("bad.tsv"), "10 lots 40\n");
    BenchCli.assertEachRefusedInOneLine(
        "soak-verdict",
        List.of(
            List.of(work.toString(), "--samples", "x", "--seconds", "0"),
            List.of(
                work.toString(),
                "--samples",
                work.resolve("bad.tsv").toString(),
                "--seconds",
                "100")));
  }
}
