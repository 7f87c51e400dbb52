package io.racs.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves that compare reads results of schema versions 1 and 2, refuses others, and says so when a
 * point has no throughput in one of the runs instead of comparing a missing number.
 */
class CompareTest {
  @TempDir Path dir;

  private Path file(int version, String throughput) throws Exception {
    return Files.writeString(
        dir.resolve("v" + version + "-" + throughput.hashCode() + ".json"),
        """
        {"schemaVersion": %d, "kind": "object", "points": [
          {"id": "a/put/1MiB/c8/d0ms", "throughput": {"opsPerSecond": %s,
           "megabytesPerSecond": null}, "latencyMillis": {"p50": 10, "p99": 20}}]}
        """
            .formatted(version, throughput));
  }

  @Test
  void read_whenVersionOneOrTwo_readsAndRefusesOthers() throws Exception {
    assertThat(Compare.read(file(1, "null")).path("schemaVersion").asInt()).isEqualTo(1);
    assertThat(Compare.read(file(2, "null")).path("schemaVersion").asInt()).isEqualTo(2);
    Path three = file(3, "null");
    assertThatThrownBy(() -> Compare.read(three))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(three + ": schemaVersion 3 (expected: 1 to 2)");
  }

  @Test
  void print_whenOneRunHasNoThroughput_saysSoWithoutARatio() throws Exception {
    JsonNode old =
        Compare.read(file(1, "{\"mean\": 12998, \"halfWidth\": null, \"stddev\": null, \"n\": 1}"));
    JsonNode current = Compare.read(file(2, "null"));
    StringWriter out = new StringWriter();
    assertThat(Compare.print(old, current, new PrintWriter(out))).isEqualTo(1);
    assertThat(out.toString())
        .containsPattern(
            "a/put/1MiB/c8/d0ms +ops/s +12998 +none +n/a +n/a +no throughput in one run"
                + " \\(no valid iteration\\)");
  }
}
