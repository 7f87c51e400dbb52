package io.racs.bench.external;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.cpu.CpuTrace;
import io.racs.bench.report.Compare;
import io.racs.bench.report.JsonReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The analysis of scripts/bench-vs-warp.sh: per operation and round, warp's throughput and
 * racs-bench's, and each tool's client CPU per operation over its steady measurement interval.
 * warp's interval runs from 1 s after its warm-up to 1 s before its last operation ended, with the
 * operations counted from its benchdata; racs-bench's is the windows of its valid measured
 * iterations, with their counts from its results.json. The CPU is each tool process's, from a
 * {@link CpuTrace} beside its output.
 *
 * <p>The run directory holds, per operation {@code OP} (put, get) and round {@code R}: {@code
 * warp-OP-rR.out} (warp's output), {@code warp-OP-rR.tsv} (its benchdata, decompressed), {@code
 * warp-OP-rR.cpu} and {@code racs-OP-rR.cpu} (the traces), and {@code racs-OP-rR/results.json}.
 */
public final class VersusWarp {
  private static final String FORMAT = "%-4s %-6s %10s %10s %8s %12s %12s %8s %10s %10s";

  private VersusWarp() {}

  /** warp's figures of one run. */
  private record Warp(double reported, double steady, double cpuPerOp, double cores) {}

  /** racs-bench's figures of one run. */
  private record Racs(
      double mean, double halfWidth, double windows, double cpuPerOp, double cores) {}

  /**
   * Analyses the runs in {@code dir}, writes {@code summary.txt} and {@code summary.json} there,
   * and returns the summary's text.
   *
   * @param warmupSeconds the warm-up warp ran before its measured time
   * @throws IllegalArgumentException when a file is missing or not what it should be
   */
  public static String analyse(Path dir, int rounds, double warmupSeconds) {
    List<String> lines = new ArrayList<>();
    lines.add(
        line(
            "op",
            "round",
            "warp op/s",
            "racs op/s",
            "ratio",
            "warp CPU/op",
            "racs CPU/op",
            "ratio",
            "warp CPU",
            "racs CPU"));
    lines.add(
        line(
            "",
            "",
            "(reported)",
            "(mean)",
            "racs/warp",
            "(ms)",
            "(ms)",
            "racs/warp",
            "(cores)",
            "(cores)"));
    ObjectNode summary = JsonReport.MAPPER.createObjectNode();
    for (String op : List.of("put", "get")) {
      double logThroughput = 0;
      double logCpu = 0;
      ArrayNode runs = summary.putArray(op);
      for (int r = 1; r <= rounds; r++) {
        Warp w = warp(dir, op, r, warmupSeconds);
        Racs x = racs(dir, op, r);
        logThroughput += Math.log(x.mean() / w.reported());
        logCpu += Math.log(x.cpuPerOp() / w.cpuPerOp());
        lines.add(
            line(
                op,
                Integer.toString(r),
                f("%.1f", w.reported()),
                f("%.1f", x.mean()),
                f("%.3f", x.mean() / w.reported()),
                f("%.2f", w.cpuPerOp() * 1e3),
                f("%.2f", x.cpuPerOp() * 1e3),
                f("%.3f", x.cpuPerOp() / w.cpuPerOp()),
                f("%.2f", w.cores()),
                f("%.2f", x.cores())));
        ObjectNode run = runs.addObject();
        run.put("round", r);
        run.put("warpOpsPerSecond", w.reported());
        run.put("warpOpsPerSecondSteady", w.steady());
        run.put("warpCpuMillisPerOp", w.cpuPerOp() * 1e3);
        run.put("warpCpuCores", w.cores());
        run.put("racsOpsPerSecond", x.mean());
        if (Double.isNaN(x.halfWidth())) {
          run.putNull("racsOpsPerSecondHalfWidth"); // one iteration: no interval
        } else {
          run.put("racsOpsPerSecondHalfWidth", x.halfWidth());
        }
        run.put("racsOpsPerSecondWindows", x.windows());
        run.put("racsCpuMillisPerOp", x.cpuPerOp() * 1e3);
        run.put("racsCpuCores", x.cores());
      }
      lines.add(
          line(
              op,
              "geomean",
              "",
              "",
              f("%.3f", Math.exp(logThroughput / rounds)),
              "",
              "",
              f("%.3f", Math.exp(logCpu / rounds)),
              "",
              ""));
    }
    String text = String.join("\n", lines);
    try {
      Files.writeString(dir.resolve("summary.txt"), text + "\n");
      Files.writeString(dir.resolve("summary.json"), summary.toPrettyString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text;
  }

  private static Warp warp(Path dir, String op, int round, double warmupSeconds) {
    String name = "warp-" + op + "-r" + round;
    double reported = WarpOutput.averageObjectsPerSecond(dir.resolve(name + ".out"), op);
    List<WarpOutput.Operation> ops = WarpOutput.operations(dir.resolve(name + ".tsv"), op);
    if (ops.isEmpty()) {
      throw new IllegalArgumentException(
          dir.resolve(name + ".tsv") + ": no " + op + " without an error");
    }
    double a =
        ops.stream().mapToDouble(WarpOutput.Operation::startSeconds).min().orElseThrow()
            + warmupSeconds
            + 1.0;
    double b = ops.stream().mapToDouble(WarpOutput.Operation::endSeconds).max().orElseThrow() - 1.0;
    long n = ops.stream().filter(o -> a <= o.endSeconds() && o.endSeconds() <= b).count();
    double cpu = CpuTrace.read(dir.resolve(name + ".cpu")).between(a, b);
    return new Warp(reported, n / (b - a), cpu / n, cpu / (b - a));
  }

  private static Racs racs(Path dir, String op, int round) {
    String name = "racs-" + op + "-r" + round;
    JsonNode point = Compare.read(dir.resolve(name).resolve("results.json")).path("points").path(0);
    JsonNode throughput = point.path("throughput").path("opsPerSecond");
    CpuTrace trace = CpuTrace.read(dir.resolve(name + ".cpu"));
    double cpu = 0;
    double ops = 0;
    double seconds = 0;
    for (JsonNode it : point.path("iterations")) {
      if (!it.path("valid").asBoolean()) {
        continue;
      }
      double a =
          it.path("startEpochMillis").asDouble() / 1000 + it.path("windowStartSeconds").asDouble();
      double b = a + it.path("windowSeconds").asDouble();
      cpu += trace.between(a, b);
      ops += it.path("ops").asDouble();
      seconds += it.path("windowSeconds").asDouble();
    }
    if (ops == 0) {
      throw new IllegalArgumentException(
          dir.resolve(name) + ": no valid measured iteration (expected: racs bench object output)");
    }
    return new Racs(
        throughput.path("mean").asDouble(),
        throughput.path("halfWidth").asDouble(Double.NaN),
        ops / seconds,
        cpu / ops,
        cpu / seconds);
  }

  private static String line(String... cells) {
    return String.format(Locale.ROOT, FORMAT, (Object[]) cells);
  }

  private static String f(String format, double value) {
    return String.format(Locale.ROOT, format, value);
  }
}
