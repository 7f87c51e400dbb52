package io.racs.bench.block;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.bench.report.SvgChart;
import io.racs.bench.stats.LatencySummary;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outputs of {@code block sweep}: a console table, {@code results.json} and {@code results.csv}
 * (the block schema of {@code racs-bench/RESULTS-SCHEMA.md}) and {@code report.html} with
 * throughput against threads, one chart per pattern and one series per record size.
 */
public final class SweepReport {
  /** The schema version of the block results. */
  public static final int SCHEMA_VERSION = 1;

  /** The CSV header. */
  public static final String CSV_HEADER =
      "id,pattern,recordBytes,threads,direct,ops,bytes,seconds,megabytesPerSecond,iops,"
          + "p50Millis,p90Millis,p99Millis,p999Millis,maxMillis,efficiency,verifiedBlocks,"
          + "verifyFailures";

  /**
   * What the reports describe besides the points.
   *
   * @param file the file
   * @param fileSizeBytes its size as used
   * @param direct O_DIRECT
   * @param seed the seed
   * @param verify whether writes were stamped and reads checked
   * @param theoreticalMegabytesPerSecond the device's rated MB/s, or NaN
   * @param theoreticalIops the device's rated IOPS, or NaN
   * @param command the command line
   * @param notes run-wide facts the reader must know
   * @param startedAt the start
   */
  public record Run(
      Path file,
      long fileSizeBytes,
      boolean direct,
      long seed,
      boolean verify,
      double theoreticalMegabytesPerSecond,
      double theoreticalIops,
      List<String> command,
      List<String> notes,
      Instant startedAt) {
    /**
     * Efficiency of {@code p} against the theoretical figures: IOPS for random patterns when a
     * rated IOPS is given, else MB/s; NaN when neither applies.
     */
    public double efficiency(Sweep.Point p) {
      if (p.pattern().random() && !Double.isNaN(theoreticalIops)) {
        return p.iops() / theoreticalIops;
      }
      return Double.isNaN(theoreticalMegabytesPerSecond)
          ? Double.NaN
          : p.megabytesPerSecond() / theoreticalMegabytesPerSecond;
    }
  }

  private static final String ROW = "%-10s %8s %7s %11s %11s %9s %9s %9s %9s %9s %6s%n";

  private SweepReport() {}

  /** Prints the table header. */
  public static void header(PrintWriter out) {
    out.printf(
        Locale.ROOT,
        ROW,
        "pattern",
        "record",
        "threads",
        "MB/s",
        "IOPS",
        "p50 ms",
        "p90 ms",
        "p99 ms",
        "p99.9 ms",
        "max ms",
        "eff");
  }

  /** Prints one point's row (and its verification failures). */
  public static void row(Run run, Sweep.Point p, PrintWriter out) {
    LatencySummary l = LatencySummary.of(p.latency());
    double eff = run.efficiency(p);
    out.printf(
        Locale.ROOT,
        ROW,
        p.pattern().label(),
        Sizes.label(p.recordBytes()),
        p.threads(),
        String.format(Locale.ROOT, "%.1f", p.megabytesPerSecond()),
        String.format(Locale.ROOT, "%.0f", p.iops()),
        ms(l.p50()),
        ms(l.p90()),
        ms(l.p99()),
        ms(l.p999()),
        ms(l.max()),
        Double.isNaN(eff) ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * eff));
    for (Stamp.Failure f : p.failures()) {
      out.println("VERIFY FAILED " + p.id() + ": " + f);
    }
    out.flush();
  }

  private static String ms(double millis) {
    return String.format(Locale.ROOT, millis < 10 ? "%.3f" : "%.1f", millis);
  }

  /** Writes results.json, results.csv and report.html into {@code dir}. */
  public static void write(Run run, List<Sweep.Point> points, Path dir) throws IOException {
    Files.createDirectories(dir);
    BlockJson.write(dir, json(run, points));
    List<String> csv = new ArrayList<>();
    csv.add(CSV_HEADER);
    for (Sweep.Point p : points) {
      LatencySummary l = LatencySummary.of(p.latency());
      csv.add(
          String.join(
              ",",
              p.id(),
              p.pattern().label(),
              Integer.toString(p.recordBytes()),
              Integer.toString(p.threads()),
              Boolean.toString(p.direct()),
              Long.toString(p.ops()),
              Long.toString(p.bytes()),
              n(p.seconds()),
              n(p.megabytesPerSecond()),
              n(p.iops()),
              n(l.p50()),
              n(l.p90()),
              n(l.p99()),
              n(l.p999()),
              n(l.max()),
              n(run.efficiency(p)),
              Long.toString(p.verifiedBlocks()),
              Integer.toString(p.failures().size())));
    }
    Files.write(dir.resolve("results.csv"), csv);
    Files.writeString(dir.resolve("report.html"), html(run, points));
  }

  private static String n(double d) {
    return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.6g", d);
  }

  /** The JSON tree of the run. */
  static ObjectNode json(Run run, List<Sweep.Point> points) {
    ObjectNode root = BlockJson.root("block-sweep", run.startedAt(), run.command());
    ObjectNode plan = root.putObject("plan");
    plan.put("file", run.file().toString());
    plan.put("fileSizeBytes", run.fileSizeBytes());
    plan.put("direct", run.direct());
    plan.put("seed", run.seed());
    plan.put("verify", run.verify());
    putNumber(plan, "theoreticalMegabytesPerSecond", run.theoreticalMegabytesPerSecond());
    putNumber(plan, "theoreticalIops", run.theoreticalIops());
    ArrayNode array = root.putArray("points");
    for (Sweep.Point p : points) {
      ObjectNode o = array.addObject();
      o.put("id", p.id());
      o.put("pattern", p.pattern().label());
      o.put("recordBytes", p.recordBytes());
      o.put("threads", p.threads());
      o.put("direct", p.direct());
      o.put("ops", p.ops());
      o.put("bytes", p.bytes());
      o.put("seconds", p.seconds());
      o.put("megabytesPerSecond", p.megabytesPerSecond());
      o.put("iops", p.iops());
      putNumber(o, "efficiency", run.efficiency(p));
      LatencySummary l = LatencySummary.of(p.latency());
      ObjectNode lat = o.putObject("latencyMillis");
      lat.put("count", l.count());
      lat.put("mean", l.mean());
      lat.put("p50", l.p50());
      lat.put("p90", l.p90());
      lat.put("p99", l.p99());
      lat.put("p999", l.p999());
      lat.put("max", l.max());
      BlockJson.failures(o, p.verifiedBlocks(), p.failures());
    }
    ArrayNode notes = root.putArray("notes");
    run.notes().forEach(notes::add);
    return root;
  }

  private static void putNumber(ObjectNode o, String field, double value) {
    BlockJson.number(o, field, value);
  }

  /** The HTML report: one chart per pattern (MB/s against threads, a series per record size). */
  static String html(Run run, List<Sweep.Point> points) {
    StringBuilder h = new StringBuilder();
    h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>racs bench block sweep")
        .append("</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:")
        .append("collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}")
        .append("td:first-child,th:first-child{text-align:left}svg{margin:4px}</style>")
        .append("</head><body>\n<h1>racs bench block sweep</h1>\n<p>")
        .append(escape(run.file().toString()))
        .append(", ")
        .append(run.fileSizeBytes())
        .append(" bytes, ")
        .append(run.direct() ? "O_DIRECT" : "BUFFERED")
        .append(", seed ")
        .append(run.seed())
        .append("</p>\n");
    for (String note : run.notes()) {
      h.append("<p><b>note:</b> ").append(escape(note)).append("</p>\n");
    }
    Map<Sweep.Pattern, Map<Integer, List<Sweep.Point>>> byPattern = new LinkedHashMap<>();
    for (Sweep.Point p : points) {
      byPattern
          .computeIfAbsent(p.pattern(), k -> new LinkedHashMap<>())
          .computeIfAbsent(p.recordBytes(), k -> new ArrayList<>())
          .add(p);
    }
    for (var e : byPattern.entrySet()) {
      SvgChart chart = new SvgChart(e.getKey().label() + ": throughput", "threads", "MB/s");
      for (var s : e.getValue().entrySet()) {
        List<Sweep.Point> ps = s.getValue();
        double[] x = new double[ps.size()];
        double[] y = new double[ps.size()];
        for (int i = 0; i < ps.size(); i++) {
          x[i] = ps.get(i).threads();
          y[i] = ps.get(i).megabytesPerSecond();
        }
        chart.add(new SvgChart.Series(Sizes.label(s.getKey()), x, y, null));
      }
      h.append(chart.render());
    }
    h.append("<table><tr><th>point</th><th>MB/s</th><th>IOPS</th><th>p50 ms</th><th>p99 ms</th>")
        .append("<th>p99.9 ms</th><th>max ms</th><th>efficiency</th><th>verify</th></tr>\n");
    for (Sweep.Point p : points) {
      LatencySummary l = LatencySummary.of(p.latency());
      double eff = run.efficiency(p);
      h.append(
          String.format(
              Locale.ROOT,
              "<tr><td>%s</td><td>%.1f</td><td>%.0f</td><td>%s</td><td>%s</td><td>%s</td>"
                  + "<td>%s</td><td>%s</td><td>%s</td></tr>%n",
              escape(p.id()),
              p.megabytesPerSecond(),
              p.iops(),
              ms(l.p50()),
              ms(l.p99()),
              ms(l.p999()),
              ms(l.max()),
              Double.isNaN(eff) ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * eff),
              run.verify()
                  ? (p.failures().isEmpty() ? "ok" : p.failures().size() + " failed")
                  : "-"));
    }
    h.append("</table>\n</body></html>\n");
    return h.toString();
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
