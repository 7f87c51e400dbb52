package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.emulator.Toxic;
import io.racs.testkit.MinioExtension;
import io.racs.testkit.TestSeed;
import io.racs.testkit.ToxiproxyExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The long variant of {@link WireFaultsIT}, a benchmark rather than a suite test (its name is not
 * {@code *IT}, so only {@code scripts/wire-p99.sh} runs it, by {@code -Dit.test}): per fault, with
 * 1 and with m = 2 of the six links afflicted, the p99 of successful GETs and PUTs during the fault
 * against the p99 of the same run's healthy phase (every link 20 ms ± 10 ms each way), under the
 * fault suite's seeded mixed load of {@code racs.wire.ops} (default 150) operations per phase.
 * Issue 43's goal: every ratio at most {@link #GOAL}. It prints the table (and writes it to {@code
 * target/wire-p99.txt}) and fails when a ratio exceeds the goal or a scenario fails.
 */
@Isolated
class WireFaultsLong {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(FaultConfig.N);
  @RegisterExtension static final ToxiproxyExtension TOXIPROXY = new ToxiproxyExtension();

  /** The most a fault's p99 may be, as a multiple of the healthy p99. */
  static final double GOAL = 2.0;

  private static WireArray array;

  @BeforeAll
  static void start() throws Exception {
    array = WireArray.start("WireFaultsLong", MINIO, TOXIPROXY);
  }

  @AfterAll
  static void stop() throws Exception {
    if (array != null) {
      array.close();
    }
  }

  private record Fault(String name, Supplier<Toxic> toxic) {}

  private static final List<Fault> FAULTS =
      List.of(
          new Fault(
              "latency 200 ms",
              () -> Toxic.latency(Duration.ofMillis(200), Duration.ZERO).named("slow")),
          new Fault("1 MB/s", () -> Toxic.bandwidth(1000)),
          new Fault("64 KB/s", () -> Toxic.bandwidth(64)),
          new Fault("half-open", Toxic::halfOpen));

  @Test
  void p99_whenUpToMLinksAreAfflicted_staysWithinTwiceTheHealthyP99() throws Exception {
    long seed = TestSeed.get();
    int ops = Integer.getInteger("racs.wire.ops", 150);
    FaultScenario.Phases phases = new FaultScenario.Phases(ops, ops, 20);
    List<String> rows = new ArrayList<>();
    List<String> over = new ArrayList<>();
    rows.add(
        String.format(
            Locale.ROOT,
            "%-15s %8s  %-6s %12s %12s %7s  %s",
            "fault",
            "afflicted",
            "op",
            "healthy p99",
            "fault p99",
            "ratio",
            "n healthy/fault"));
    int scenario = 0;
    for (Fault fault : FAULTS) {
      for (int afflicted = 1; afflicted <= FaultConfig.M; afflicted++) {
        long scenarioSeed = seed + scenario++;
        String name = "p99-" + fault.name().replaceAll("[^a-z0-9]+", "-") + "-" + afflicted;
        TOXIPROXY.client().reset();
        array.wan();
        Toxic toxic = fault.toxic().get();
        FaultLoad load;
        try {
          load =
              FaultScenario.run(
                  name,
                  List.of(array.proxy()),
                  WireArray.BUCKET,
                  FaultLoad.Mix.MIXED,
                  scenarioSeed,
                  WireArray.on(
                      array.victims(scenarioSeed, afflicted),
                      toxic,
                      toxic.upstream().named(toxic.name() + "_up")),
                  phases);
          FaultScenario.assertUnaffected(load);
        } catch (AssertionError | RuntimeException e) {
          String failed = fault.name() + " x" + afflicted + ": failed: " + e.getMessage();
          rows.add(failed.lines().findFirst().orElse(failed));
          over.add(failed);
          continue;
        }
        for (FaultLoad.Op op : List.of(FaultLoad.Op.GET, FaultLoad.Op.PUT)) {
          long[] healthy = WireArray.sortedNanos(load, "healthy", op);
          long[] during = WireArray.sortedNanos(load, "fault", op);
          if (healthy.length == 0 || during.length == 0) {
            rows.add(fault.name() + " x" + afflicted + " " + op + ": no successful operation");
            over.add(fault.name() + " x" + afflicted + " " + op + ": none");
            continue;
          }
          double ratio = (double) WireArray.p99(during) / WireArray.p99(healthy);
          String row =
              String.format(
                  Locale.ROOT,
                  "%-15s %8d  %-6s %9.0f ms %9.0f ms %7.2f  %d/%d",
                  fault.name(),
                  afflicted,
                  op,
                  WireArray.p99(healthy) / 1e6,
                  WireArray.p99(during) / 1e6,
                  ratio,
                  healthy.length,
                  during.length);
          rows.add(row);
          if (ratio > GOAL) {
            over.add(row.trim());
          }
        }
      }
    }
    String table =
        "wire p99 (seed "
            + seed
            + ", "
            + ops
            + " operations per phase, goal: fault p99 <= "
            + GOAL
            + " x healthy p99)\n"
            + String.join("\n", rows)
            + "\n";
    System.out.println(table);
    Files.writeString(Path.of("target", "wire-p99.txt"), table);
    assertThat(over).as("ratios over %s, or failed scenarios:\n%s", GOAL, table).isEmpty();
  }
}
