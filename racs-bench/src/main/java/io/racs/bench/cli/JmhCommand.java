package io.racs.bench.cli;

import io.racs.proxy.cli.ExitCodes;
import io.racs.proxy.codec.Geometry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code racs bench jmh [JMH options] [regex]}: runs the JMH microbenchmarks in this jar with JMH's
 * own command line ({@code -h} lists it, {@code -l} lists the benchmarks), writes the results as
 * JMH JSON ({@code jmh-results.json} unless {@code -rff} says otherwise), and for the codec
 * benchmarks prints a table of GB/s of data with JMH's error.
 */
@Command(
    name = "jmh",
    description = {
      "Run the JMH microbenchmarks (all JMH options pass through; -h for JMH's own options,",
      "--help for this summary).",
      "Example: racs bench jmh CodecBenchmark -p geometry=4x2,10x4 -prof gc"
    })
public final class JmhCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  // Only the long form: -h belongs to JMH, which lists its own options with it.
  @Option(names = "--help", usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Unmatched List<String> arguments = new ArrayList<>();

  @Override
  public Integer call() throws RunnerException {
    PrintWriter out = spec.commandLine().getOut();
    CommandLineOptions options;
    try {
      options = new CommandLineOptions(arguments.toArray(String[]::new));
    } catch (CommandLineOptionException e) {
      throw new IllegalArgumentException("JMH options: " + e.getMessage(), e);
    }
    if (options.shouldHelp()) {
      try {
        options.showHelp();
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
      return ExitCodes.OK;
    }
    OptionsBuilder builder = new OptionsBuilder();
    builder.parent(options);
    if (options.getResult().hasValue()) {
      out.println("results: " + options.getResult().get());
    } else {
      Path file = Path.of("jmh-results.json").toAbsolutePath();
      builder.resultFormat(ResultFormatType.JSON).result(file.toString());
      out.println("results: " + file);
    }
    Runner runner = new Runner(builder.build());
    if (options.shouldList()) {
      runner.list();
      return ExitCodes.OK;
    }
    Collection<RunResult> results = runner.run();
    printCodecTable(results, out);
    return ExitCodes.OK;
  }

  /** GB/s of data for every result that has geometry and shardSize parameters. */
  static void printCodecTable(Collection<RunResult> results, PrintWriter out) {
    List<String> rows = new ArrayList<>();
    for (RunResult run : results) {
      String geometry = run.getParams().getParam("geometry");
      String shardSize = run.getParams().getParam("shardSize");
      String implementation = run.getParams().getParam("implementation");
      String sizeBytes = run.getParams().getParam("sizeBytes");
      if (sizeBytes != null) {
        // Store benchmarks: one operation handles sizeBytes of data through a 4x2 store.
        geometry = "4x2";
        implementation = "store";
        shardSize = sizeBytes;
      } else if (geometry == null || shardSize == null || implementation == null) {
        continue;
      }
      BenchmarkResult aggregate = run.getAggregatedResult();
      Result<?> primary = aggregate.getPrimaryResult();
      double bytesPerOp =
          sizeBytes != null
              ? Double.parseDouble(sizeBytes)
              : (double) Geometry.parse(geometry).dataShards() * Long.parseLong(shardSize);
      String op = run.getParams().getBenchmark();
      op = op.substring(op.lastIndexOf('.') + 1);
      rows.add(
          String.format(
              Locale.ROOT,
              "%-14s %-8s %-10s %-12s %10.2f ± %.2f",
              implementation,
              geometry,
              humanBytes(Long.parseLong(shardSize)),
              op,
              primary.getScore() * bytesPerOp / 1e9,
              primary.getScoreError() * bytesPerOp / 1e9));
    }
    if (rows.isEmpty()) {
      return;
    }
    out.println();
    out.printf(
        Locale.ROOT,
        "%-14s %-8s %-10s %-12s %10s%n",
        "implementation",
        "geometry",
        "shard/size",
        "op",
        "GB/s of data (99.9% CI)");
    rows.forEach(out::println);
  }

  static String humanBytes(long bytes) {
    if (bytes % (1 << 20) == 0) {
      return bytes / (1 << 20) + " MiB";
    }
    if (bytes % 1024 == 0) {
      return bytes / 1024 + " KiB";
    }
    return bytes + " B";
  }
}
