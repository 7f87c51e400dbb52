package io.racs.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.bench.stats.Estimate;
import io.racs.bench.stats.Ratio;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Compares two {@code results.json} files point by point: for each point in both, the ratio new/old
 * of throughput (ops/s and MB/s) with its confidence interval and a verdict (faster, slower, within
 * noise), and the ratio of p50 and p99 latency (no interval: each run holds one merged histogram,
 * so latency ratios carry no verdict).
 */
public final class Compare {
  /**
   * The oldest schema version read: version 1 differs from 2 only in fields compare does not read
   * (which iterations are valid, and how invalid ones are written).
   */
  static final int OLDEST_SCHEMA_VERSION = 1;

  private Compare() {}

  /**
   * Reads a results file.
   *
   * @throws IllegalArgumentException when it is missing, not JSON, or of another schema version
   */
  public static JsonNode read(Path file) {
    JsonNode root;
    try {
      root = JsonReport.MAPPER.readTree(file.toFile());
    } catch (NoSuchFileException | java.io.FileNotFoundException e) {
      throw new IllegalArgumentException(file + ": no such file");
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": not a results.json file: " + e.getMessage());
    }
    int version = root == null ? -1 : root.path("schemaVersion").asInt(-1);
    if (version < OLDEST_SCHEMA_VERSION || version > JsonReport.SCHEMA_VERSION) {
      throw new IllegalArgumentException(
          file
              + ": schemaVersion "
              + (root == null ? "missing" : root.path("schemaVersion"))
              + " (expected: "
              + OLDEST_SCHEMA_VERSION
              + " to "
              + JsonReport.SCHEMA_VERSION
              + ")");
    }
    return root;
  }

  /**
   * Prints the comparison of {@code old} and {@code current}; returns the number of matched points.
   */
  public static int print(JsonNode old, JsonNode current, PrintWriter out) {
    Map<String, JsonNode> before = byId(old);
    Map<String, JsonNode> after = byId(current);
    String format = "%-44s %-12s %10s %10s %8s %-19s %s%n";
    String ci =
        Format.percent(current.path("plan").path("confidence").asDouble(Estimate.CONFIDENCE))
            + " CI";
    out.printf(Locale.ROOT, format, "point", "metric", "old", "new", "new/old", ci, "verdict");
    int matched = 0;
    for (Map.Entry<String, JsonNode> e : after.entrySet()) {
      JsonNode a = before.get(e.getKey());
      if (a == null) {
        continue;
      }
      matched++;
      JsonNode b = e.getValue();
      for (String metric : new String[] {"opsPerSecond", "megabytesPerSecond"}) {
        JsonNode ea = a.path("throughput").path(metric);
        JsonNode eb = b.path("throughput").path(metric);
        if (!ea.isObject() || !eb.isObject()) {
          if (metric.equals("opsPerSecond")) {
            out.printf(
                Locale.ROOT,
                format,
                e.getKey(),
                "ops/s",
                ea.isObject() ? Format.number(estimate(ea).mean()) : "none",
                eb.isObject() ? Format.number(estimate(eb).mean()) : "none",
                "n/a",
                "n/a",
                "no throughput in one run (no valid iteration)");
          }
          continue;
        }
        Estimate oldE = estimate(ea);
        Estimate newE = estimate(eb);
        if (oldE.mean() == 0 && newE.mean() == 0) {
          continue;
        }
        Ratio r = Ratio.of(newE, oldE);
        out.printf(
            Locale.ROOT,
            format,
            e.getKey(),
            metric.equals("opsPerSecond") ? "ops/s" : "MB/s",
            Format.number(oldE.mean()),
            Format.number(newE.mean()),
            Format.number(r.value()),
            Double.isNaN(r.halfWidth())
                ? "n/a"
                : Format.number(r.low()) + " – " + Format.number(r.high()),
            r.verdict(true));
      }
      for (String p : new String[] {"p50", "p99"}) {
        double la = a.path("latencyMillis").path(p).asDouble(Double.NaN);
        double lb = b.path("latencyMillis").path(p).asDouble(Double.NaN);
        if (la > 0 && lb > 0) {
          out.printf(
              Locale.ROOT,
              format,
              e.getKey(),
              p + " ms",
              Format.number(la),
              Format.number(lb),
              Format.number(lb / la),
              "n/a",
              "no interval (one merged histogram per run)");
        }
      }
    }
    printUnmatched(before, after, out);
    out.flush();
    return matched;
  }

  /** An estimate as results.json writes it. */
  static Estimate estimate(JsonNode n) {
    return new Estimate(
        n.path("mean").asDouble(),
        n.path("halfWidth").isNumber() ? n.path("halfWidth").asDouble() : Double.NaN,
        n.path("stddev").isNumber() ? n.path("stddev").asDouble() : Double.NaN,
        n.path("n").asInt(),
        n.path("confidence").asDouble(Estimate.CONFIDENCE));
  }

  /** Names the points that only one of the two runs has. */
  static void printUnmatched(
      Map<String, JsonNode> before, Map<String, JsonNode> after, PrintWriter out) {
    for (String id : before.keySet()) {
      if (!after.containsKey(id)) {
        out.println("only in the old run: " + id);
      }
    }
    for (String id : after.keySet()) {
      if (!before.containsKey(id)) {
        out.println("only in the new run: " + id);
      }
    }
  }

  /** The points of a results.json by id, in file order. */
  static Map<String, JsonNode> byId(JsonNode root) {
    Map<String, JsonNode> points = new LinkedHashMap<>();
    for (JsonNode p : root.path("points")) {
      points.put(p.path("id").asText(), p);
    }
    return points;
  }
}
