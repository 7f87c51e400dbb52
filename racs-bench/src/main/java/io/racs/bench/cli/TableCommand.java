package io.racs.bench.cli;

import io.racs.bench.report.ResultsTable;
import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.cli.VersionProvider;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code racs bench table results.json...}: the points of bench object runs as a markdown or CSV
 * table, so that scripts and documents quote numbers from results.json rather than parse it.
 */
@Command(
    name = "table",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Print the points of one or more bench object results.json files as a table: a row per",
      "point, in file order. Columns by name (run: the directory of the file; id, target,",
      "workload, size, clients, delay, operations, ops, mbps, p50, p90, p99, p999, max, errors,",
      "errorKinds, clientCpu, cpuWaited; array targets: repositoryRequests, cost, costRatio;",
      "pir and pirPerClient (parallelism impact, N clients over 1); with --sample-pid: requests,",
      "cpuSeconds, cpuMsPerRequest, userMsPerRequest, systemMsPerRequest, switchesPerRequest,",
      "jit/gc/eventLoop/forkJoin/other/unattributedMsPerRequest, cpuWithoutJitMsPerRequest) or",
      "as a dotted path into a point's JSON (latencyMillis.p90; through an array, a list:",
      "iterations.opsPerSecond). NAME=HEADER prints the column under HEADER.",
      "Intervals print as mean ± half-width. With --vs TARGET, a row per point of the other",
      "targets that TARGET has a point of the same workload, size, clients and delay for, and",
      "columns vs:NAME (TARGET's value) and ratio:NAME (the point's over TARGET's)."
    })
public final class TableCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "RESULTS", description = "results.json files.")
  List<Path> files = new ArrayList<>();

  @Option(
      names = "--columns",
      split = ",",
      paramLabel = "COLUMN",
      description = "The columns, in order (default: id,ops,mbps,p50,p99,errors).")
  List<String> columns = new ArrayList<>(ResultsTable.DEFAULT_COLUMNS);

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = "markdown or csv (default: markdown; csv adds NAME_ci half-widths).")
  String format = "markdown";

  @Option(
      names = "--merge",
      description =
          "One row per point id over all the files (rounds of one run): each number the mean over"
              + " the files with its Student-t interval at --confidence.")
  boolean merge;

  @Option(
      names = "--confidence",
      paramLabel = "PERCENT",
      description = "Confidence level of --merge's intervals, in percent (default: 95).")
  double confidence = 95;

  @Option(
      names = "--vs",
      paramLabel = "TARGET",
      description = "Pair every point with TARGET's point of the same workload, size and clients.")
  String versus;

  @Override
  public Integer call() {
    if (!format.equals("markdown") && !format.equals("csv")) {
      throw new IllegalArgumentException("--format: " + format + " (expected: markdown or csv)");
    }
    if (!(confidence > 0 && confidence < 100)) {
      throw new IllegalArgumentException(
          "--confidence: " + confidence + " (expected: a percentage between 0 and 100)");
    }
    ResultsTable table = ResultsTable.of(files, columns, merge, confidence / 100, versus);
    PrintWriter out = spec.commandLine().getOut();
    if (format.equals("csv")) {
      table.csv(out);
    } else {
      table.markdown(out);
    }
    return ExitCodes.OK;
  }
}
