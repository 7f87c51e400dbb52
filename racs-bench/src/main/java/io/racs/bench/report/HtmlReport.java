package io.racs.bench.report;

import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.PointResult;
import io.racs.bench.object.run.Ratios;
import io.racs.bench.object.run.RunResult;
import io.racs.bench.stats.Estimate;
import io.racs.bench.stats.LatencySummary;
import io.racs.repos.price.PriceBook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@code report.html}: one file, no scripts and no network, with the operations table
 * ({@link OperationTable}), inline SVG charts (throughput against clients per target and workload,
 * latency percentile curves, throughput over time), the points table, the ratio tables and the
 * notes.
 */
public final class HtmlReport {
  private static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};

  private HtmlReport() {}

  /** Writes the report to {@code file}. */
  public static void write(RunResult result, Path file) throws IOException {
    write(result, file, PriceBook.awsDefault());
  }

  /** Writes the report to {@code file}, the costs of array points at {@code prices}. */
  public static void write(RunResult result, Path file, PriceBook prices) throws IOException {
    Files.writeString(file, render(result, prices));
  }

  /** The report's HTML, costs at AWS S3 Standard's prices. */
  public static String render(RunResult result) {
    return render(result, PriceBook.awsDefault());
  }

  /** The report's HTML, the costs of array points at {@code prices}. */
  public static String render(RunResult result, PriceBook prices) {
    String ci = Format.percent(result.plan.confidence()) + " CI";
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>racs bench object")
        .append("</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:")
        .append("collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}")
        .append("td:first-child,th:first-child{text-align:left}svg{margin:4px}</style>")
        .append("</head><body>\n");
    h.append("<h1>racs bench object</h1>\n<p>")
        .append(Format.html(result.startedAt + " to " + result.finishedAt))
        .append("; command: <code>")
        .append(Format.html(String.join(" ", result.command)))
        .append("</code></p>\n");
    h.append("<h2>Targets</h2><ul>");
    result.targets.forEach(
        t ->
            h.append("<li><b>")
                .append(Format.html(t.name()))
                .append("</b> (")
                .append(t.kind())
                .append(") ")
                .append(Format.html(t.description().toString()))
                .append(t.delayable() ? "" : " — delay injection not applied")
                .append("</li>"));
    h.append("</ul>\n");
    h.append(OperationTable.html(result));
    h.append(CostTable.html(result, prices));
    Map<String, List<PointResult>> cases = new LinkedHashMap<>();
    for (PointResult p : result.points) {
      cases
          .computeIfAbsent(
              p.workloadLabel()
                  + " "
                  + p.workload.size().label()
                  + " delay "
                  + p.delay.toMillis()
                  + "ms",
              k -> new ArrayList<>())
          .add(p);
    }
    h.append("<h2>Throughput against clients</h2>\n");
    for (Map.Entry<String, List<PointResult>> c : cases.entrySet()) {
      SvgChart chart =
          new SvgChart(c.getKey(), "clients", "ops/s (mean, " + ci + ")")
              .clientTicks(c.getValue().stream().mapToInt(p -> p.workload.clients()).toArray());
      Map<String, List<PointResult>> byTarget = new LinkedHashMap<>();
      c.getValue().forEach(p -> byTarget.computeIfAbsent(p.target, k -> new ArrayList<>()).add(p));
      byTarget.forEach(
          (target, ps) -> {
            double[] x = new double[ps.size()];
            double[] y = new double[ps.size()];
            double[] e = new double[ps.size()];
            for (int i = 0; i < ps.size(); i++) {
              x[i] = ps.get(i).workload.clients();
              Estimate est = ps.get(i).opsPerSecond().orElse(null);
              y[i] = est == null ? Double.NaN : est.mean();
              e[i] = est == null ? Double.NaN : est.halfWidth();
            }
            chart.add(new SvgChart.Series(target, x, y, e));
          });
      h.append(chartOrNote(chart));
    }
    h.append("<h2>Latency percentiles</h2>\n");
    double[] positions = new double[PERCENTILES.length];
    String[] labels = new String[PERCENTILES.length];
    for (int i = 0; i < PERCENTILES.length; i++) {
      positions[i] = nines(PERCENTILES[i]);
      labels[i] = "p" + Format.number(PERCENTILES[i]).replaceAll("\\.?0+$", "");
    }
    for (Map.Entry<String, List<PointResult>> c : cases.entrySet()) {
      SvgChart chart =
          new SvgChart(c.getKey(), "percentile", "latency ms").xTicks(positions, labels);
      for (PointResult p : c.getValue()) {
        IterationResult all = p.merged();
        double[] y = new double[PERCENTILES.length];
        for (int i = 0; i < y.length; i++) {
          y[i] =
              all.latency.getTotalCount() == 0
                  ? Double.NaN
                  : all.latency.getValueAtPercentile(PERCENTILES[i]) / 1e6;
        }
        chart.add(new SvgChart.Series(p.target + " c" + p.workload.clients(), positions, y, null));
        if (p.workload.openLoop()) {
          double[] yc = new double[PERCENTILES.length];
          for (int i = 0; i < yc.length; i++) {
            yc[i] = all.corrected.getValueAtPercentile(PERCENTILES[i]) / 1e6;
          }
          chart.add(
              new SvgChart.Series(
                  p.target + " c" + p.workload.clients() + " corrected", positions, yc, null));
        }
      }
      h.append(chartOrNote(chart));
    }
    h.append("<h2>Throughput over time</h2>\n");
    long origin = result.startedAt.toEpochMilli() * 1_000_000L;
    for (Map.Entry<String, List<PointResult>> c : cases.entrySet()) {
      SvgChart chart = new SvgChart(c.getKey(), "seconds since start", "ops/s (50 ms slices)");
      for (PointResult p : c.getValue()) {
        List<double[]> xy = new ArrayList<>();
        for (IterationResult i : p.iterations) {
          long first = i.windowStartNanos / IterationResult.SLICE_NANOS + 1;
          long last = i.windowEndNanos / IterationResult.SLICE_NANOS - 1;
          for (long s = first; s <= last && s < i.sliceOps.length; s++) {
            double t = (i.startEpochNanos - origin + s * IterationResult.SLICE_NANOS) / 1e9;
            xy.add(new double[] {t, i.sliceOps[(int) s] / (IterationResult.SLICE_NANOS / 1e9)});
          }
        }
        double[] x = xy.stream().mapToDouble(a -> a[0]).toArray();
        double[] y = xy.stream().mapToDouble(a -> a[1]).toArray();
        chart.add(new SvgChart.Series(p.target + " c" + p.workload.clients(), x, y, null));
      }
      h.append(chartOrNote(chart));
    }
    h.append("<h2>Points</h2>\n<table><tr><th>point</th><th>ops/s (")
        .append(ci)
        .append(")</th><th>MB/s</th>")
        .append("<th>p50 ms</th><th>p90</th><th>p99</th><th>p99.9</th><th>p99.99</th><th>max</th>")
        .append("<th>errors</th><th>expected misses</th><th>verified</th><th>client CPU</th>")
        .append("<th>valid iterations</th>")
        .append("<th>notes</th></tr>\n");
    for (PointResult p : result.points) {
      IterationResult all = p.merged();
      LatencySummary l = LatencySummary.of(all.latency);
      h.append("<tr><td>")
          .append(Format.html(p.id()))
          .append("</td><td>")
          .append(p.opsPerSecond().map(Format::estimate).orElse("no valid window"))
          .append("</td><td>")
          .append(p.megabytesPerSecond().map(Format::estimate).orElse("-"));
      for (double v : l.ascending()) {
        h.append("</td><td>").append(Format.number(v));
      }
      h.append("</td><td>")
          .append(all.errorCount())
          .append(all.errors.isEmpty() ? "" : " " + Format.html(all.errors.toString()))
          .append("</td><td>")
          .append(all.expectedMissCount())
          .append("</td><td>")
          .append(all.verified)
          .append("</td><td>")
          .append(
              Double.isNaN(p.maxCpuUtilisation())
                  ? "n/a"
                  : String.format(Locale.ROOT, "%.0f%%", 100 * p.maxCpuUtilisation()))
          .append("</td><td>")
          .append(p.validIterations().size())
          .append(" of ")
          .append(p.iterations.size())
          .append("</td><td style=\"text-align:left\">")
          .append(Format.html(String.join("; ", pointNotes(p))))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
    for (String kind : List.of("parallelismImpact", "latencyImpact", "overhead")) {
      List<Ratios.Row> rows = result.ratios.stream().filter(r -> r.kind().equals(kind)).toList();
      if (rows.isEmpty()) {
        continue;
      }
      h.append("<h2>")
          .append(kind)
          .append("</h2>\n<table><tr><th>numerator</th><th>denominator</th><th>ratio</th>")
          .append("<th>")
          .append(ci)
          .append("</th><th>note</th></tr>\n");
      for (Ratios.Row r : rows) {
        h.append("<tr><td>")
            .append(Format.html(r.numerator()))
            .append("</td><td>")
            .append(Format.html(r.denominator()))
            .append("</td><td>")
            .append(Format.number(r.ratio().value()))
            .append("</td><td>")
            .append(
                Double.isNaN(r.ratio().halfWidth())
                    ? "n/a"
                    : Format.number(r.ratio().low()) + " – " + Format.number(r.ratio().high()))
            .append("</td><td style=\"text-align:left\">")
            .append(Format.html(Format.wideInterval(kind, r.ratio()).orElse("")))
            .append("</td></tr>\n");
      }
      h.append("</table>\n");
    }
    if (!result.notes.isEmpty()) {
      h.append("<h2>Notes</h2><ul>");
      result.notes.forEach(n -> h.append("<li>").append(Format.html(n)).append("</li>"));
      h.append("</ul>\n");
    }
    h.append("</body></html>\n");
    return h.toString();
  }

  /** The chart, or a line saying it has nothing to show (no valid iteration in any point). */
  static String chartOrNote(SvgChart chart) {
    return chart.hasData()
        ? chart.render()
        : "<p class=\"no-chart\">" + Format.html(chart.title()) + ": no data to draw</p>\n";
  }

  /** A point's notes, then why an interval is wider than its mean, if one is. */
  private static List<String> pointNotes(PointResult p) {
    List<String> notes = new ArrayList<>(p.notes);
    p.opsPerSecond().flatMap(e -> Format.wideInterval("ops/s", e)).ifPresent(notes::add);
    p.megabytesPerSecond().flatMap(e -> Format.wideInterval("MB/s", e)).ifPresent(notes::add);
    return notes;
  }

  /** Position of a percentile on a "nines" axis: log10(1 / (1 - p)). */
  static double nines(double percentile) {
    return Math.log10(100 / (100 - percentile));
  }
}
