package io.racs.proxy.cli;

import io.racs.repos.config.ConfigException;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;

/** Process exit codes shared by every RACS command (documented in each command's help). */
public final class ExitCodes {
  /** The command did what it was asked. */
  public static final int OK = 0;

  /** The command ran and failed (I/O error, unreachable repository, failed check). */
  public static final int FAILURE = 1;

  /** The command line or a configuration file is invalid; nothing was changed. */
  public static final int USAGE = 2;

  /** What the command reports on is still under way ({@code racs reshape status}: running). */
  public static final int RUNNING = 3;

  private ExitCodes() {}

  /** The exit codes with their meaning, for every command's help. */
  public static Map<String, String> exitCodeMap() {
    Map<String, String> codes = new LinkedHashMap<>();
    codes.put(Integer.toString(OK), "success");
    codes.put(
        Integer.toString(FAILURE), "failure (I/O error, unreachable repository, failed check)");
    codes.put(Integer.toString(USAGE), "invalid command line or configuration; nothing changed");
    return codes;
  }

  /**
   * Gives {@code cli} and every subcommand the exit code section in their help (the shared codes,
   * unless the command lists its own, such as {@code reshape}'s 3 for "running"), and makes a
   * failure print one line ({@code racs codec decode: message}) and exit {@link #FAILURE} instead
   * of a stack trace. An {@link IllegalArgumentException} from a command is bad input: it exits
   * {@link #USAGE}.
   *
   * @return {@code cli}
   */
  public static CommandLine document(CommandLine cli) {
    if (cli.getCommandSpec().usageMessage().exitCodeList().isEmpty()) { // else its own codes
      cli.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n");
      cli.getCommandSpec().usageMessage().exitCodeList(exitCodeMap());
    }
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          String message = e.getMessage() != null ? e.getMessage() : e.toString();
          commandLine
              .getErr()
              .println(commandLine.getCommandSpec().qualifiedName() + ": " + message);
          return e instanceof IllegalArgumentException || e instanceof ConfigException
              ? USAGE
              : FAILURE;
        });
    for (CommandLine sub : cli.getSubcommands().values()) {
      document(sub);
    }
    return cli;
  }
}
