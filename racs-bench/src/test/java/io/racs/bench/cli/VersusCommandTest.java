package io.racs.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.report.JsonReport;
import io.racs.proxy.cli.ExitCodes;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs bench versus} reads what fio and warp write (recorded samples of their output:
 * fio 3.33's JSON, warp's text and benchdata) beside racs-bench's results, and prints
 * scripts/bench-vs-fio.sh's and scripts/bench-vs-warp.sh's tables: fio's figure per direction, the
 * geometric mean of per-run ratios with its interval; warp's steady interval and each tool's CPU
 * per operation over its own window; and refuses bad input in one line.
 */
class VersusCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private static byte[] fixture(String name) throws IOException {
    try (InputStream in =
        VersusCommandTest.class.getResourceAsStream("/io/racs/bench/external/" + name)) {
      return in.readAllBytes();
    }
  }

  /** The recorded fio output with its read IOPS set to {@code iops}. */
  private void fio(String name, double iops) throws IOException {
    ObjectNode root = (ObjectNode) JsonReport.MAPPER.readTree(fixture("fio-randread.json"));
    ((ObjectNode) root.path("jobs").path(0).path("read")).put("iops", iops);
    Files.writeString(dir.resolve(name), root.toPrettyString());
  }

  /** The recorded block sweep results with its IOPS set to {@code iops}. */
  private void sweep(String name, double iops) throws IOException {
    ObjectNode root = (ObjectNode) JsonReport.MAPPER.readTree(fixture("sweep-randread.json"));
    ((ObjectNode) root.path("points").path(0)).put("iops", iops);
    Files.createDirectories(dir.resolve(name));
    Files.writeString(dir.resolve(name).resolve("results.json"), root.toPrettyString());
  }

  /** {@code racs bench versus fio} over {@code runs} runs of randread at one thread. */
  private int versusFio(int runs) {
    return BenchCli.run(
        out,
        err,
        "versus",
        "fio",
        dir.toString(),
        "--runs",
        Integer.toString(runs),
        "--threads",
        "1",
        "--patterns",
        "randread");
  }

  @Test
  void fio_overTwoRuns_printsMeansAndTheGeometricMeanOfThePerRunRatios() throws IOException {
    // racs-bench at 0.9 and 1.1 of fio: geometric mean sqrt(0.99) = 0.99; of fio --thread, 1.0.
    fio("fio-randread-t1-r1.json", 1000);
    fio("fio-randread-t1-r2.json", 2000);
    fio("fiothread-randread-t1-r1.json", 900);
    fio("fiothread-randread-t1-r2.json", 2200);
    sweep("racs-randread-t1-r1", 900);
    sweep("racs-randread-t1-r2", 2200);
    int code = versusFio(2);
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    List<String> lines = out.toString().lines().toList();
    assertThat(lines.get(0)).startsWith("point ").contains("racs/fio", "95% CI", "racs/fio-T");
    String row = lines.get(1);
    assertThat(row.split("\\s+"))
        .startsWith("randread/4KiB/t1", "IOPS", "1500", "1550", "1550", "0.99");
    // t(0.975, 1) = 12.706 over the log ratios ln 0.9 and ln 1.1: 0.28-3.56; best 2200 / 2000.
    assertThat(row.split("\\s+")).endsWith("0.28-3.56", "1.10", "1.00", "1.00-1.00");
  }

  @Test
  void fio_whenAtLeastOneRatioIsLow_flagsTheRow() throws IOException {
    fio("fio-randread-t1-r1.json", 1000);
    fio("fiothread-randread-t1-r1.json", 1000);
    sweep("racs-randread-t1-r1", 800);
    assertThat(versusFio(1)).isEqualTo(ExitCodes.OK);
    assertThat(out.toString().lines().toList().get(1)).contains(" n/a ").endsWith("  < 0.95");
  }

  /** A trace of {@code cpuPerSecond} CPU seconds a second from T0 - 1 s to T0 + 20 s. */
  private void trace(String name, double t0, double cpuPerSecond) throws IOException {
    StringBuilder lines = new StringBuilder();
    for (int i = -10; i <= 200; i++) {
      double t = t0 + i / 10.0;
      lines.append(String.format(Locale.ROOT, "%.4f %.4f%n", t, (i + 10) / 10.0 * cpuPerSecond));
    }
    Files.writeString(dir.resolve(name), lines);
  }

  @Test
  void warp_readsItsOutputAndBenchdataAndSetsTheCpuOfEachWindowSideBySide() throws IOException {
    double t0 = Instant.parse("2026-11-23T20:09:30Z").getEpochSecond();
    for (String op : List.of("put", "get")) {
      Files.write(dir.resolve("warp-" + op + "-r1.out"), fixture("warp-" + op + ".out"));
      Files.write(dir.resolve("warp-" + op + "-r1.tsv"), fixture("warp-benchdata.tsv"));
      trace("warp-" + op + "-r1.cpu", t0, 0.1);
      trace("racs-" + op + "-r1.cpu", t0, 0.2);
      Files.createDirectories(dir.resolve("racs-" + op + "-r1"));
      Files.writeString(
          dir.resolve("racs-" + op + "-r1").resolve("results.json"),
          """
          {"schemaVersion": 2, "kind": "object", "points": [{"id": "minio/%s/1MiB/c8/d0ms",
            "throughput": {"opsPerSecond": {"mean": 10.0, "halfWidth": 0.5}},
            "iterations": [
              {"valid": false, "startEpochMillis": %d, "windowStartSeconds": 0,
               "windowSeconds": 1, "ops": 99},
              {"valid": true, "startEpochMillis": %d, "windowStartSeconds": 1.0,
               "windowSeconds": 4.0, "ops": 40}]}]}
          """
              .formatted(op, (long) t0 * 1000, (long) t0 * 1000));
    }
    int code = BenchCli.run(out, err, "versus", "warp", dir.toString(), "--rounds", "1");
    assertThat(code).as(err.toString()).isEqualTo(ExitCodes.OK);
    List<String> lines = out.toString().lines().toList();
    assertThat(lines).hasSize(2 + 2 * 2);
    // warp: its steady interval from 1 s after the first start (T0 + 1.5) to 1 s before the last
    // end (T0 + 9): 8 PUTs ended in it (the failed one is not counted), 0.75 CPU seconds, 93.75
    // ms each; racs-bench: 0.8 CPU seconds over its valid window's 40 operations, 20 ms each.
    assertThat(lines.get(2).split("\\s+"))
        .containsExactly(
            "put", "1", "125.0", "10.0", "0.080", "93.75", "20.00", "0.213", "0.10", "0.20");
    assertThat(lines.get(3).split("\\s+")).containsExactly("put", "geomean", "0.080", "0.213");
    assertThat(lines.get(4).split("\\s+")).startsWith("get", "1", "250.5", "10.0", "0.040");
    assertThat(Files.readAllLines(dir.resolve("summary.txt"))).isEqualTo(lines);
    JsonNode summary = JsonReport.MAPPER.readTree(dir.resolve("summary.json").toFile());
    assertThat(summary.path("put").path(0).path("warpOpsPerSecondSteady").asDouble())
        .isCloseTo(8 / 7.5, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(summary.path("put").path(0).path("racsOpsPerSecondWindows").asDouble())
        .isEqualTo(10.0);
  }

  @Test
  void versus_whenInputIsBad_exitsUsageInOneLine() throws IOException {
    Files.writeString(dir.resolve("warp-put-r1.out"), "no average here\n");
    BenchCli.assertEachRefusedInOneLine(
        "versus",
        List.of(
            List.of("fio", dir.toString(), "--runs", "0"),
            List.of("fio", dir.toString(), "--patterns", "sideways"),
            List.of("fio", dir.toString(), "--runs", "1", "--threads", "1"),
            List.of("warp", dir.toString(), "--rounds", "1"),
            List.of("warp", dir.toString(), "--warmup-millis", "-1")));
  }
}
