package io.racs.bench.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.bench.cli.BenchMain;
import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.Progress;
import io.racs.bench.object.run.Workload;
import io.racs.bench.object.workload.KeyDistribution;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.Op;
import io.racs.bench.object.workload.RangeSpec;
import io.racs.bench.object.workload.SizeSpec;
import io.racs.bench.stats.ArrivalSchedule.Arrivals;
import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves two agents on 127.0.0.1 load a target together and that the controller's merged iteration
 * is exactly the sum of the agents' parts (counts and histograms), that the command line drives
 * agents (with {@code --prefix-per-client} too), and that a lost agent is reported rather than
 * hidden.
 */
class AgentTest {
  private static final String CONFIG = "repositories:\n  - name: mem\n    type: memory\n";

  @TempDir Path dir;
  private BenchAgent first;
  private BenchAgent second;

  @BeforeEach
  void startAgents() throws Exception {
    first = BenchAgent.start(new InetSocketAddress("127.0.0.1", 0));
    second = BenchAgent.start(new InetSocketAddress("127.0.0.1", 0));
  }

  @AfterEach
  void stopAgents() {
    first.close();
    second.close();
  }

  private static String name(BenchAgent agent) {
    return "127.0.0.1:" + agent.address().getPort();
  }

  private static Workload workload(int clients) {
    return new Workload(
        Mix.of(Op.GET),
        SizeSpec.fixed(1024),
        KeyDistribution.UNIFORM,
        RangeSpec.NONE,
        8,
        1,
        "t/",
        clients,
        0,
        Arrivals.CONSTANT,
        Duration.ofMillis(200),
        0,
        true,
        5,
        1000);
  }

  @Test
  void iterate_whenTwoAgents_mergesExactlyTheSumOfTheirParts() throws Exception {
    List<TargetSpec> specs = List.of(TargetSpec.repository("mem", CONFIG, "test.yaml"));
    try (RemoteEngine engine = RemoteEngine.connect(List.of(name(first), name(second)), specs)) {
      Workload w = workload(2);
      engine.prepare(0, "t/", w);
      IterationResult merged = engine.iterate(0, "t/", w, Duration.ZERO, 9, Progress.silent());
      List<IterationResult> parts = engine.lastParts;
      assertThat(parts).hasSize(2);
      Histogram sum = IterationResult.newHistogram();
      long ops = 0;
      long verified = 0;
      long bytes = 0;
      for (IterationResult p : parts) {
        assertThat(p.invalidReason)
            .as(
                "ops %d errors %s window %d-%d",
                p.ops, p.errors, p.windowStartNanos, p.windowEndNanos)
            .isNull();
        assertThat(p.ops).isPositive();
        sum.add(p.latency);
        ops += p.ops;
        verified += p.verified;
        bytes += p.bytes;
      }
      assertThat(merged.ops).isEqualTo(ops);
      assertThat(merged.verified).isEqualTo(verified).isEqualTo(ops);
      assertThat(merged.bytes).isEqualTo(bytes);
      assertThat(merged.latency).isEqualTo(sum);
      assertThat(merged.latency.getTotalCount()).isEqualTo(ops);
      // Both agents started at one instant: the shared window holds most of each one's window.
      assertThat(parts.get(0).startEpochNanos).isEqualTo(parts.get(1).startEpochNanos);
      assertThat(merged.sharedWindowOps).isPositive().isLessThanOrEqualTo(ops);
      assertThat(merged.windowSeconds()).isGreaterThan(0.1);
      assertThat(merged.invalidReason).isNull();
      assertThat(merged.opsPerSecond()).isPositive();
      assertThat(engine.notes()).isEmpty();
      engine.cleanUp(0, "t/");
    }
  }

  @Test
  void wire_whenPrefixPerClient_carriesItToTheAgent() {
    Workload perClient = workload(3).withPrefixPerClient(true);
    assertThat(Wire.workload(Wire.workload(perClient)).prefixPerClient()).isTrue();
    assertThat(Wire.workload(Wire.workload(workload(3))).prefixPerClient()).isFalse();
  }

  @Test
  void iterate_whenAnAgentIsLost_reportsItAndGoesOnWithTheOther() throws Exception {
    List<TargetSpec> specs = List.of(TargetSpec.repository("mem", CONFIG, "test.yaml"));
    try (RemoteEngine engine = RemoteEngine.connect(List.of(name(first), name(second)), specs)) {
      Workload w = workload(1);
      engine.prepare(0, "t/", w);
      second.close();
      IterationResult merged = engine.iterate(0, "t/", w, Duration.ZERO, 9, Progress.silent());
      assertThat(engine.lastParts).hasSize(1);
      assertThat(merged.ops).isEqualTo(engine.lastParts.getFirst().ops).isPositive();
      assertThat(engine.notes())
          .singleElement()
          .asString()
          .startsWith("agent " + name(second) + " lost during /iterate");
    }
  }

  @Test
  void object_whenAgentsGiven_runsOnThemAndListsThem() throws Exception {
    Path config = Files.writeString(dir.resolve("racs.yaml"), CONFIG);
    Path out = dir.resolve("out");
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(stdout, true),
            new PrintWriter(stderr, true),
            "object",
            "--config",
            config.toString(),
            "--repository",
            "mem",
            "--op",
            "put",
            "--clients",
            "2",
            "--warmup",
            "0",
            "--iterations",
            "2",
            "--duration",
            "150ms",
            "--quiet",
            "--agents",
            name(first) + "," + name(second),
            "--out",
            out.toString());
    assertThat(code).as(stderr.toString()).isEqualTo(ExitCodes.OK);
    JsonNode root = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(root.get("agents")).hasSize(2);
    JsonNode p = root.get("points").get(0);
    assertThat(p.get("errorsTotal").asLong()).isZero();
    assertThat(p.get("ops").asLong()).isPositive();
  }

  @Test
  void object_whenAgentsAndPrefixPerClient_runsEachClientOnItsOwnPreparedKeys() throws Exception {
    Path config = Files.writeString(dir.resolve("racs.yaml"), CONFIG);
    Path out = dir.resolve("out");
    StringWriter stderr = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(new StringWriter()),
            new PrintWriter(stderr, true),
            "object",
            "--config",
            config.toString(),
            "--repository",
            "mem",
            "--op",
            "mixed",
            "--mix",
            "get=50,put=30,list=20",
            "--verify",
            "--prefix-per-client",
            "--objects",
            "4",
            "--clients",
            "1,2",
            "--warmup",
            "0",
            "--iterations",
            "1",
            "--count",
            "40",
            "--quiet",
            "--agents",
            name(first) + "," + name(second),
            "--out",
            out.toString());
    assertThat(code).as(stderr.toString()).isEqualTo(ExitCodes.OK);
    JsonNode root = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(root.at("/plan/prefixPerClient").asBoolean()).isTrue();
    for (JsonNode p : root.get("points")) {
      assertThat(p.get("errorsTotal").asLong()).as(p.toString()).isZero();
      assertThat(p.get("ops").asLong()).isPositive();
    }
  }

  @Test
  void object_whenAgentAddressIsBad_failsAsUsage() {
    StringWriter stderr = new StringWriter();
    int code =
        BenchMain.run(
            new PrintWriter(new StringWriter()),
            new PrintWriter(stderr, true),
            "object",
            "--endpoint",
            "http://127.0.0.1:1",
            "--access-key",
            "a",
            "--secret-key",
            "b",
            "--agents",
            "nohostport",
            "--quiet");
    assertThat(code).isEqualTo(ExitCodes.USAGE);
    assertThat(stderr.toString())
        .isEqualTo(
            "racs bench object: --agents: nohostport (expected: HOST:PORT)"
                + System.lineSeparator());
  }
}
