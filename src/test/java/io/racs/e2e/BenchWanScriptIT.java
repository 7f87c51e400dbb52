package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Smoke test of {@code scripts/bench-wan.sh} at its smallest (the parallelism case only, GET at one
 * and two clients at 20 ms, one iteration of 300 ms per point, memory repositories in the bench's
 * process): the script still runs RACS and the direct repository side by side and prints its table
 * with {@code racs bench table --vs direct}, the parallelism impact ratios included; a bad setting
 * is refused in one line with exit 2.
 */
class BenchWanScriptIT {
  @Test
  void wan_parallelCaseAtItsSmallest_printsTheTable(@TempDir Path dir) {
    String table =
        ScriptSmoke.output(
            "bench-wan.sh",
            dir,
            Map.of(
                "ONLY", "parallel",
                "ITERATIONS", "1",
                "DURATION", "300ms",
                "PAR_CLIENTS", "1,2",
                "PAR_DELAY", "20ms",
                "PAR_OPS", "get"));
    assertThat(table.lines())
        .hasSize(2 + 2)
        .first()
        .asString()
        .startsWith(
            "| parallel case: op 4KiB | round trip | clients | direct ops/s | RACS ops/s |");
    assertThat(table.lines().toList().get(2)).startsWith("| get | 20ms | 1 |");
    // The two-client point has its ratio over the one-client point, for both targets.
    assertThat(table.lines().toList().get(3))
        .startsWith("| get | 20ms | 2 |")
        .doesNotContain("n/a");
  }

  @Test
  void wan_whenASettingIsBad_exitsUsage() {
    ScriptSmoke.refuses("bench-wan.sh", Map.of("ONLY", "everything"), 2, "ONLY: everything");
    ScriptSmoke.refuses(
        "bench-wan.sh", Map.of("ONLY", "collection", "DURATION", "1m"), 2, "DURATION: 1m");
  }
}
