package io.racs.proxy.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * A subcommand whose implementation has not landed yet. It says so on standard error, names the
 * issue that tracks it, and exits with {@link ExitCodes#NOT_BUILT} instead of pretending to work.
 */
@Command(mixinStandardHelpOptions = true, versionProvider = VersionProvider.class)
public final class NotBuiltCommand implements Callable<Integer> {
  private final String what;
  private final int issue;

  @Spec CommandSpec spec;

  @Unmatched String[] ignored;

  /**
   * @param what what the command will do, for the message
   * @param issue the tracking issue number
   */
  public NotBuiltCommand(String what, int issue) {
    this.what = what;
    this.issue = issue;
  }

  @Override
  public Integer call() {
    spec.commandLine()
        .getErr()
        .printf(
            "%s: not built yet (%s; tracked in issue #%d)%n", spec.qualifiedName(), what, issue);
    return ExitCodes.NOT_BUILT;
  }
}
