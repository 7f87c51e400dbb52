package io.racs.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Proves the comparison page puts two runs side by side: both runs' commands, one chart per target
 * and workload with the old and the new run as lines over the client counts, the ratio table with
 * intervals and verdicts, and the points found in one run only.
 */
class CompareHtmlTest {
  private static JsonNode run(String started, double c1, double c8, String extraPoint)
      throws Exception {
    return new ObjectMapper()
        .readTree(
            """
            {"schemaVersion": 2, "kind": "object", "startedAt": "%s",
             "command": ["racs", "bench", "object", "--clients", "1,8"],
             "plan": {"confidence": 0.95},
             "points": [
              {"id": "repo-0/get/1MiB/c1/d0ms", "target": "repo-0", "workload": "get",
               "size": "1MiB", "clients": 1, "delayMillis": 0,
               "throughput": {"opsPerSecond": {"mean": %s, "halfWidth": 2, "stddev": 1.6, "n": 5,
                 "confidence": 0.95}, "megabytesPerSecond": null}},
              {"id": "repo-0/get/1MiB/c8/d0ms", "target": "repo-0", "workload": "get",
               "size": "1MiB", "clients": 8, "delayMillis": 0,
               "throughput": {"opsPerSecond": {"mean": %s, "halfWidth": 4, "stddev": 3.2, "n": 5,
                 "confidence": 0.95}, "megabytesPerSecond": null}}%s]}
            """
                .formatted(started, c1, c8, extraPoint));
  }

  @Test
  void render_whenTwoRunsShareTheirPoints_drawsBothAndJudgesEachPoint() throws Exception {
    String onlyNew =
        """
        , {"id": "repo-0/put/1MiB/c1/d0ms", "target": "repo-0", "workload": "put", "size": "1MiB",
           "clients": 1, "delayMillis": 0, "throughput": {"opsPerSecond": null}}
        """;
    String html =
        CompareHtml.render(
            run("2026-01-01T00:00:00Z", 100, 400, ""),
            "old/results.json",
            run("2026-01-02T00:00:00Z", 150, 401, onlyNew),
            "new/results.json");
    assertThat(html)
        .startsWith("<!DOCTYPE html>")
        .contains("<td>old/results.json</td><td>2026-01-01T00:00:00Z</td>")
        .contains("<td>new/results.json</td><td>2026-01-02T00:00:00Z</td>")
        .contains("racs bench object --clients 1,8")
        .contains("repo-0 get 1MiB delay 0ms", "ops/s (mean, 95% CI)")
        .doesNotContain("<script");
    // Two lines in the get chart (old and new); the put point has no throughput in either run, so
    // its chart is replaced by a line saying so rather than drawn empty.
    assertThat(html.split("class=\"series\"", -1)).hasSize(1 + 2);
    assertThat(html)
        .contains("<p class=\"no-chart\">repo-0 put 1MiB delay 0ms: no data to draw</p>");
    assertThat(html)
        .contains("<td>repo-0/get/1MiB/c1/d0ms</td><td>ops/s</td><td>100 ± 2.00</td>")
        .contains("<td class=\"faster\">faster</td>")
        .contains("<td>repo-0/get/1MiB/c8/d0ms</td><td>ops/s</td><td>400 ± 4.00</td>")
        .contains("within noise")
        .contains("<h2>Only in the new run</h2><ul><li>repo-0/put/1MiB/c1/d0ms</li></ul>");
  }
}
