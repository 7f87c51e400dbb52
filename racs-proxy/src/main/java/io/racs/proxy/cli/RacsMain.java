package io.racs.proxy.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code racs} command of the proxy jar: {@code server}, {@code codec}, {@code heal} and {@code
 * recover}. The launcher script {@code ./racs} dispatches here; {@code java -jar racs-proxy.jar}
 * works the same way.
 */
@Command(
    name = "racs",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "RACS: an erasure-coding S3 proxy over independent storage repositories.")
public final class RacsMain implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** Runs the command line and exits the JVM with its exit code. */
  public static void main(String[] args) {
    System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
  }

  /** Runs the command line with the given streams and returns the exit code (for tests). */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cli = commandLine();
    cli.setOut(out);
    cli.setErr(err);
    return cli.execute(args);
  }

  /** The full command tree. */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new RacsMain());
    cli.addSubcommand("server", new ServerCommand());
    cli.addSubcommand("codec", new CodecCommand());
    cli.addSubcommand("heal", new HealCommand());
    cli.addSubcommand("recover", new RecoverCommand());
    cli.addSubcommand("keys", new KeysCommand());
    cli.addSubcommand("reshape", new ReshapeCommand());
    return ExitCodes.document(cli);
  }

  @Override
  public Integer call() {
    // "racs" alone is a usage error: say which commands exist.
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }
}
