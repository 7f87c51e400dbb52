package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.TestTools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Smoke test of {@code scripts/bench-vs-fio.sh} at its smallest (a 16 MiB file, random 4 KiB reads
 * at one thread, one run of a second per tool): the script still runs fio twice and racs bench
 * block sweep once on the same file and prints their table with {@code racs bench versus fio}; a
 * bad setting is refused in one line with exit 2 before fio is looked for.
 */
class BenchVsFioScriptIT {
  @Test
  void vsFio_atItsSmallest_printsTheTable() throws IOException {
    // O_DIRECT needs a disk, and the temporary directory may be tmpfs: the build directory is not.
    Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "vs-fio");
    Path fio = TestTools.fio();
    String table =
        ScriptSmoke.output(
            "bench-vs-fio.sh",
            dir,
            Map.of(
                "PATH", fio.getParent() + ":" + System.getenv("PATH"),
                "SIZE", "16MiB",
                "RUNTIME", "1",
                "RUNS", "1",
                "THREADS", "1",
                "PATTERNS", "randread"),
            dir.toAbsolutePath().toString());
    List<String> lines = table.lines().toList();
    assertThat(lines.getFirst().split("\\s+"))
        .startsWith("point", "unit", "fio", "fio", "-T", "racs", "racs/fio");
    assertThat(lines.get(1).split("\\s+")).startsWith("randread/4KiB/t1", "IOPS");
    // One run: the ratios stand without an interval.
    assertThat(lines.get(1)).contains(" n/a ");
    assertThat(dir.resolve("raw/racs-randread-t1-r1/results.json")).exists();
  }

  @Test
  void vsFio_whenASettingIsBad_exitsUsage() {
    ScriptSmoke.refuses("bench-vs-fio.sh", Map.of("SIZE", "lots"), 2, "SIZE: lots");
    ScriptSmoke.refuses("bench-vs-fio.sh", Map.of("PATTERNS", "sideways"), 2, "PATTERNS: sideways");
  }
}
