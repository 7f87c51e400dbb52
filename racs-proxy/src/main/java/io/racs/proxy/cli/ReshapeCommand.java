package io.racs.proxy.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code racs reshape}: change the array's geometry and repositories while it serves
 * (docs/reshape.md). Its subcommands so far: {@code plan}, which changes nothing, and {@code
 * start}, {@code status} and {@code abort}, which record the target on the array and read it back
 * ({@link ReshapeRecordCommands}), and {@code run}, the mover in the foreground ({@link
 * ReshapeRunCommand}).
 */
@Command(
    name = "reshape",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Change the array's geometry and repositories (docs/reshape.md).",
    subcommands = {
      ReshapePlanCommand.class,
      ReshapeRecordCommands.Start.class,
      ReshapeRecordCommands.Status.class,
      ReshapeRecordCommands.Abort.class,
      ReshapeRunCommand.class
    })
public final class ReshapeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    // "racs reshape" alone is a usage error: say which subcommands exist.
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }
}
