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
 * Smoke test of {@code scripts/bench-vs-minio.sh} at its smallest (4 KiB only, two half-second
 * iterations, no 64 MiB run): the script still starts the proxy and a MinIO server, benches both
 * side by side, and prints its RACS/MinIO table with {@code racs bench table --vs}.
 */
class BenchVsMinioScriptIT {
  @Test
  void vsMinio_atItsSmallest_printsTheRatioTable(@TempDir Path dir) throws IOException {
    Path out =
        ScriptSmoke.run(
            "bench-vs-minio.sh",
            dir,
            Map.of(
                "SMALL_SIZES", "4KiB",
                "SMALL_DURATION", "500ms",
                "LARGE_SIZES", "",
                "ITERATIONS", "2"));
    List<String> summary = Files.readAllLines(out.resolve("summary.md"));
    assertThat(summary.getFirst())
        .startsWith("| workload | size | clients | ops/s (CI) | minio-ec2 ops/s (CI) |");
    assertThat(summary).hasSize(2 + 4); // put and get at 1 and 8 clients
    assertThat(summary.get(2)).startsWith("| put | 4KiB | 1 |");
  }
}
