package io.racs.bench.cli;

import io.racs.bench.external.VersusFio;
import io.racs.bench.external.VersusWarp;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code racs bench versus fio|warp DIR}: racs-bench's results set beside another load generator's,
 * from the files the comparison scripts leave in DIR (scripts/bench-vs-fio.sh,
 * scripts/bench-vs-warp.sh).
 */
@Command(
    name = "versus",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Compare racs-bench's results with fio's or warp's, run by run.")
public final class VersusCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** The command with its subcommands. */
  static CommandLine commandLine() {
    CommandLine versus = new CommandLine(new VersusCommand());
    versus.addSubcommand("fio", new Fio());
    versus.addSubcommand("warp", new Warp());
    return versus;
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }

  private static void positive(String option, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(option + ": " + value + " (expected: at least 1)");
    }
  }

  /** {@code racs bench versus fio RAW}: the table of scripts/bench-vs-fio.sh. */
  @Command(
      name = "fio",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Print racs bench block sweep against fio (its jobs as processes, and with --thread) per",
        "pattern and thread count, from RAW/fio-P-tT-rR.json, RAW/fiothread-P-tT-rR.json and",
        "RAW/racs-P-tT-rR/results.json: each tool's mean over the runs, and racs-bench over fio as",
        "the geometric mean of the per-run ratios with a 95% t interval."
      })
  static final class Fio implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RAW", description = "The runs' directory.")
    Path raw;

    @Option(names = "--runs", paramLabel = "N", description = "Runs per point (default: 3).")
    int runs = 3;

    @Option(
        names = "--threads",
        split = ",",
        paramLabel = "T",
        description = "Thread counts (default: 1,4,16).")
    List<Integer> threads = new ArrayList<>(List.of(1, 4, 16));

    @Option(
        names = "--patterns",
        split = ",",
        paramLabel = "P",
        description = "Patterns (default: seqread,seqwrite,randread,randwrite).")
    List<String> patterns =
        new ArrayList<>(List.of("seqread", "seqwrite", "randread", "randwrite"));

    @Override
    public Integer call() {
      positive("--runs", runs);
      for (String p : patterns) {
        if (!List.of("seqread", "seqwrite", "randread", "randwrite").contains(p)) {
          throw new IllegalArgumentException(
              "--patterns: " + p + " (expected: seqread, seqwrite, randread or randwrite)");
        }
      }
      threads.forEach(t -> positive("--threads", t));
      VersusFio.print(raw, runs, threads, patterns, spec.commandLine().getOut());
      return ExitCodes.OK;
    }
  }

  /** {@code racs bench versus warp DIR}: the table of scripts/bench-vs-warp.sh. */
  @Command(
      name = "warp",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Print warp against racs bench object per operation (put, get) and round: each tool's",
        "throughput and client CPU per operation over its steady interval, from DIR's",
        "warp-OP-rR.out, warp-OP-rR.tsv (its benchdata, decompressed), warp-OP-rR.cpu,",
        "racs-OP-rR.cpu (racs bench cpu --trace) and racs-OP-rR/results.json; also writes",
        "DIR/summary.txt and DIR/summary.json."
      })
  static final class Warp implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "The runs' directory.")
    Path dir;

    @Option(names = "--rounds", paramLabel = "N", description = "Rounds (default: 3).")
    int rounds = 3;

    @Option(
        names = "--warmup-millis",
        paramLabel = "MS",
        description = "The warm-up warp ran before its measured time (default: 0).")
    long warmupMillis;

    @Override
    public Integer call() {
      positive("--rounds", rounds);
      if (warmupMillis < 0) {
        throw new IllegalArgumentException(
            "--warmup-millis: " + warmupMillis + " (expected: 0 or more)");
      }
      spec.commandLine().getOut().println(VersusWarp.analyse(dir, rounds, warmupMillis / 1000.0));
      spec.commandLine().getOut().flush();
      return ExitCodes.OK;
    }
  }
}
