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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the tests of {@code racs bench object} share: a temporary config of memory, fs, delayed and
 * faulty repositories (and one of an in-process 4x2 array), a run of the command in-process with
 * its output captured, and readers of the results.json it writes.
 */
abstract class ObjectCommandSupport {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  Path config;
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  @BeforeEach
  void writeConfig() throws Exception {
    Path fs = Files.createDirectories(dir.resolve("fs"));
    config = dir.resolve("racs.yaml");
    Files.writeString(
        config,
        """
        repositories:
          - name: mem
            type: memory
          - name: disk
            type: fs
            path: %s
            durable: false
          - name: slow
            type: memory
            decorators:
              - latency: {delay: 10ms}
          - name: glacial
            type: memory
            decorators:
              - latency: {delay: 300ms}
          - name: broken
            type: memory
            decorators:
              - faulty: {failRate: 0.25, kind: UNAVAILABLE, seed: 3}
        """
            .formatted(fs));
  }

  int run(String... args) {
    List<String> all = new ArrayList<>(List.of("object", "--config", config.toString(), "--quiet"));
    all.addAll(List.of(args));
    return BenchMain.run(
        new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
  }

  static JsonNode results(Path out) throws Exception {
    return JSON.readTree(out.resolve("results.json").toFile());
  }

  static JsonNode point(JsonNode root, String id) {
    for (JsonNode p : root.get("points")) {
      if (p.get("id").asText().equals(id)) {
        return p;
      }
    }
    throw new AssertionError("no point " + id + " in " + root.get("points"));
  }

  static void assertMonotone(JsonNode latency) {
    double[] v = {
      latency.get("p50").asDouble(),
      latency.get("p90").asDouble(),
      latency.get("p99").asDouble(),
      latency.get("p999").asDouble(),
      latency.get("p9999").asDouble(),
      latency.get("max").asDouble()
    };
    for (int i = 1; i < v.length; i++) {
      assertThat(v[i]).as("percentile %d of %s", i, latency).isGreaterThanOrEqualTo(v[i - 1]);
    }
    assertThat(v[0]).isPositive();
  }

  /** Six memory repositories m0..m5 as a 4x2 array, one more called direct, and {@code tail}. */
  Path arrayConfig(String tail) throws Exception {
    StringBuilder yaml =
        new StringBuilder(
            "array:\n  geometry: 4x2\n  slots: [m0, m1, m2, m3, m4, m5]\nrepositories:\n");
    for (int i = 0; i < 6; i++) {
      yaml.append("  - name: m").append(i).append("\n    type: memory\n");
    }
    yaml.append("  - name: direct\n    type: memory\n").append(tail);
    return Files.writeString(dir.resolve("array.yaml"), yaml);
  }

  /**
   * GET and HEAD of two keys through the array at 0 and 10 ms, after a warmup iteration that reads
   * both keys through each view (a view's store lists a key the first time it reads it).
   */
  JsonNode readTwoKeys(Path o, String... more) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--array",
                "racs",
                "--op",
                "get,head",
                "--objects",
                "2",
                "--delay",
                "0ms,10ms",
                "--warmup",
                "1",
                "--iterations",
                "2",
                "--count",
                "10",
                "--out",
                o.toString()));
    args.addAll(List.of(more));
    assertThat(run(args.toArray(String[]::new))).as(err.toString()).isEqualTo(ExitCodes.OK);
    JsonNode root = results(o);
    for (JsonNode p : root.get("points")) {
      assertThat(p.get("errorsTotal").asLong()).as(p.get("id").asText()).isZero();
    }
    return root;
  }

  static final List<String> READS =
      List.of(
          "racs/get/4KiB/c1/d0ms",
          "racs/get/4KiB/c1/d10ms",
          "racs/head/4KiB/c1/d0ms",
          "racs/head/4KiB/c1/d10ms");
}
