package io.racs.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.bench.stats.Estimate;
import io.racs.bench.stats.Ratio;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compares two block {@code results.json} files of one kind ({@code block-sweep}, {@code block-dd},
 * {@code block-run}, {@code block-matrix}) point by point: for each point in both and each of the
 * kind's metrics, new/old with its confidence interval and a verdict (faster, slower, within noise)
 * where both sides measured iterations (dd's runs, run's intervals); where a side holds one
 * measurement (a sweep point, a matrix cell) the ratio stands without an interval or a verdict.
 */
public final class BlockCompare {
  private BlockCompare() {}

  /**
   * One compared metric.
   *
   * @param path the field path inside a point, e.g. {@code latencyMillis/p99}
   * @param label the column text
   * @param higherIsBetter whether a larger value is an improvement
   */
  record Metric(String path, String label, boolean higherIsBetter) {}

  private static final Map<String, List<Metric>> METRICS =
      Map.of(
          "block-sweep",
          List.of(
              new Metric("megabytesPerSecond", "MB/s", true),
              new Metric("iops", "IOPS", true),
              new Metric("latencyMillis/p50", "p50 ms", false),
              new Metric("latencyMillis/p99", "p99 ms", false)),
          "block-dd",
          List.of(new Metric("megabytesPerSecond", "MB/s", true)),
          "block-run",
          List.of(
              new Metric("iops", "IOPS", true),
              new Metric("megabytesPerSecond", "MB/s", true),
              new Metric("responseMillis", "resp ms", false)),
          "block-matrix",
          List.of(new Metric("kilobytesPerSecond", "KB/s", true)));

  /** Whether {@code kind} is a block kind this class compares. */
  public static boolean handles(String kind) {
    return METRICS.containsKey(kind);
  }

  /**
   * Prints the comparison of {@code old} and {@code current}, both of the block kind {@code kind};
   * returns the number of matched points.
   */
  public static int print(String kind, JsonNode old, JsonNode current, PrintWriter out) {
    Map<String, JsonNode> before = Compare.byId(old);
    Map<String, JsonNode> after = Compare.byId(current);
    String format = "%-44s %-8s %10s %10s %8s %-19s %s%n";
    out.printf(
        Locale.ROOT, format, "point", "metric", "old", "new", "new/old", "99.9% CI", "verdict");
    int matched = 0;
    for (Map.Entry<String, JsonNode> e : after.entrySet()) {
      JsonNode a = before.get(e.getKey());
      if (a == null) {
        continue;
      }
      matched++;
      for (Metric m : METRICS.get(kind)) {
        Estimate oldE = estimate(a, m.path());
        Estimate newE = estimate(e.getValue(), m.path());
        if (oldE == null || newE == null) {
          String side = oldE == null && newE == null ? "both runs" : oldE == null ? "old" : "new";
          out.printf(
              Locale.ROOT,
              format,
              e.getKey(),
              m.label(),
              oldE == null ? "-" : Format.number(oldE.mean()),
              newE == null ? "-" : Format.number(newE.mean()),
              "-",
              "n/a",
              "not measured in " + side + " (skipped)");
          continue;
        }
        if (oldE.mean() == 0 || newE.mean() == 0) {
          continue;
        }
        Ratio r = Ratio.of(newE, oldE);
        boolean interval = !Double.isNaN(r.halfWidth());
        out.printf(
            Locale.ROOT,
            format,
            e.getKey(),
            m.label(),
            Format.number(oldE.mean()),
            Format.number(newE.mean()),
            Format.number(r.value()),
            interval ? Format.number(r.low()) + " – " + Format.number(r.high()) : "n/a",
            interval ? r.verdict(m.higherIsBetter()) : "no interval (one measurement a side)");
      }
    }
    Compare.printUnmatched(before, after, out);
    out.flush();
    return matched;
  }

  /**
   * The metric at {@code path} of {@code point}: an estimate object ({@code mean}, {@code
   * halfWidth}, {@code stddev}, {@code n}, {@code confidence}) or a plain number (one measurement);
   * null when absent or null.
   */
  private static Estimate estimate(JsonNode point, String path) {
    JsonNode n = point;
    for (String part : path.split("/")) {
      n = n.path(part);
    }
    if (n.isNumber()) {
      return new Estimate(n.asDouble(), Double.NaN, Double.NaN, 1, Estimate.CONFIDENCE);
    }
    if (n.isObject() && n.path("mean").isNumber()) {
      return new Estimate(
          n.path("mean").asDouble(),
          n.path("halfWidth").isNumber() ? n.path("halfWidth").asDouble() : Double.NaN,
          n.path("stddev").isNumber() ? n.path("stddev").asDouble() : Double.NaN,
          n.path("n").asInt(1),
          n.path("confidence").asDouble(Estimate.CONFIDENCE));
    }
    return null;
  }
}
