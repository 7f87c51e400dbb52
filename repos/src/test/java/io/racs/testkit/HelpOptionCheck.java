package io.racs.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import picocli.CommandLine;

/**
 * The README's promise that {@code --help} works on every command, as one check each command-line
 * module runs over its own tree: {@code racs} in the proxy, {@code racs bench} in the bench.
 *
 * <p>It walks the command tree as Picocli builds it, so a command added later is checked too, and
 * asks each command for {@code --help}, expecting its usage with the exit codes on stdout, nothing
 * on stderr, and exit code 0.
 */
public final class HelpOptionCheck {
  /** Runs the command line with the given streams and returns its exit code. */
  @FunctionalInterface
  public interface Runner {
    int run(PrintWriter out, PrintWriter err, String... args);
  }

  private HelpOptionCheck() {}

  /**
   * One test per command of {@code root}'s tree, {@code root} itself included.
   *
   * @param root the tree, whose command name ({@code racs}, {@code racs bench}) opens every usage
   * @param runner runs a command line as the program's main does
   * @param moreCommandsThan how many commands the tree has at least, so that a tree that lost its
   *     subcommands fails instead of checking less
   */
  public static List<DynamicTest> everyCommand(
      CommandLine root, Runner runner, int moreCommandsThan) {
    List<List<String>> commands = new ArrayList<>();
    collect(root, List.of(), commands);
    assertThat(commands).hasSizeGreaterThan(moreCommandsThan);
    String program = root.getCommandName();
    List<DynamicTest> tests = new ArrayList<>();
    for (List<String> path : commands) {
      String name = String.join(" ", path);
      tests.add(
          DynamicTest.dynamicTest(
              program + " " + name + " --help",
              () -> {
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                List<String> args = new ArrayList<>(path);
                args.add("--help");
                int code =
                    runner.run(
                        new PrintWriter(out, true),
                        new PrintWriter(err, true),
                        args.toArray(String[]::new));
                assertThat(code).as(name + ": " + err).isZero();
                assertThat(err.toString()).as(name).isEmpty();
                assertThat(out.toString())
                    .as(name)
                    .startsWith("Usage: " + program + (path.isEmpty() ? "" : " " + name))
                    .contains("Exit codes:");
              }));
    }
    return tests;
  }

  private static void collect(CommandLine cli, List<String> path, List<List<String>> all) {
    all.add(path);
    cli.getSubcommands()
        .forEach(
            (name, sub) -> {
              // Aliases map to the same CommandLine; each command is asked once, by its name.
              if (name.equals(sub.getCommandName())) {
                List<String> next = new ArrayList<>(path);
                next.add(name);
                collect(sub, next, all);
              }
            });
  }
}
