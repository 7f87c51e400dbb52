package io.racs.bench.cli;

import io.racs.bench.block.RunReport;
import io.racs.bench.block.VdbenchParams;
import io.racs.bench.block.VdbenchRun;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code racs bench block run FILE}: a vdbench-style parameter file. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Runs a vdbench-style parameter file (sd=, wd=, rd= lines; * comments):",
      "  sd=sd1,lun=/mnt/disk/f,size=1g,openflags=o_direct",
      "  wd=wd1,sd=sd1,xfersize=4k,rdpct=70,seekpct=100,range=(0,50)",
      "  rd=rd1,wd=wd1,iorate=curve,curve=(10-100,10),elapsed=30,warmup=5,interval=1,threads=8",
      "elapsed, warmup and interval are seconds (fractions allowed); MB/sec is 1024**2 bytes."
    })
final class BlockRunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "FILE", description = "The parameter file.")
  Path file;

  @Option(names = "--verify", description = "Stamp writes; check every read block.")
  boolean verify;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of data, offsets and gaps.")
  long seed;

  @Option(names = "--out", paramLabel = "DIR", description = "Default: ./bench-out/<timestamp>.")
  Path out;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Instant startedAt = Instant.now();
    VdbenchParams params = VdbenchParams.read(file);
    List<VdbenchRun.Summary> summaries = new VdbenchRun(out, verify, seed).runAll(params);
    out.println();
    out.printf(
        Locale.ROOT,
        "%-60s %10s %9s %7s %9s %9s%n",
        "run",
        "i/o rate",
        "MB/sec",
        "read%",
        "resp ms",
        "max ms");
    long failed = 0;
    for (VdbenchRun.Summary s : summaries) {
      out.printf(
          Locale.ROOT,
          "%-60s %10.1f %9.2f %7.1f %9.3f %9.3f%n",
          s.label(),
          s.rate(),
          s.megabytesPerSecond(),
          s.readPercent(),
          s.meanResponseMillis(),
          s.maxResponseMillis());
      failed += s.failures().size();
    }
    List<String> command = new ArrayList<>(List.of("racs", "bench", "block", "run"));
    command.addAll(spec.commandLine().getParseResult().originalArgs());
    Path dir =
        this.out != null
            ? this.out
            : Path.of(
                "bench-out",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    RunReport.write(file, verify, seed, summaries, command, startedAt, dir);
    out.println("results: " + dir.toAbsolutePath().normalize());
    if (failed > 0) {
      out.println("verification FAILED: " + failed + " bad blocks (listed above)");
      out.flush();
      return ExitCodes.FAILURE;
    }
    out.flush();
    return ExitCodes.OK;
  }
}
