package io.racs.bench.cli;

import io.racs.bench.soak.SoakVerdict;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code racs bench soak-verdict WORK}: the summary and verdict of scripts/soak.sh. */
@Command(
    name = "soak-verdict",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Print the summary of a soak run from its work directory (bench-verify/results.json,",
      "bench-churn/results.json, racs.log) and the proxy's footprint samples (SECONDS RSS_KIB",
      "FDS per line), and exit 1 unless it passed: no wrong answer and no error in either bench",
      "run, growth after warm-up (the first fifth, at least 60 s) within the bounds, the proxy",
      "still running with no ERROR line."
    })
public final class SoakVerdictCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "WORK", description = "The soak's work directory.")
  Path work;

  @Option(names = "--samples", required = true, paramLabel = "FILE", description = "Samples.")
  Path samples;

  @Option(names = "--seconds", required = true, paramLabel = "N", description = "Soak length.")
  long seconds;

  @Option(
      names = "--rss-growth-mib",
      paramLabel = "MIB",
      description = "Resident set growth bound (default: 64).")
  long rssGrowthMib = 64;

  @Option(
      names = "--fd-growth",
      paramLabel = "N",
      description = "Open file descriptor growth bound (default: 32).")
  long fdGrowth = 32;

  @Option(names = "--proxy-gone", description = "The proxy was no longer running at the end.")
  boolean proxyGone;

  @Option(names = "--bench-failed", description = "A bench run exited with an error.")
  boolean benchFailed;

  @Override
  public Integer call() {
    if (seconds < 1 || rssGrowthMib < 0 || fdGrowth < 0) {
      throw new IllegalArgumentException(
          "--seconds: "
              + seconds
              + ", --rss-growth-mib: "
              + rssGrowthMib
              + ", --fd-growth: "
              + fdGrowth
              + " (expected: a positive length and bounds of 0 or more)");
    }
    SoakVerdict verdict =
        new SoakVerdict(work, samples, seconds, rssGrowthMib, fdGrowth, !proxyGone, benchFailed);
    return verdict.print(spec.commandLine().getOut()) ? ExitCodes.OK : ExitCodes.FAILURE;
  }
}
