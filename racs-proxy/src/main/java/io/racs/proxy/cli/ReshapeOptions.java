package io.racs.proxy.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options the {@code racs reshape} commands share, as picocli mixins. */
final class ReshapeOptions {
  private ReshapeOptions() {}

  /** {@code --config}: the array as it is. */
  static final class Config {
    @Option(
        names = "--config",
        required = true,
        paramLabel = "FILE",
        description = "RACS configuration of the array as it is")
    Path path;
  }

  /** {@code --to} and {@code --rate}: the array as it is to be, and the mover's rate. */
  static final class Target {
    @Option(
        names = "--to",
        required = true,
        paramLabel = "FILE",
        description = "RACS configuration of the array as it is to be (its array: section)")
    Path path;

    @Option(
        names = "--rate",
        paramLabel = "MB/s",
        defaultValue = "50",
        description =
            "the mover's rate, which plan estimates the time at (default: ${DEFAULT-VALUE})")
    double rate;

    /** The rate, checked: more than 0 MB/s (10^6 bytes). */
    double rate() {
      if (!(rate > 0)) {
        throw new IllegalArgumentException("--rate: " + rate + " (expected: more than 0 MB/s)");
      }
      return rate;
    }
  }
}
