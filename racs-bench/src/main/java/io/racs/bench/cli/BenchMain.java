package io.racs.bench.cli;

import io.racs.bench.demo.DemoCommand;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code racs bench} command (the bench jar's main class): object workloads against
 * repositories and S3 endpoints, block direct-I/O workloads, JMH microbenchmarks and report
 * comparison.
 */
@Command(
    name = "racs bench",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Measure repositories, S3 endpoints and the erasure-coded array.")
public final class BenchMain implements Callable<Integer> {
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
    CommandLine cli = new CommandLine(new BenchMain());
    cli.addSubcommand("object", new ObjectCommand());
    cli.addSubcommand("block", BlockCommand.commandLine());
    cli.addSubcommand("jmh", new JmhCommand());
    cli.addSubcommand("compare", new CompareCommand());
    cli.addSubcommand("table", new TableCommand());
    cli.addSubcommand("cpu", new CpuCommand());
    cli.addSubcommand("versus", VersusCommand.commandLine());
    cli.addSubcommand("soak-verdict", new SoakVerdictCommand());
    cli.addSubcommand("probes", new ProbesCommand());
    cli.addSubcommand("agent", new AgentCommand());
    cli.addSubcommand("demo", new DemoCommand(BenchMain::run));
    ExitCodes.document(cli);
    // The demo is the first command a new user types: a mistyped value there is one line that says
    // what was wrong (as its other bad input is), not the whole usage; other commands keep
    // Picocli's message followed by their usage.
    CommandLine.IParameterExceptionHandler usage = cli.getParameterExceptionHandler();
    cli.setParameterExceptionHandler(
        (e, args) -> {
          CommandLine failed = e.getCommandLine();
          if (!failed.getCommandName().equals("demo")) {
            return usage.handleParseException(e, args);
          }
          failed
              .getErr()
              .println(
                  failed.getCommandSpec().qualifiedName()
                      + ": "
                      + e.getMessage()
                      + " (see --help)");
          return ExitCodes.USAGE;
        });
    return cli;
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }
}
