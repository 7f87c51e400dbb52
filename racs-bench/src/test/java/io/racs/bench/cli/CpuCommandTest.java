package io.racs.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.racs.bench.cpu.CpuTrace;
import io.racs.proxy.cli.ExitCodes;
import io.racs.testkit.Await;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs bench cpu} samples a running process over --duration or a command's run and
 * prints a TSV header and row (or JSON) with the thread groups, and refuses a process that is not
 * running or a bad duration in one line with the usage exit code; with --trace it writes a line per
 * sample until the process ends, and the trace gives the CPU between any two instants.
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
  void cpu_withTrace_writesALinePerSampleUntilTheProcessEnds(@TempDir Path dir) throws Exception {
    // A busy child that runs until it is told to stop: the trace ends when it has ended.
    Path stop = dir.resolve("stop");
    Process child =
        new ProcessBuilder("sh", "-c", "while [ ! -e '" + stop + "' ]; do :; done").start();
    Path file = dir.resolve("cpu.trace");
    CompletableFuture<Integer> traced =
        CompletableFuture.supplyAsync(
            () ->
                run(
                    "--pid",
                    Long.toString(child.pid()),
                    "--trace",
                    file.toString(),
                    "--every",
                    "20ms"));
    Await.until("five samples", () -> lines(file).size() >= 5);
    Files.createFile(stop);
    assertThat(traced.get(30, TimeUnit.SECONDS)).as(err.toString()).isZero();
    assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
    List<String> lines = lines(file);
    assertThat(lines).allMatch(line -> line.matches("\\d+\\.\\d{4} \\d+\\.\\d{2}"));
    double[] first = numbers(lines.getFirst());
    double[] last = numbers(lines.getLast());
    assertThat(last[0]).isGreaterThan(first[0]);
    assertThat(CpuTrace.read(file).between(first[0], last[0]))
        .isCloseTo(last[1] - first[1], within(1e-9));
  }

  private static List<String> lines(Path file) {
    try {
      return Files.exists(file) ? Files.readAllLines(file) : List.of();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static double[] numbers(String line) {
    String[] f = line.split(" ");
    return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1])};
  }

  @Test
  void trace_betweenTwoInstants_interpolatesTheSamplesAroundThem(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("cpu.trace");
    Files.writeString(file, "100.0 0.00\n100.1 0.05\n100.2 0.25\n");
    CpuTrace trace = CpuTrace.read(file);
    assertThat(trace.between(100.05, 100.15)).isCloseTo(0.125, within(1e-9));
    assertThat(trace.at(100.2)).isEqualTo(0.25);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> trace.at(100.3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no CPU sample around 100.300");
  }

  @Test
  void cpu_whenInputIsBad_exitsUsageInOneLine() {
    BenchCli.assertEachRefusedInOneLine(
        "cpu",
        List.of(
            List.of("--pid", "999999999"),
            List.of("--pid", "1", "--duration", "soon"),
            List.of("--pid", "1", "--format", "xml"),
            List.of("--pid", "1", "--trace", "t", "--every", "never"),
            List.of("--pid", "1", "--trace", "t", "--", "true")));
    assertThat(err.toString()).isEmpty();
  }
}
