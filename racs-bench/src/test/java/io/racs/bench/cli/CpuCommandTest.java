package io.racs.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.cli.ExitCodes;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs bench cpu} samples a running process over --duration or a command's run and
 * prints a TSV header and row (or JSON) with the thread groups, and refuses a process that is not
 * running or a bad duration in one line with the usage exit code.
 */
class CpuCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return BenchCli.run(out, err, "cpu", args);
  }

  @Test
  void cpu_ofThisProcess_printsTsvWithTheThreadGroups() {
    String self = Long.toString(ProcessHandle.current().pid());
    assertThat(run("--pid", self, "--duration", "50ms", "--format", "tsv"))
        .as(err.toString())
        .isEqualTo(ExitCodes.OK);
    List<String> lines = out.toString().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0).split("\t"))
        .containsExactly(
            "seconds",
            "userSeconds",
            "systemSeconds",
            "contextSwitches",
            "jitSeconds",
            "gcSeconds",
            "eventLoopSeconds",
            "forkJoinSeconds",
            "otherSeconds",
            "unattributedSeconds");
    assertThat(lines.get(1).split("\t")).hasSize(10);
    assertThat(lines.get(1).split("\t")[0]).isEqualTo("0.05");
  }

  @Test
  void cpu_asJson_namesTheProcess() {
    String self = Long.toString(ProcessHandle.current().pid());
    assertThat(run("--pid", self, "--duration", "10ms")).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("\"pids\" : [ " + self + " ]", "\"threadGroupSeconds\"");
  }

  @Test
  void cpu_overACommand_writesToOutAndExitsWithTheCommandsCode(@TempDir Path dir)
      throws IOException {
    String self = Long.toString(ProcessHandle.current().pid());
    Path file = dir.resolve("cpu.tsv");
    assertThat(run("--pid", self, "--format", "tsv", "--out", file.toString(), "--", "true"))
        .as(err.toString())
        .isZero();
    assertThat(Files.readAllLines(file)).hasSize(2).first().asString().startsWith("seconds\t");
    assertThat(out.toString()).isEmpty();
    assertThat(run("--pid", self, "--out", file.toString(), "--", "sh", "-c", "exit 3"))
        .isEqualTo(3);
  }

  @Test
  void cpu_whenInputIsBad_exitsUsageInOneLine() {
    BenchCli.assertEachRefusedInOneLine(
        "cpu",
        List.of(
            List.of("--pid", "999999999"),
            List.of("--pid", "1", "--duration", "soon"),
            List.of("--pid", "1", "--format", "xml")));
    assertThat(err.toString()).isEmpty();
  }
}
