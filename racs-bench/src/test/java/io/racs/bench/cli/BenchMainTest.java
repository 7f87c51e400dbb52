package io.racs.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.cli.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Proves the bench command tree parses, documents its exit codes and refuses unknown input. */
class BenchMainTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return BenchMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  @Test
  void run_whenNoArguments_printsUsageAndExitsWithUsageCode() {
    assertThat(run()).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("object", "block", "jmh", "compare", "agent");
  }

  @Test
  void run_whenHelp_listsExitCodes() {
    assertThat(run("--help")).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("Exit codes:", "nothing changed");
  }

  @Test
  void jmh_whenListing_showsTheCodecBenchmarks() {
    // JMH prints its listing to System.out itself.
    PrintStream old = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      assertThat(run("jmh", "-l", "CodecBenchmark")).isEqualTo(ExitCodes.OK);
    } finally {
      System.setOut(old);
    }
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .contains("io.racs.bench.jmh.CodecBenchmark.encode", "CodecBenchmark.reconstruct");
  }

  @Test
  void jmh_whenBadOption_failsAsUsageError() {
    assertThat(run("jmh", "-wi", "notanumber")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).startsWith("racs bench jmh: JMH options:");
  }

  @Test
  void run_whenUnknownOption_failsWithOneLineMessage() {
    assertThat(run("--no-such-option")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).startsWith("Unknown option: '--no-such-option'");
  }
}
