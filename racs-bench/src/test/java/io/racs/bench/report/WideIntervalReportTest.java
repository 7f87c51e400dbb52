package io.racs.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.object.run.Engine;
import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.Plan;
import io.racs.bench.object.run.PointResult;
import io.racs.bench.object.run.Ratios;
import io.racs.bench.object.run.RunResult;
import io.racs.bench.object.run.Workload;
import io.racs.bench.object.workload.KeyDistribution;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.Op;
import io.racs.bench.object.workload.RangeSpec;
import io.racs.bench.object.workload.SizeSpec;
import io.racs.bench.stats.ArrivalSchedule.Arrivals;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Proves that the reports name the run's confidence level, mark an interval wider than its mean
 * with {@code (!)} and explain it in a note (iterations, spread, t factor, remedy), for points and
 * ratios alike, and print no such mark when the interval fits.
 */
class WideIntervalReportTest {
  private static final long S = 1_000_000_000L;

  private static IterationResult oneSecond(long ops) {
    IterationResult r = new IterationResult();
    r.windowStartNanos = S;
    r.windowEndNanos = 2 * S;
    r.ops = ops;
    r.bytes = ops * 1024;
    r.latency.recordValueWithCount(1_000_000L, ops);
    r.requests.recordValueWithCount(1_000_000L, ops);
    return r;
  }

  private static RunResult run(double confidence, long[] opsA, long[] opsB) {
    Workload w =
        new Workload(
            Mix.of(Op.GET),
            SizeSpec.fixed(1024),
            KeyDistribution.UNIFORM,
            RangeSpec.NONE,
            8,
            1,
            "t/",
            1,
            0,
            Arrivals.CONSTANT,
            Duration.ofSeconds(1),
            0,
            false,
            1,
            1000);
    Plan plan =
        new Plan(
            w,
            List.of(w.mix()),
            List.of(w.size()),
            List.of(1),
            List.of(Duration.ZERO),
            0,
            opsA.length,
            Optional.of(new String[] {"a", "b"}),
            true,
            confidence);
    RunResult result =
        new RunResult(
            plan,
            List.of(
                new Engine.TargetInfo("a", "repository", Map.of(), true),
                new Engine.TargetInfo("b", "repository", Map.of(), true)),
            List.of("racs", "test"));
    PointResult a = new PointResult("a", "repository", w, Duration.ZERO, confidence);
    PointResult b = new PointResult("b", "repository", w, Duration.ZERO, confidence);
    for (long ops : opsA) {
      a.iterations.add(oneSecond(ops));
    }
    for (long ops : opsB) {
      b.iterations.add(oneSecond(ops));
    }
    result.points.addAll(List.of(a, b));
    result.ratios.addAll(Ratios.compute(result.points, plan.overhead()));
    return result;
  }

  private static String console(RunResult result) {
    StringWriter out = new StringWriter();
    ConsoleTable.print(result, new PrintWriter(out));
    return out.toString();
  }

  @Test
  void print_whenTwoIterationsAtNinetyNineNine_marksAndExplainsTheWideInterval() {
    // a: 5 and 7 ops/s -> mean 6, s = 1.41, t(0.9995, 1) = 636.6: half-width 636.6.
    String table = console(run(0.999, new long[] {5, 7}, new long[] {10, 10}));
    assertThat(table)
        .contains("ops/s (99.9% CI)")
        .containsPattern("a/get/1KiB/c1/d0ms +6\\.00 ± 637 \\(!\\)")
        .contains(
            "(!) ops/s: the 99.9% interval (± 637) is wider than the mean (6.00): 2 iterations"
                + " spread by 24% (stddev/mean) and the 99.9% t factor for 1 degrees of freedom"
                + " is 637; more --iterations, a longer --duration or a lower --confidence narrow"
                + " it");
    // b has no spread: its interval is zero wide, never marked.
    assertThat(table).containsPattern("b/get/1KiB/c1/d0ms +10\\.0 ± 0\\.00  ");
    assertThat(table)
        .containsPattern(
            "overhead +a/get/1KiB/c1/d0ms +b/get/1KiB/c1/d0ms +0\\.60 ± 63\\.7 \\(!\\)")
        .contains("(!) overhead: the 99.9% interval (± 63.7) is wider than the value (0.60)");
    assertThat(HtmlReport.render(run(0.999, new long[] {5, 7}, new long[] {10, 10})))
        .contains("ops/s: the 99.9% interval (± 637) is wider than the mean (6.00)")
        .contains("overhead: the 99.9% interval (± 63.7) is wider than the value (0.60)");
  }

  @Test
  void print_whenFiveIterationsAtNinetyFive_namesTheLevelAndMarksNothing() {
    // a: 10, 11, 12, 11, 10 -> mean 10.8, s = 0.837, t(0.975, 4) = 2.776: half-width 1.04.
    RunResult result = run(0.95, new long[] {10, 11, 12, 11, 10}, new long[] {20, 21, 22, 21, 20});
    String table = console(result);
    assertThat(table)
        .contains("ops/s (95% CI)", "value (95% CI)")
        .containsPattern("a/get/1KiB/c1/d0ms +10\\.8 ± 1\\.04  ")
        .doesNotContain("(!)");
    assertThat(HtmlReport.render(result)).contains("ops/s (95% CI)").doesNotContain("wider than");
  }
}
