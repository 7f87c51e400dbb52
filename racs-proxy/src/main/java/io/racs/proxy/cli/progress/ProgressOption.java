package io.racs.proxy.cli.progress;

import picocli.CommandLine.Option;

/** The {@code --progress} option a long command mixes in (Picocli {@code @Mixin}). */
public final class ProgressOption {
  @Option(
      names = "--progress",
      paramLabel = "MODE",
      defaultValue = "auto",
      description =
          "how progress shows: bar (redrawn in place), line (a plain line every few seconds),"
              + " none, or auto (a bar on a terminal, else lines; the default)")
  String mode = "auto";

  /** The mode asked for, or the one the terminal calls for. */
  public ProgressMode mode() {
    return ProgressMode.of(mode);
  }
}
