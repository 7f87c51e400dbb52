package io.racs.e2e;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Smoke tests of the scripts that need what CI does not run (warp, a soak's minutes, six MinIO
 * servers stopped in turn): each still refuses a bad setting in one line with exit 2 (a missing
 * warp: exit 1) before it starts anything. What they compute from their runs is tested on recorded
 * output in racs-bench ({@code VersusCommandTest}, {@code SoakVerdictCommandTest}, {@code
 * ProbesCommandTest}).
 */
class ScriptSettingsIT {
  @Test
  void vsWarp_whenASettingIsBad_exitsUsage() {
    ScriptSmoke.refuses("bench-vs-warp.sh", Map.of("ROUNDS", "0"), 2, "ROUNDS: 0");
  }

  @Test
  void vsMinioWarp_whenASettingIsBadOrWarpIsMissing_exitsInOneLine() {
    ScriptSmoke.refuses(
        "bench-vs-minio-warp.sh", Map.of("WARMUP_SECONDS", "soon"), 2, "WARMUP_SECONDS: soon");
    ScriptSmoke.refuses(
        "bench-vs-minio-warp.sh", Map.of("WARP_BIN", "/nonexistent/warp"), 1, "no warp at");
  }

  @Test
  void soak_whenASettingIsBad_exitsUsage() {
    ScriptSmoke.refuses("soak.sh", Map.of("SOAK_SECONDS", "10"), 2, "SOAK_SECONDS: 10");
  }

  @Test
  void stallExperiment_whenASettingIsBad_exitsUsage() {
    ScriptSmoke.refuses("stall-experiment.sh", Map.of("CASES", "0 9"), 2, "CASES: 0 9");
    ScriptSmoke.refuses(
        "stall-experiment.sh", Map.of("SECONDS_PER_RUN", "0"), 2, "SECONDS_PER_RUN: 0");
  }

  @Test
  void wireP99_whenASettingIsBad_exitsUsage() {
    ScriptSmoke.refuses("wire-p99.sh", Map.of("WIRE_OPS", "0"), 2, "WIRE_OPS: '0'");
    ScriptSmoke.refuses("wire-p99.sh", Map.of("WIRE_SEED", "x"), 2, "WIRE_SEED: 'x'");
  }

  @Test
  void reshapeLong_whenASettingIsBad_exitsUsage() {
    ScriptSmoke.refuses("reshape-long.sh", Map.of("RESHAPE_SEED", "x"), 2, "RESHAPE_SEED: 'x'");
  }
}
