package io.racs.bench.report;

import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.PointResult;
import io.racs.bench.object.run.Ratios;
import io.racs.bench.object.run.RunResult;
import io.racs.bench.stats.LatencySummary;
import io.racs.repos.price.PriceBook;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The table printed at the end of a run: one line per point, then ratios and notes. An interval
 * wider than its mean is marked {@code (!)} and explained in a note under its line.
 */
public final class ConsoleTable {
  private ConsoleTable() {}

  /** Prints {@code result} to {@code out}. */
  public static void print(RunResult result, PrintWriter out) {
    print(result, out, PriceBook.awsDefault());
  }

  /** Prints {@code result} to {@code out}, the costs of array points at {@code prices}. */
  public static void print(RunResult result, PrintWriter out, PriceBook prices) {
    String format = "%-40s %22s %18s %9s %9s %9s %9s %7s %5s%n";
    String ci = Format.percent(result.plan.confidence()) + " CI";
    out.printf(
        Locale.ROOT,
        format,
        "point",
        "ops/s (" + ci + ")",
        "MB/s",
        "p50 ms",
        "p99 ms",
        "p99.9 ms",
        "max ms",
        "errors",
        "cpu");
    for (PointResult p : result.points) {
      IterationResult all = p.merged();
      LatencySummary l = LatencySummary.of(all.latency);
      out.printf(
          Locale.ROOT,
          format,
          p.id(),
          p.opsPerSecond().map(ConsoleTable::estimate).orElse("no valid window"),
          p.megabytesPerSecond().map(ConsoleTable::estimate).orElse("-"),
          Format.number(l.p50()),
          Format.number(l.p99()),
          Format.number(l.p999()),
          Format.number(l.max()),
          all.errorCount(),
          Double.isNaN(p.maxCpuUtilisation())
              ? "n/a"
              : String.format(Locale.ROOT, "%.0f%%", 100 * p.maxCpuUtilisation()));
      if (p.workload.openLoop()) {
        LatencySummary c = LatencySummary.of(all.corrected);
        out.printf(
            Locale.ROOT,
            "%-40s corrected for coordinated omission: p50 %s  p99 %s  p99.9 %s  max %s ms%n",
            "",
            Format.number(c.p50()),
            Format.number(c.p99()),
            Format.number(c.p999()),
            Format.number(c.max()));
      }
      if (!all.errors.isEmpty()) {
        out.printf(Locale.ROOT, "%-40s errors by kind: %s%n", "", all.errors);
      }
      if (!all.expectedMisses.isEmpty()) {
        out.printf(
            Locale.ROOT,
            "%-40s expected misses (not errors): %s reads of keys the mix's own DELETEs removed%n",
            "",
            all.expectedMisses);
      }
      for (String note : p.notes) {
        out.printf(Locale.ROOT, "%-40s %s%n", "", note);
      }
      p.opsPerSecond()
          .flatMap(e -> Format.wideInterval("ops/s", e))
          .ifPresent(note -> out.printf(Locale.ROOT, "%-40s (!) %s%n", "", note));
      p.megabytesPerSecond()
          .flatMap(e -> Format.wideInterval("MB/s", e))
          .ifPresent(note -> out.printf(Locale.ROOT, "%-40s (!) %s%n", "", note));
    }
    if (!result.ratios.isEmpty()) {
      out.println();
      out.printf(
          Locale.ROOT,
          "%-18s %-40s %-40s %s%n",
          "ratio",
          "numerator",
          "denominator",
          "value (" + ci + ")");
      for (Ratios.Row r : result.ratios) {
        java.util.Optional<String> wide = Format.wideInterval(r.kind(), r.ratio());
        out.printf(
            Locale.ROOT,
            "%-18s %-40s %-40s %s ± %s%s%n",
            r.kind(),
            r.numerator(),
            r.denominator(),
            Format.number(r.ratio().value()),
            Double.isNaN(r.ratio().halfWidth()) ? "n/a" : Format.number(r.ratio().halfWidth()),
            wide.isPresent() ? " (!)" : "");
        wide.ifPresent(note -> out.printf(Locale.ROOT, "%-18s (!) %s%n", "", note));
      }
    }
    CostTable.print(result, prices, out);
    for (String note : result.notes) {
      out.println("note: " + note);
    }
    out.flush();
  }

  /** An estimate as {@link Format#estimate}, marked {@code (!)} when its interval is too wide. */
  private static String estimate(io.racs.bench.stats.Estimate e) {
    return Format.estimate(e) + (Format.wideInterval("", e).isPresent() ? " (!)" : "");
  }
}
