package io.racs.bench.external;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.bench.report.Compare;
import io.racs.bench.stats.Estimate;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The table of scripts/bench-vs-fio.sh: per pattern and thread count, fio's figure (its jobs as
 * processes, and with {@code --thread}), racs-bench's ({@code racs bench block sweep}), and
 * racs-bench over each fio as the geometric mean of the per-run ratios (the tools of a run ran back
 * to back) with its 95% Student-t interval on the log ratios. Sequential patterns compare MB/s,
 * random ones IOPS.
 *
 * <p>The raw directory holds, per pattern {@code P}, threads {@code T} and run {@code R}: {@code
 * fio-P-tT-rR.json}, {@code fiothread-P-tT-rR.json} and {@code racs-P-tT-rR/results.json}.
 */
public final class VersusFio {
  /** Below this racs-bench/fio ratio a row is flagged. */
  static final double FLAG_BELOW = 0.95;

  private VersusFio() {}

  /** A ratio and its interval as text ({@code n/a} with one run). */
  private record Paired(double ratio, String interval) {}

  /**
   * Prints the table of the runs in {@code raw}.
   *
   * @throws IllegalArgumentException when a file is missing or not what it should be
   */
  public static void print(
      Path raw, int runs, List<Integer> threads, List<String> patterns, PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "%-19s %-4s %7s %7s %7s %8s %9s %5s %10s %9s%n",
        "point",
        "unit",
        "fio",
        "fio -T",
        "racs",
        "racs/fio",
        "95% CI",
        "best",
        "racs/fio-T",
        "95% CI");
    for (int t : threads) {
      for (String p : patterns) {
        double[] fio = new double[runs];
        double[] fioThread = new double[runs];
        double[] racs = new double[runs];
        for (int r = 1; r <= runs; r++) {
          fio[r - 1] = fio(raw, "fio", p, t, r);
          fioThread[r - 1] = fio(raw, "fiothread", p, t, r);
          racs[r - 1] = racs(raw, p, t, r);
        }
        Paired ratio = paired(racs, fio);
        Paired ratioThread = paired(racs, fioThread);
        double best =
            Arrays.stream(racs).max().orElseThrow() / Arrays.stream(fio).max().orElseThrow();
        boolean sequential = p.startsWith("seq");
        String name = p + "/" + (sequential ? "1MiB" : "4KiB") + "/t" + t;
        out.printf(
            Locale.ROOT,
            "%-19s %-4s %7.0f %7.0f %7.0f %8.2f %9s %5.2f %10.2f %9s%s%n",
            name,
            sequential ? "MB/s" : "IOPS",
            mean(fio),
            mean(fioThread),
            mean(racs),
            ratio.ratio(),
            ratio.interval(),
            best,
            ratioThread.ratio(),
            ratioThread.interval(),
            ratio.ratio() >= FLAG_BELOW ? "" : "  < " + FLAG_BELOW);
      }
    }
    out.println();
    out.println(
        "fio: fio's jobs as processes (its default); fio -T: fio --thread, its jobs as threads of");
    out.println(
        "one process, as racs-bench's are. Means over the runs; ratios: geometric mean of the");
    out.println(
        "per-run ratios (the tools of a run ran back to back) with a 95% t interval; best:");
    out.println("racs-bench's best run over fio's best run.");
    out.flush();
  }

  private static double fio(Path raw, String tool, String pattern, int threads, int run) {
    FioJson fio = FioJson.read(raw.resolve(tool + "-" + point(pattern, threads, run) + ".json"));
    boolean write = pattern.contains("write");
    return pattern.startsWith("seq") ? fio.megabytesPerSecond(write) : fio.iops(write);
  }

  private static double racs(Path raw, String pattern, int threads, int run) {
    Path file = raw.resolve("racs-" + point(pattern, threads, run)).resolve("results.json");
    JsonNode point = Compare.read(file).path("points").path(0);
    JsonNode value = point.path(pattern.startsWith("seq") ? "megabytesPerSecond" : "iops");
    if (!value.isNumber()) {
      throw new IllegalArgumentException(file + ": no block sweep point (expected: one)");
    }
    return value.asDouble();
  }

  private static String point(String pattern, int threads, int run) {
    return pattern + "-t" + threads + "-r" + run;
  }

  /** The geometric mean of ours[i] / theirs[i] with its 95% interval (t on the log ratios). */
  private static Paired paired(double[] ours, double[] theirs) {
    double[] logs = new double[ours.length];
    for (int i = 0; i < logs.length; i++) {
      logs[i] = Math.log(ours[i] / theirs[i]);
    }
    Estimate e = Estimate.atConfidence(0.95, logs);
    if (e.n() < 2) {
      return new Paired(Math.exp(e.mean()), "n/a");
    }
    return new Paired(
        Math.exp(e.mean()),
        String.format(Locale.ROOT, "%.2f-%.2f", Math.exp(e.low()), Math.exp(e.high())));
  }

  private static double mean(double[] values) {
    return Arrays.stream(values).average().orElseThrow();
  }
}
