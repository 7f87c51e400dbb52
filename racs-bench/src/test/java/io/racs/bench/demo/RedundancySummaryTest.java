package io.racs.bench.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.proxy.codec.Geometry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves the demo's reading of its bench: what the overhead ratio compares, its cost per client
 * count with the interval the run used, the bytes a 4x2 array stores against copies, and what the
 * redundancy buys.
 */
class RedundancySummaryTest {
  private static final String RESULTS =
      """
      {"points": [
        {"id": "racs-proxy/mixed/1MiB/c8/d0ms", "workload": "mixed", "clients": 8,
         "throughput": {"opsPerSecond": {"mean": 110.0}}, "latencyMillis": {"p50": 60.0}},
        {"id": "one-dir/mixed/1MiB/c8/d0ms", "workload": "mixed", "clients": 8,
         "throughput": {"opsPerSecond": {"mean": 1000.0}}, "latencyMillis": {"p50": 5.0}}],
       "ratios": [
        {"kind": "parallelismImpact", "numerator": "x", "denominator": "y", "value": 3.0},
        {"kind": "overhead", "numerator": "racs-proxy/mixed/1MiB/c8/d0ms",
         "denominator": "one-dir/mixed/1MiB/c8/d0ms", "value": 0.11, "ciLow": 0.09,
         "ciHigh": 0.13, "confidence": 0.95}]}
      """;

  @Test
  void lines_whenOverheadMeasured_explainTheComparisonItsCostAndWhatItBuys() throws Exception {
    JsonNode results = new ObjectMapper().readTree(RESULTS);
    List<String> lines =
        RedundancySummary.lines(results, Geometry.of(4, 2), "racs-proxy", "one-dir", 2);
    assertThat(lines.getFirst())
        .startsWith("what racs-proxy/one-dir compares: both are the same S3 front end")
        .contains(
            "racs-proxy cuts each object into 4 data + 2 parity shards",
            "on 6 repositories",
            "one-dir writes one fsynced file",
            "share this machine's 2 cores");
    assertThat(lines.get(1))
        .isEqualTo(
            "what redundancy costs: 1.50x the bytes stored (6 shards of 1/4 each; 3 full copies"
                + " would store 3x to survive the same 2 losses), and, on this machine:");
    assertThat(lines.get(2))
        .isEqualTo(
            "  mixed at 8 clients: 110 against 1000 ops/s, 0.11x (95% CI 0.09-0.13); p50 latency"
                + " 60.0 against 5.00 ms (12.0x)");
    assertThat(lines).hasSize(4);
    assertThat(lines.getLast()).startsWith("what it buys: any 2 of the 6 repositories");
  }
}
