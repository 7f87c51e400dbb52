package io.racs.proxy.cli;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.crypto.MasterKey;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.object.KeyRotation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code racs keys}: makes a master key for SSE-S3, and re-wraps stored data keys with a new one
 * (without rewriting any data).
 */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description =
        "Master keys for SSE-S3: generate one, or rotate stored data keys to the current.",
    subcommands = {KeysCommand.Generate.class, KeysCommand.Rotate.class})
public final class KeysCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }

  /** {@code racs keys generate --out FILE}. */
  @Command(
      name = "generate",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "Write a new random master key (64 hex digits) to a new file, mode 0600.")
  public static final class Generate implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--out",
        required = true,
        paramLabel = "FILE",
        description = "the key file to create (never overwritten)")
    Path out;

    @Override
    public Integer call() throws IOException {
      MasterKey key = MasterKey.generate();
      try {
        // Created owner-only from the start: the key is never readable by others, not even briefly.
        Files.createFile(
            out,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (FileAlreadyExistsException e) {
        throw new IllegalArgumentException("--out: " + out + " exists (expected: a new file)");
      }
      Files.writeString(
          out, key.toHex() + "\n", StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
      spec.commandLine().getOut().printf("wrote master key %s to %s (mode 0600)%n", key.id(), out);
      return ExitCodes.OK;
    }
  }

  /** {@code racs keys rotate --config FILE [--dry-run]}. */
  @Command(
      name = "rotate",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Re-wrap every SSE-S3 data key with the configuration's current master key (encryption:"
            + " keyFile), opening them with it or with one of previousKeyFiles. No data is"
            + " rewritten. Restart the proxies with the new configuration first; drop a previous"
            + " key only after a rotation that reported no failures."
      })
  public static final class Rotate implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--config",
        required = true,
        paramLabel = "FILE",
        description = "RACS configuration (repositories, array and encryption)")
    Path config;

    @Option(names = "--dry-run", description = "count what would be re-wrapped; change nothing")
    boolean dryRun;

    @Override
    public Integer call() {
      PrintWriter out = spec.commandLine().getOut();
      ArrayConfig array = ArrayConfig.load(config);
      if (array.store().keys() == null) {
        throw new IllegalArgumentException(
            "--config: "
                + config
                + " has no encryption key (expected: encryption: keyFile or key)");
      }
      try (ErasureStore store = array.open()) {
        out.printf("rotating to master key %s%n", array.store().keys().current().id());
        KeyRotation.Report report = store.rotateKeys(dryRun, out::println);
        out.printf(
            "%s: %d, already current: %d, failed: %d%n",
            dryRun ? "to re-wrap" : "re-wrapped",
            report.rewrapped(),
            report.alreadyCurrent(),
            report.failed().size());
        report.failed().forEach(f -> out.println("  failed: " + f));
        if (!report.failed().isEmpty()) {
          out.println(
              "keep the previous keys configured, and rotate again once all repositories answer");
        }
        return report.failed().isEmpty() ? ExitCodes.OK : ExitCodes.FAILURE;
      }
    }
  }
}
