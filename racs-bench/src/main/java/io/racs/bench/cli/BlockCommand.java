package io.racs.bench.cli;

import io.racs.bench.block.DdReport;
import io.racs.bench.block.DdRun;
import io.racs.bench.block.Stamp;
import io.racs.bench.stats.Estimate;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import io.racs.repos.config.Units;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code racs bench block}: block direct-I/O workloads: dd, sweep, matrix and run. */
@Command(
    name = "block",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description =
        "Block direct-I/O workloads: dd, sweep, matrix (IOzone-style) and run (vdbench-style).")
public final class BlockCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  /** The command with its subcommands. */
  public static CommandLine commandLine() {
    CommandLine block = new CommandLine(new BlockCommand());
    block.addSubcommand("dd", new Dd());
    block.addSubcommand("sweep", new BlockSweepCommand());
    block.addSubcommand("matrix", new BlockMatrixCommand());
    block.addSubcommand("run", new BlockRunCommand());
    return block;
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }

  /** {@code racs bench block dd}. */
  @Command(
      name = "dd",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Sequential write or read of --bs x --count, like dd, --runs times; MB/s with a 99.9%% CI.",
        "Example: racs bench block dd --file /mnt/disk/f --mode write --bs 1MiB --count 256"
            + " --direct --sync --runs 5"
      })
  static final class Dd implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--file", required = true, description = "The file to write or read.")
    Path file;

    @Option(names = "--mode", defaultValue = "write", description = "write or read.")
    String mode;

    @Option(names = "--bs", defaultValue = "1MiB", description = "Block size.")
    String bs;

    @Option(names = "--count", defaultValue = "64", description = "Blocks per run.")
    long count;

    @Option(names = "--direct", description = "O_DIRECT with aligned buffers.")
    boolean direct;

    @Option(names = "--allow-buffered", description = "Fall back to buffered I/O if refused.")
    boolean allowBuffered;

    @Option(names = "--sync", description = "fsync after writing (timed).")
    boolean sync;

    @Option(names = "--dsync", description = "Open with O_DSYNC.")
    boolean dsync;

    @Option(names = "--runs", defaultValue = "3", description = "Runs.")
    int runs;

    @Option(
        names = "--verify",
        description = {
          "write: stamp each block with its offset and a run key (printed);",
          "read: check each block's stamp; lost, misplaced or stale blocks fail the run."
        })
    boolean verify;

    @Option(
        names = "--run-key",
        paramLabel = "HEX",
        description = "read --verify: the key a write printed (default: the one block 0 holds).")
    String runKey;

    @Option(names = "--out", paramLabel = "DIR", description = "Default: ./bench-out/<timestamp>.")
    Path out;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      Instant startedAt = Instant.now();
      DdRun.Mode m =
          switch (mode) {
            case "write" -> DdRun.Mode.WRITE;
            case "read" -> DdRun.Mode.READ;
            default ->
                throw new IllegalArgumentException(
                    "--mode: " + mode + " (expected: write or read)");
          };
      long block =
          Units.size(bs)
              .orElseThrow(
                  () -> new IllegalArgumentException("--bs: " + bs + " (expected: e.g. 1MiB)"));
      if (block < 1 || block > 1 << 30) {
        throw new IllegalArgumentException("--bs: " + bs + " (expected: 1B to 1GiB)");
      }
      if (count < 1) {
        throw new IllegalArgumentException("--count: " + count + " (expected: >= 1)");
      }
      if (runs < 1) {
        throw new IllegalArgumentException("--runs: " + runs + " (expected: >= 1)");
      }
      long expectedKey = 0;
      if (runKey != null) {
        if (!verify || m != DdRun.Mode.READ) {
          throw new IllegalArgumentException(
              "--run-key: " + runKey + " (expected: only with --mode read --verify)");
        }
        try {
          expectedKey = Long.parseUnsignedLong(runKey, 16);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "--run-key: " + runKey + " (expected: 16 hex digits, as a write printed)");
        }
      }
      int runId = verify ? DdRun.freshRunId() : 0;
      boolean useDirect = direct;
      List<String> notes = new ArrayList<>();
      List<DdRun.Result> results = new ArrayList<>();
      double[] rates = new double[runs];
      for (int r = 0; r < runs; r++) {
        // Each write run stamps a new generation, so a block a later run failed to write reads
        // back stale.
        long key = m == DdRun.Mode.WRITE ? Stamp.key(runId, r + 1) : expectedKey;
        DdRun.Result result;
        try {
          result = pass(m, (int) block, useDirect, key);
        } catch (DdRun.DirectIoRefusedException e) {
          if (!allowBuffered) {
            throw e;
          }
          useDirect = false;
          out.println("note: O_DIRECT refused by the filesystem; runs are BUFFERED");
          notes.add("O_DIRECT refused by the filesystem; every run is BUFFERED");
          result = pass(m, (int) block, false, key);
        }
        results.add(result);
        rates[r] = result.megabytesPerSecond();
        out.printf(
            Locale.ROOT,
            "run %d: %d bytes (%d x %d) %s in %.6f s, %.1f MB/s (%s)%n",
            r + 1,
            result.bytes(),
            count,
            block,
            m == DdRun.Mode.WRITE ? "written" : "read",
            result.seconds(),
            result.megabytesPerSecond(),
            result.direct() ? "direct" : "buffered");
        if (verify && m == DdRun.Mode.WRITE) {
          out.println("  stamped with run key " + DdReport.key(result.runKey()));
        } else if (verify) {
          for (Stamp.Failure f : result.failures()) {
            out.println("  VERIFY FAILED: " + f);
          }
          out.printf(
              Locale.ROOT,
              "  verified %d blocks against run key %s: %s%n",
              result.verifiedBlocks(),
              DdReport.key(result.runKey()),
              result.failedBlocks() == 0
                  ? "all good"
                  : result.failedBlocks()
                      + " bad"
                      + (result.failedBlocks() > result.failures().size()
                          ? " (first " + result.failures().size() + " listed)"
                          : ""));
        }
      }
      Estimate e = Estimate.of(rates);
      out.printf(
          Locale.ROOT,
          "mean %.1f MB/s ± %s (99.9%% CI, %d runs, %s)%n",
          e.mean(),
          Double.isNaN(e.halfWidth()) ? "n/a" : String.format(Locale.ROOT, "%.1f", e.halfWidth()),
          runs,
          useDirect ? "direct" : "buffered");
      if (e.widerThanMean()) {
        out.printf(
            Locale.ROOT,
            "note: the interval is wider than the mean: %d runs spread by %.0f%% (stddev/mean) and"
                + " the 99.9%% t factor for %d degrees of freedom is %.1f; more --runs narrow it%n",
            runs,
            100 * e.stddev() / Math.abs(e.mean()),
            runs - 1,
            Estimate.critical(e.confidence(), runs - 1));
      }
      List<String> command = new ArrayList<>(List.of("racs", "bench", "block", "dd"));
      command.addAll(spec.commandLine().getParseResult().originalArgs());
      Path dir =
          this.out != null
              ? this.out
              : Path.of(
                  "bench-out",
                  LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
      DdReport.write(
          new DdReport.Run(
              file, m, (int) block, count, sync, dsync, verify, command, notes, startedAt),
          results,
          dir);
      out.println("results: " + dir.toAbsolutePath().normalize());
      long failed = results.stream().mapToLong(DdRun.Result::failedBlocks).sum();
      if (failed > 0) {
        out.println("verification FAILED: " + failed + " bad blocks (listed above)");
        out.flush();
        return ExitCodes.FAILURE;
      }
      out.flush();
      return ExitCodes.OK;
    }

    private DdRun.Result pass(DdRun.Mode m, int block, boolean useDirect, long key)
        throws IOException {
      DdRun.Builder pass =
          DdRun.builder(file, m)
              .blockBytes(block)
              .count(count)
              .direct(useDirect)
              .sync(sync)
              .dsync(dsync);
      if (verify) {
        pass.verify(key);
      }
      return pass.run();
    }
  }
}
