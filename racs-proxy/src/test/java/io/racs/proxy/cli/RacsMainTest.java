package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Proves the racs command tree parses, documents its exit codes and refuses unknown input. */
class RacsMainTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return RacsMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  @Test
  void run_whenNoArguments_printsUsageAndExitsWithUsageCode() {
    assertThat(run()).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("server", "codec", "heal", "recover");
  }

  @Test
  void run_whenSubcommandHelp_documentsExitCodes() {
    assertThat(run("heal", "--help")).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("Exit codes:", "nothing changed");
  }

  @Test
  void run_whenVersion_printsJavaVersion() {
    assertThat(run("--version")).isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("racs ", "Java " + Runtime.version().feature());
  }

  @Test
  void run_whenUnknownCommand_failsWithUsageCode() {
    assertThat(run("frobnicate")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("frobnicate");
  }
}
