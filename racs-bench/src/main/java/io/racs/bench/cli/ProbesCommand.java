package io.racs.bench.cli;

import io.racs.bench.external.CurlProbe;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code racs bench probes FILE...}: requests a script timed with curl, one at a time, as a
 * markdown table in the columns {@code racs bench table} gives a bench run (scripts/stall-
 * experiment.sh probes a proxy the bench cannot drive).
 */
@Command(
    name = "probes",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Print curl-timed requests (a line per request: STATUS SECONDS, as curl -w",
      "'%{http_code} %{time_total}\\n' writes it) as a markdown table, a row per file: requests,",
      "p50, p99 and max ms, answers that were not 2xx (000: none), and the count by status."
    })
public final class ProbesCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Probe files.")
  List<Path> files = new ArrayList<>();

  @Override
  public Integer call() {
    List<CurlProbe> probes = files.stream().map(CurlProbe::read).toList();
    PrintWriter out = spec.commandLine().getOut();
    out.println("| probe | operations | p50 ms | p99 ms | max ms | errors | answers by status |");
    out.println("|---|---|---|---|---|---|---|");
    for (CurlProbe p : probes) {
      List<String> statuses = new ArrayList<>();
      p.statuses().forEach((status, n) -> statuses.add(status + " " + n));
      out.printf(
          Locale.ROOT,
          "| %s | %d | %.1f | %.1f | %.1f | %d | %s |%n",
          p.name(),
          p.millis().length,
          p.percentile(0.5),
          p.percentile(0.99),
          p.max(),
          p.errors(),
          String.join(" ", statuses));
    }
    out.flush();
    return ExitCodes.OK;
  }
}
