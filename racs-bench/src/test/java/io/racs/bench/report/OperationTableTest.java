package io.racs.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.racs.bench.object.run.Engine;
import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.Plan;
import io.racs.bench.object.run.PointResult;
import io.racs.bench.object.run.RunResult;
import io.racs.bench.object.run.Workload;
import io.racs.bench.object.workload.KeyDistribution;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.Op;
import io.racs.bench.object.workload.RangeSpec;
import io.racs.bench.object.workload.SizeSpec;
import io.racs.bench.stats.ArrivalSchedule.Arrivals;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Proves the report's operations table on hand-made iterations: each operation of a mix gets its
 * own throughput from its share of the requests, per client count, with ParallelismImpact (8
 * clients over 1) and LatencyImpact (10 ms over none) for a repository, and an S3 endpoint says why
 * it has no LatencyImpact.
 */
class OperationTableTest {
  private static final long S = 1_000_000_000L;
  private static final Mix MIX = Mix.parse("put=50,get=50");

  private static Workload workload(int clients) {
    return new Workload(
        MIX,
        SizeSpec.fixed(1024),
        KeyDistribution.UNIFORM,
        RangeSpec.NONE,
        8,
        1,
        "t/",
        clients,
        0,
        Arrivals.CONSTANT,
        Duration.ofSeconds(2),
        0,
        false,
        1,
        1000);
  }

  /** Iterations of a 2 s window with {@code puts} and {@code gets} successful requests each. */
  private static PointResult point(
      String target, String kind, int clients, long delayMillis, long[] puts, long[] gets) {
    PointResult p =
        new PointResult(target, kind, workload(clients), Duration.ofMillis(delayMillis), 0.95);
    for (int i = 0; i < puts.length; i++) {
      IterationResult r = new IterationResult();
      r.windowStartNanos = S;
      r.windowEndNanos = 3 * S;
      r.ops = puts[i] + gets[i];
      r.perOp.put(Op.PUT, IterationResult.newHistogram());
      r.perOp.put(Op.GET, IterationResult.newHistogram());
      r.perOp.get(Op.PUT).recordValueWithCount(1_000_000L, puts[i]);
      r.perOp.get(Op.GET).recordValueWithCount(1_000_000L, gets[i]);
      p.iterations.add(r);
    }
    return p;
  }

  private static RunResult run() {
    Workload w = workload(1);
    Plan plan =
        new Plan(
            w,
            List.of(MIX),
            List.of(w.size()),
            List.of(1, 8),
            List.of(Duration.ZERO, Duration.ofMillis(10)),
            0,
            3,
            Optional.empty(),
            true,
            0.95);
    RunResult result =
        new RunResult(
            plan,
            List.of(
                new Engine.TargetInfo("repo-0", "repository", Map.of(), true),
                new Engine.TargetInfo("racs-proxy", "endpoint", Map.of(), false)),
            List.of("racs", "test"));
    result.points.add(
        point(
            "repo-0", "repository", 1, 0, new long[] {200, 200, 200}, new long[] {400, 420, 380}));
    result.points.add(
        point(
            "repo-0",
            "repository",
            8,
            0,
            new long[] {800, 800, 800},
            new long[] {1600, 1600, 1600}));
    result.points.add(
        point("repo-0", "repository", 1, 10, new long[] {20, 20, 20}, new long[] {40, 40, 40}));
    result.points.add(
        point("racs-proxy", "endpoint", 1, 0, new long[] {10, 10, 10}, new long[] {30, 30, 30}));
    result.points.add(
        point("racs-proxy", "endpoint", 8, 0, new long[] {20, 20, 20}, new long[] {60, 60, 60}));
    return result;
  }

  @Test
  void rows_whenAMixRanOnARepositoryAndTheArray_givesEachOperationItsOwnRatios() {
    List<OperationTable.Row> rows = OperationTable.rows(run());
    assertThat(rows)
        .extracting(r -> r.target() + " " + r.op())
        .containsExactly("repo-0 PUT", "repo-0 GET", "racs-proxy PUT", "racs-proxy GET");
    OperationTable.Row get = rows.get(1);
    // 400, 420, 380 GETs in 2 s windows: 200, 210, 190 ops/s.
    assertThat(get.byClients().get(1).mean()).isCloseTo(200, within(1e-9));
    assertThat(get.byClients().get(8).mean()).isCloseTo(800, within(1e-9));
    assertThat(get.parallelismImpact().orElseThrow().value()).isCloseTo(4, within(1e-9));
    assertThat(get.latencyImpact().orElseThrow().value()).isCloseTo(0.1, within(1e-9));
    assertThat(get.latencyNote()).isEqualTo("10 ms / 0 ms at c1");
    OperationTable.Row proxyPut = rows.get(2);
    assertThat(proxyPut.byClients().get(1).mean()).isCloseTo(5, within(1e-9));
    assertThat(proxyPut.parallelismImpact().orElseThrow().value()).isCloseTo(2, within(1e-9));
    assertThat(proxyPut.latencyImpact()).isEmpty();
    assertThat(proxyPut.latencyNote()).isEqualTo("no delay injection on an S3 endpoint");
  }

  @Test
  void html_whenRendered_showsOneRowPerTargetAndOperationWithTheLevel() {
    String html = HtmlReport.render(run());
    assertThat(html)
        .contains("<h2>Operations by target</h2>", "mean ± 95% CI")
        .contains("<th>1 client</th><th>8 clients</th><th>ParallelismImpact</th>")
        .contains("<td>repo-0</td><td>repository</td><td>mixed</td><td>1KiB</td><td>GET</td>")
        .contains("<td>racs-proxy</td><td>S3 endpoint</td><td>mixed</td><td>1KiB</td><td>PUT")
        .contains("n/a (no delay injection on an S3 endpoint)")
        .contains("(10 ms / 0 ms at c1)");
  }

  @Test
  void rows_whenEveryPointHadADelay_givesTheParallelismImpactAtTheSmallestDelay() {
    // A WAN run: the array at 1 and 8 clients, every repository 20 ms away, no undelayed point.
    RunResult result = run();
    result.points.clear();
    result.points.add(
        point("repo-0", "repository", 1, 20, new long[] {40, 40, 40}, new long[] {40, 40, 40}));
    result.points.add(
        point(
            "repo-0", "repository", 8, 20, new long[] {300, 300, 300}, new long[] {280, 300, 320}));

    OperationTable.Row get = OperationTable.rows(result).get(1);

    assertThat(get.byClientsDelay()).isEqualTo(Duration.ofMillis(20));
    assertThat(get.byClients().get(1).mean()).isCloseTo(20, within(1e-9));
    assertThat(get.parallelismImpact().orElseThrow().value()).isCloseTo(7.5, within(1e-9));
    assertThat(get.latencyImpact()).isEmpty();
    assertThat(HtmlReport.render(result)).contains("7.50 ± ", " (at 20 ms)");
  }
}
