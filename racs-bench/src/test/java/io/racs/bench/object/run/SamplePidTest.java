package io.racs.bench.object.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs bench object --sample-pid} records the sampled processes' CPU over every
 * measured iteration (and only those) into results.json, sums them per point with a CPU-per-request
 * interval, and refuses a process that is not running before anything runs. The process sampled is
 * the test's own JVM, which runs the bench's clients, so its CPU must grow.
 */
class SamplePidTest {
  @TempDir Path dir;

  private int run(StringWriter err, String... extra) throws Exception {
    Path config = dir.resolve("racs.yaml");
    Files.writeString(config, "repositories:\n  - name: mem\n    type: memory\n");
    String[] base = {
      "object",
      "--config",
      config.toString(),
      "--quiet",
      "--repository",
      "mem",
      "--op",
      "put",
      "--sizes",
      "64KiB",
      "--clients",
      "2",
      "--warmup",
      "1",
      "--iterations",
      "3",
      "--duration",
      "200ms",
      "--out",
      dir.resolve("out").toString()
    };
    String[] all = java.util.Arrays.copyOf(base, base.length + extra.length);
    System.arraycopy(extra, 0, all, base.length, extra.length);
    return BenchMain.run(
        new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), all);
  }

  @Test
  void object_withSamplePid_recordsCpuPerMeasuredIteration() throws Exception {
    StringWriter err = new StringWriter();
    long self = ProcessHandle.current().pid();
    assertThat(run(err, "--sample-pid", Long.toString(self))).as(err.toString()).isZero();
    JsonNode point =
        new ObjectMapper().readTree(dir.resolve("out/results.json").toFile()).get("points").get(0);
    JsonNode iterations = point.get("iterations");
    assertThat(iterations).hasSize(3);
    long requests = 0;
    double seconds = 0;
    for (JsonNode i : iterations) {
      JsonNode cpu = i.get("sampledCpu");
      assertThat(cpu.get("pids").get(0).asLong()).isEqualTo(self);
      assertThat(cpu.get("requests").asLong()).isPositive();
      requests += cpu.get("requests").asLong();
      seconds += cpu.get("userSeconds").asDouble() + cpu.get("systemSeconds").asDouble();
      assertThat(cpu.get("threadGroupSeconds").fieldNames())
          .toIterable()
          .containsExactly("jit", "gc", "eventLoop", "forkJoin", "other", "unattributed");
    }
    JsonNode total = point.get("sampledCpu");
    assertThat(total.get("requests").asLong()).isEqualTo(requests);
    assertThat(total.get("userSeconds").asDouble() + total.get("systemSeconds").asDouble())
        .isPositive()
        .isCloseTo(seconds, org.assertj.core.api.Assertions.within(0.05));
    assertThat(total.get("msPerRequestEstimate").get("n").asInt()).isEqualTo(3);
    assertThat(total.get("msPerRequestEstimate").get("confidence").asDouble())
        .isCloseTo(0.999, org.assertj.core.api.Assertions.within(1e-9));
  }

  @Test
  void object_withoutSamplePid_writesNullSampledCpu() throws Exception {
    StringWriter err = new StringWriter();
    assertThat(run(err)).as(err.toString()).isZero();
    JsonNode point =
        new ObjectMapper().readTree(dir.resolve("out/results.json").toFile()).get("points").get(0);
    assertThat(point.get("sampledCpu").isNull()).isTrue();
    assertThat(point.get("iterations").get(0).get("sampledCpu").isNull()).isTrue();
  }

  @Test
  void object_whenTheSampledProcessIsNotRunning_exitsUsageBeforeRunning() throws Exception {
    StringWriter err = new StringWriter();
    assertThat(run(err, "--sample-pid", "999999999")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString().strip().lines())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("--sample-pid: 999999999 (expected: ");
    assertThat(dir.resolve("out")).doesNotExist();
  }
}
