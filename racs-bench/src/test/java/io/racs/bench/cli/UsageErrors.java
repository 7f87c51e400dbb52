package io.racs.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Stream;

/** The house rule for bad input, checked per command line: one line on stderr, exit 2. */
final class UsageErrors {
  private UsageErrors() {}

  /** Runs {@code racs bench COMMAND ARGS} for each of {@code bad} and asserts the rule. */
  static void assertEachRefusedInOneLine(String command, List<List<String>> bad) {
    for (List<String> args : bad) {
      StringWriter err = new StringWriter();
      int code =
          BenchMain.run(
              new PrintWriter(new StringWriter(), true),
              new PrintWriter(err, true),
              Stream.concat(Stream.of(command), args.stream()).toArray(String[]::new));
      assertThat(code).as("%s: %s", args, err).isEqualTo(ExitCodes.USAGE);
      assertThat(err.toString().strip().lines()).as("%s", args).hasSize(1);
    }
  }
}
