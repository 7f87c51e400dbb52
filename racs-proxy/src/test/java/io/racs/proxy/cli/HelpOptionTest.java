package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * Proves the README's promise that {@code --help} works on every command: walks the whole {@code
 * racs} command tree as Picocli builds it (so a command added later is checked too) and asks each
 * command for {@code --help}, expecting its usage with the exit codes on stdout, nothing on stderr,
 * and exit code 0.
 */
class HelpOptionTest {
  private static void collect(CommandLine cli, List<String> path, List<List<String>> all) {
    all.add(path);
    cli.getSubcommands()
        .forEach(
            (name, sub) -> {
              if (name.equals(sub.getCommandName())) {
                List<String> next = new ArrayList<>(path);
                next.add(name);
                collect(sub, next, all);
              }
            });
  }

  @TestFactory
  List<DynamicTest> help_whenAskedOfEveryCommand_printsUsageAndExitsZero() {
    List<List<String>> commands = new ArrayList<>();
    collect(RacsMain.commandLine(), List.of(), commands);
    assertThat(commands).hasSizeGreaterThan(4);
    List<DynamicTest> tests = new ArrayList<>();
    for (List<String> path : commands) {
      String name = String.join(" ", path);
      tests.add(
          DynamicTest.dynamicTest(
              "racs " + name + " --help",
              () -> {
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                List<String> args = new ArrayList<>(path);
                args.add("--help");
                int code =
                    RacsMain.run(
                        new PrintWriter(out, true),
                        new PrintWriter(err, true),
                        args.toArray(String[]::new));
                assertThat(code).as(name + ": " + err).isEqualTo(ExitCodes.OK);
                assertThat(err.toString()).as(name).isEmpty();
                assertThat(out.toString())
                    .as(name)
                    .startsWith("Usage: racs" + (path.isEmpty() ? "" : " " + name))
                    .contains("Exit codes:");
              }));
    }
    return tests;
  }
}
