package io.racs.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.bench.object.run.Engine;
import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.ObjectBenchmark;
import io.racs.bench.object.run.Plan;
import io.racs.bench.object.run.Progress;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves, with an engine that returns hand-made iterations, that an iteration whose window cannot
 * hold a measurement is left out of the point's throughput (mean, interval and ratios) and shown
 * with its reason in results.json, results.csv, the console table and report.html, and that a point
 * with no valid iteration has no throughput at all, with a warning, instead of zero or garbage.
 */
class InvalidIterationReportTest {
  private static final long S = 1_000_000_000L;
  private static final long MIB = 1L << 20;
  private static final String SHORT =
      "window 80 µs shorter than a request (p50 6.1 s): raise --duration";

  @TempDir Path dir;

  private static IterationResult valid(long windowSeconds, long ops) {
    IterationResult r = new IterationResult();
    r.windowStartNanos = S;
    r.windowEndNanos = S + windowSeconds * S;
    r.ops = ops;
    r.bytes = ops * MIB;
    r.latency.recordValueWithCount(100_000_000L, ops);
    r.requests.recordValueWithCount(100_000_000L, ops + 8);
    r.cpuUtilisation = 0.1;
    return r;
  }

  /** The 64 MiB case: one request completed in an 80 µs window, which reads as 12 500 ops/s. */
  private static IterationResult tiny() {
    IterationResult r = new IterationResult();
    r.windowStartNanos = 6_100_070_000L;
    r.windowEndNanos = 6_100_150_000L;
    r.ops = 1;
    r.bytes = MIB;
    r.latency.recordValue(6_100_000_000L);
    r.requests.recordValueWithCount(6_100_000_000L, 8);
    r.invalidReason = SHORT;
    r.cpuUtilisation = 0.1;
    return r;
  }

  /** Answers each target's iterations in order. */
  private static final class ScriptedEngine implements Engine {
    private final Map<Integer, ArrayDeque<IterationResult>> script;

    ScriptedEngine(Map<Integer, ArrayDeque<IterationResult>> script) {
      this.script = script;
    }

    @Override
    public List<TargetInfo> targets() {
      return List.of(
          new TargetInfo("a", "repository", Map.of(), true),
          new TargetInfo("b", "repository", Map.of(), true));
    }

    @Override
    public void prepare(int target, String prefix, Workload workload) {}

    @Override
    public void declare(int target, String prefix, Workload workload) {}

    @Override
    public IterationResult iterate(
        int target, String prefix, Workload workload, Duration delay, long seed, Progress p) {
      return script.get(target).removeFirst();
    }

    @Override
    public void cleanUp(int target, String prefix) {}

    @Override
    public void close() {}
  }

  private static RunResult run() throws InterruptedException {
    Workload template =
        new Workload(
            Mix.of(Op.PUT),
            SizeSpec.fixed(MIB),
            KeyDistribution.UNIFORM,
            RangeSpec.NONE,
            8,
            1,
            "t/",
            8,
            0,
            Arrivals.CONSTANT,
            Duration.ofSeconds(5),
            0,
            false,
            1,
            1000);
    Plan plan =
        new Plan(
            template,
            List.of(template.mix()),
            List.of(template.size()),
            List.of(8),
            List.of(Duration.ZERO),
            0,
            3,
            Optional.of(new String[] {"a", "b"}),
            true,
            0.999);
    // Target a: 10 ops in 2 s (5/s), the tiny window, 30 ops in 4 s (7.5/s). Target b: all tiny.
    ScriptedEngine engine =
        new ScriptedEngine(
            Map.of(
                0, new ArrayDeque<>(List.of(valid(2, 10), tiny(), valid(4, 30))),
                1, new ArrayDeque<>(List.of(tiny(), tiny(), tiny()))));
    return new ObjectBenchmark(engine, plan, Progress.silent()).run(List.of("racs", "test"));
  }

  @Test
  void reports_whenAnIterationIsInvalid_leaveItOutOfTheThroughputAndSayWhy() throws Exception {
    RunResult result = run();
    ObjectReports.write(result, dir);
    JsonNode root = JsonReport.MAPPER.readTree(dir.resolve("results.json").toFile());
    assertThat(root.get("schemaVersion").asInt()).isEqualTo(2);

    JsonNode a = root.get("points").get(0);
    assertThat(a.get("id").asText()).isEqualTo("a/put/1MiB/c8/d0ms");
    // (5 + 7.5) / 2 ops/s; (10 MiB / 2 s + 30 MiB / 4 s) / 2 in 10^6 B/s.
    assertThat(a.at("/throughput/opsPerSecond/mean").asDouble()).isCloseTo(6.25, offset(1e-9));
    assertThat(a.at("/throughput/opsPerSecond/n").asInt()).isEqualTo(2);
    assertThat(a.at("/throughput/megabytesPerSecond/mean").asDouble())
        .isCloseTo((5.24288 + 7.86432) / 2, offset(1e-9));
    assertThat(a.get("validIterations").asInt()).isEqualTo(2);
    assertThat(a.get("warning").isNull()).isTrue();
    JsonNode second = a.get("iterations").get(1);
    assertThat(second.get("valid").asBoolean()).isFalse();
    assertThat(second.get("invalidReason").asText()).isEqualTo(SHORT);
    assertThat(second.get("opsPerSecond").isNull()).isTrue();
    assertThat(second.get("megabytesPerSecond").isNull()).isTrue();
    assertThat(second.get("requestP50Millis").asDouble()).isCloseTo(6100, offset(10.0));
    assertThat(a.get("iterations").get(0).get("invalidReason").isNull()).isTrue();
    assertThat(a.get("iterations").get(0).get("opsPerSecond").asDouble()).isEqualTo(5.0);
    assertThat(a.get("notes").get(0).asText()).isEqualTo("iteration 2 excluded: " + SHORT);

    JsonNode b = root.get("points").get(1);
    assertThat(b.at("/throughput/opsPerSecond").isNull()).isTrue();
    assertThat(b.at("/throughput/megabytesPerSecond").isNull()).isTrue();
    assertThat(b.get("validIterations").asInt()).isZero();
    String warning = "no throughput: every iteration (3) was excluded; iteration 1: " + SHORT;
    assertThat(b.get("warning").asText()).isEqualTo(warning);
    assertThat(root.get("notes").toString()).contains("b/put/1MiB/c8/d0ms: " + warning);
    // An overhead ratio needs a throughput on both sides.
    assertThat(root.get("ratios")).isEmpty();

    List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
    assertThat(csv.getFirst())
        .endsWith(
            ",clientCpuMax,validIterations,warning,repositoryRequestsPerOp,"
                + "arrayCostPerMillionOps,directCostPerMillionOps");
    String[] aRow = csv.get(1).split(",", -1);
    String[] bRow = csv.get(2).split(",", -1);
    assertThat(aRow[9]).isEqualTo("6.25000");
    assertThat(aRow[aRow.length - 5]).isEqualTo("2");
    assertThat(aRow[aRow.length - 4]).isEmpty();
    // repositoryRequestsPerOp and both costs: not an array.
    assertThat(List.of(aRow).subList(aRow.length - 3, aRow.length)).containsOnly("");
    assertThat(bRow[9]).isEmpty();
    assertThat(bRow[12]).isEmpty();
    assertThat(bRow[bRow.length - 5]).isEqualTo("0");
    assertThat(csv.get(2)).endsWith("," + warning + ",,,");

    StringWriter console = new StringWriter();
    ConsoleTable.print(result, new PrintWriter(console));
    assertThat(console.toString())
        .containsPattern("a/put/1MiB/c8/d0ms +6\\.25 ± ")
        .containsPattern("b/put/1MiB/c8/d0ms +no valid window")
        .contains("iteration 2 excluded: " + SHORT)
        .contains("note: b/put/1MiB/c8/d0ms: " + warning);

    String html = Files.readString(dir.resolve("report.html"));
    assertThat(html)
        .contains("no valid window", "2 of 3", "0 of 3", "iteration 2 excluded: " + SHORT)
        .contains("b/put/1MiB/c8/d0ms: " + warning);
  }
}
