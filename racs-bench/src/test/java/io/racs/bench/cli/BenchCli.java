package io.racs.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs {@code racs bench} subcommands in tests, and checks the house rule for bad input: one line
 * on stderr, exit 2.
 */
final class BenchCli {
  private BenchCli() {}

  /** Runs {@code racs bench COMMAND ARGS}, printing into {@code out} and {@code err}. */
  static int run(StringWriter out, StringWriter err, String command, String... args) {
    return BenchMain.run(
        new PrintWriter(out, true),
        new PrintWriter(err, true),
        Stream.concat(Stream.of(command), Stream.of(args)).toArray(String[]::new));
  }

  /** Runs {@code racs bench COMMAND ARGS} for each of {@code bad} and asserts the rule. */
  static void assertEachRefusedInOneLine(String command, List<List<String>> bad) {
    for (List<String> args : bad) {
      StringWriter err = new StringWriter();
      int code = run(new StringWriter(), err, command, args.toArray(String[]::new));
      assertThat(code).as("%s: %s", args, err).isEqualTo(ExitCodes.USAGE);
      assertThat(err.toString().strip().lines()).as("%s", args).hasSize(1);
    }
  }
}
