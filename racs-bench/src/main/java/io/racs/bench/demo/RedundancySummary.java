package io.racs.bench.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.proxy.codec.Geometry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the demo says after its bench, read from the bench's {@code results.json}: what the overhead
 * ratio compares (an erasure-coded array against one directory, both behind the same S3 front end,
 * on the same cores), what redundancy costs (throughput and latency against one directory, bytes
 * stored) and what it buys (any {@code m} repositories may be lost). A bare "0.11x" reads as a
 * defect; with its comparison and its price list it reads as the trade it is.
 */
final class RedundancySummary {
  private RedundancySummary() {}

  /**
   * The lines to print (without indentation).
   *
   * @param results the bench's results.json
   * @param geometry the array's geometry
   * @param array the name of the proxy's endpoint target
   * @param direct the name of the one-directory endpoint it is compared with
   * @param cores the processors the client, the proxy and the repositories share
   */
  static List<String> lines(
      JsonNode results, Geometry geometry, String array, String direct, int cores) {
    List<String> out = new ArrayList<>();
    int k = geometry.dataShards();
    int m = geometry.parityShards();
    int n = geometry.totalShards();
    out.add(
        String.format(
            Locale.ROOT,
            "what %s/%s compares: both are the same S3 front end (HTTP, SigV4, checksums); %s"
                + " cuts each object into %d data + %d parity shards, each written and fsynced as"
                + " its own file with a metadata record on %d repositories, and %s writes one"
                + " fsynced file and its record in one directory, what a single disk or provider"
                + " gives. The bench client and both servers share this machine's %d cores and one"
                + " disk.",
            array,
            direct,
            array,
            k,
            m,
            n,
            direct,
            cores));
    out.add(
        String.format(
            Locale.ROOT,
            "what redundancy costs: %.2fx the bytes stored (%d shards of 1/%d each; %d full"
                + " copies would store %dx to survive the same %d losses), and, on this machine:",
            (double) n / k,
            n,
            k,
            m + 1,
            m + 1,
            m));
    for (JsonNode ratio : results.path("ratios")) {
      if (!ratio.path("kind").asText().equals("overhead")) {
        continue;
      }
      JsonNode a = point(results, ratio.path("numerator").asText());
      JsonNode b = point(results, ratio.path("denominator").asText());
      if (a == null || b == null) {
        continue;
      }
      double p50a = a.path("latencyMillis").path("p50").asDouble(Double.NaN);
      double p50b = b.path("latencyMillis").path("p50").asDouble(Double.NaN);
      out.add(
          String.format(
              Locale.ROOT,
              "  %s at %d client%s: %s against %s ops/s, %.2fx %s; p50 latency %s against %s ms"
                  + " (%sx)",
              a.path("workload").asText(),
              a.path("clients").asInt(),
              a.path("clients").asInt() == 1 ? "" : "s",
              number(a.at("/throughput/opsPerSecond/mean").asDouble(Double.NaN)),
              number(b.at("/throughput/opsPerSecond/mean").asDouble(Double.NaN)),
              ratio.path("value").asDouble(Double.NaN),
              interval(ratio),
              number(p50a),
              number(p50b),
              number(p50a / p50b)));
    }
    out.add(
        String.format(
            Locale.ROOT,
            "what it buys: any %d of the %d repositories (disks, providers) can be lost or rot"
                + " without losing a byte, and an emptied one is rebuilt by heal; one directory"
                + " loses everything with its disk. The next two steps show it.",
            m,
            n));
    return out;
  }

  private static String interval(JsonNode ratio) {
    JsonNode low = ratio.path("ciLow");
    JsonNode high = ratio.path("ciHigh");
    String level =
        new java.math.BigDecimal(100 * ratio.path("confidence").asDouble(0.999))
            .setScale(2, java.math.RoundingMode.HALF_UP)
            .stripTrailingZeros()
            .toPlainString();
    if (!low.isNumber() || !high.isNumber()) {
      return "(no interval: one iteration)";
    }
    return String.format(
        Locale.ROOT, "(%s%% CI %.2f-%.2f)", level, low.asDouble(), high.asDouble());
  }

  /** Three significant digits, as the bench's tables print them. */
  private static String number(double d) {
    double a = Math.abs(d);
    if (Double.isNaN(d)) {
      return "n/a";
    }
    return String.format(Locale.ROOT, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f", d);
  }

  private static JsonNode point(JsonNode results, String id) {
    for (JsonNode p : results.path("points")) {
      if (p.path("id").asText().equals(id)) {
        return p;
      }
    }
    return null;
  }
}
