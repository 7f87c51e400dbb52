package io.racs.bench.report;

import io.racs.bench.object.cost.Cost;
import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.PointResult;
import io.racs.bench.stats.Estimate;
import io.racs.bench.stats.LatencySummary;
import io.racs.repos.price.PriceBook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Writes {@code results.csv}: one row per point, the columns of the console table and more.
 * Throughput cells are empty when no iteration of the point is valid; {@code warning} says why.
 */
public final class CsvReport {
  /** The header row. */
  public static final String HEADER =
      "id,target,targetKind,workload,size,clients,delayMillis,rateOpsPerSecond,iterations,"
          + "opsPerSecond,opsPerSecondCiLow,opsPerSecondCiHigh,megabytesPerSecond,"
          + "megabytesPerSecondCiLow,megabytesPerSecondCiHigh,ops,bytes,errors,expectedMisses,"
          + "verifiedObjects,"
          + "p50Millis,p90Millis,p99Millis,p999Millis,p9999Millis,maxMillis,"
          + "correctedP99Millis,ttfbP50Millis,clientCpuMax,validIterations,warning,"
          + "repositoryRequestsPerOp,arrayCostPerMillionOps,directCostPerMillionOps";

  private CsvReport() {}

  /** Writes the file. */
  public static void write(List<PointResult> points, Path file) throws IOException {
    write(points, file, PriceBook.awsDefault());
  }

  /**
   * Writes the file, the costs of {@link Cost#OPERATIONS} client operations (USD, array points
   * only) at {@code prices}.
   */
  public static void write(List<PointResult> points, Path file, PriceBook prices)
      throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(HEADER);
    for (PointResult p : points) {
      IterationResult all = p.merged();
      LatencySummary l = LatencySummary.of(all.latency);
      Estimate ops = p.opsPerSecond().orElse(new Estimate(Double.NaN, Double.NaN, 0, 0, 0));
      Estimate mb = p.megabytesPerSecond().orElse(new Estimate(Double.NaN, Double.NaN, 0, 0, 0));
      Optional<Cost> cost = Cost.of(p, prices);
      List<Object> row =
          List.of(
              Format.csv(p.id()),
              Format.csv(p.target),
              p.targetKind,
              p.workloadLabel(),
              Format.csv(p.workload.size().label()),
              p.workload.clients(),
              p.delay.toMillis(),
              p.workload.openLoop() ? p.workload.rateOpsPerSecond() : "",
              p.iterations.size(),
              n(ops.mean()),
              n(ops.low()),
              n(ops.high()),
              n(mb.mean()),
              n(mb.low()),
              n(mb.high()),
              all.ops,
              all.bytes,
              all.errorCount(),
              all.expectedMissCount(),
              all.verified,
              n(l.p50()),
              n(l.p90()),
              n(l.p99()),
              n(l.p999()),
              n(l.p9999()),
              n(l.max()),
              p.workload.openLoop() ? n(LatencySummary.of(all.corrected).p99()) : "",
              all.ttfb.getTotalCount() > 0 ? n(LatencySummary.of(all.ttfb).p50()) : "",
              n(p.maxCpuUtilisation()),
              p.validIterations().size(),
              Format.csv(p.warning().orElse("")),
              // op=calls per request, ';'-separated (in-process array targets only).
              all.repositoryCallsPerRequest().entrySet().stream()
                  .map(e -> e.getKey() + "=" + n(e.getValue()))
                  .collect(Collectors.joining(";")),
              cost.map(c -> n(c.arrayTotal().doubleValue())).orElse(""),
              cost.map(c -> n(c.directTotal().doubleValue())).orElse(""));
      lines.add(row.stream().map(String::valueOf).collect(Collectors.joining(",")));
    }
    Files.write(file, lines);
  }

  private static String n(double d) {
    return Double.isNaN(d) ? "" : String.format(Locale.ROOT, "%.6g", d);
  }
}
