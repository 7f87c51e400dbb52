package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Smoke test of {@code scripts/bench-scaleout.sh} at its smallest (one proxy, two iterations of a
 * second): the script still starts a proxy, drives it through {@code racs bench object
 * --sample-pid}, samples its idle CPU with {@code racs bench cpu}, and builds its summary with
 * {@code racs bench table}; a bad setting is refused with exit 2.
 */
class BenchScaleoutScriptIT {
  @Test
  void scaleout_atItsSmallest_writesTheSummaryFromTheSampledCpu(@TempDir Path dir)
      throws IOException {
    Path out =
        ScriptSmoke.run(
            "bench-scaleout.sh",
            dir,
            Map.of(
                "PROXIES", "1",
                "ROUNDS", "1",
                "CLIENTS", "2",
                "SIZES", "64KiB",
                "ITERATIONS", "2",
                "DURATION", "1s",
                "WARMUP", "1s",
                "IDLE", "1s"));
    String summary = Files.readString(out.resolve("summary.md"));
    assertThat(summary)
        .contains("| run | ops/s (CI) |", "| 1-proxies |")
        .contains("CPU ms/request (CI)", "jit ms/request", "idle proxy CPU ms/s")
        .doesNotContain("n/a ± n/a");
    assertThat(out.resolve("1-proxies/results.json")).content().contains("\"sampledCpu\" : {");
  }

  @Test
  void scaleout_whenASettingIsBad_exitsUsage() {
    Launcher.Result result =
        Launcher.exec(List.of("scripts/bench-scaleout.sh"), Map.of("PROXIES", "0"));
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr().strip().lines()).singleElement().asString().contains("PROXIES: 0");
  }
}
