package io.racs.bench.report;

import io.racs.bench.object.run.Engine;
import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.PointResult;
import io.racs.bench.object.run.RunResult;
import io.racs.bench.object.workload.Op;
import io.racs.bench.stats.Estimate;
import io.racs.bench.stats.Ratio;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The report's summary table: for every target (each repository measured directly, and the array
 * through its S3 endpoint) and every operation (PUT, GET, HEAD, LIST, DELETE), the throughput at
 * each client count, the ParallelismImpactRatio (most clients over one) and the LatencyImpactRatio
 * (the largest injected delay over none), each with its interval — what a storage study asks of
 * every repository, in one place.
 *
 * <p>An operation measured alone reads its point's throughput; one measured inside a mix reads its
 * own share of the mix: its successful requests per iteration window, an estimate over the valid
 * iterations like any other. A ratio that was not measured says why (one client count, no delay
 * injected, or none possible on an S3 endpoint).
 */
public final class OperationTable {
  private OperationTable() {}

  /**
   * One row: one target, workload (an operation, or {@code mixed}), size and operation.
   *
   * @param target the target's name
   * @param targetKind {@code repository} or {@code endpoint}
   * @param workload the workload label
   * @param size the size label
   * @param op the operation
   * @param byClients throughput (ops/s) by client count, at no injected delay, or at the smallest
   *     delay when every point of the case had one (a WAN run measures only delayed points)
   * @param parallelismImpact most clients over one client, if both were measured
   * @param latencyImpact the largest delay over none, at the fewest clients, if measured
   * @param latencyNote why there is no latency ratio, or the delay it compares
   * @param byClientsDelay the injected delay of {@code byClients} and {@code parallelismImpact}
   */
  public record Row(
      String target,
      String targetKind,
      String workload,
      String size,
      Op op,
      Map<Integer, Estimate> byClients,
      Optional<Ratio> parallelismImpact,
      Optional<Ratio> latencyImpact,
      String latencyNote,
      Duration byClientsDelay) {}

  /** The rows of {@code result}, targets in their order, operations in PUT, GET ... order. */
  public static List<Row> rows(RunResult result) {
    List<Row> rows = new ArrayList<>();
    for (Engine.TargetInfo target : result.targets) {
      Map<String, List<PointResult>> cases = new LinkedHashMap<>();
      for (PointResult p : result.points) {
        if (p.target.equals(target.name()) && !p.workload.openLoop()) {
          cases
              .computeIfAbsent(
                  p.workloadLabel() + "\n" + p.workload.size().label(), k -> new ArrayList<>())
              .add(p);
        }
      }
      for (List<PointResult> points : cases.values()) {
        PointResult first = points.getFirst();
        for (Op op : Op.values()) {
          if (!first.workload.mix().contains(op)) {
            continue;
          }
          rows.add(row(target, points, op));
        }
      }
    }
    return rows;
  }

  private static Row row(Engine.TargetInfo target, List<PointResult> points, Op op) {
    PointResult first = points.getFirst();
    Map<Integer, Estimate> byClients = new LinkedHashMap<>();
    // Without delay when measured; a run of delayed points only (over a WAN) at its smallest.
    Duration base = points.stream().map(p -> p.delay).min(Comparator.naturalOrder()).orElseThrow();
    points.stream()
        .filter(p -> p.delay.equals(base))
        .sorted(Comparator.comparingInt(p -> p.workload.clients()))
        .forEach(p -> throughput(p, op).ifPresent(e -> byClients.put(p.workload.clients(), e)));
    Optional<Ratio> parallelism = Optional.empty();
    if (byClients.size() > 1 && byClients.containsKey(1)) {
      int most = new TreeSet<>(byClients.keySet()).last();
      parallelism = Optional.of(Ratio.of(byClients.get(most), byClients.get(1)));
    }
    Optional<Ratio> latency = Optional.empty();
    String latencyNote;
    int fewest = points.stream().mapToInt(p -> p.workload.clients()).min().orElse(1);
    Optional<PointResult> delayed =
        points.stream()
            .filter(p -> p.workload.clients() == fewest && !p.delay.isZero())
            .max(Comparator.comparing(p -> p.delay));
    Optional<PointResult> undelayed =
        points.stream().filter(p -> p.workload.clients() == fewest && p.delay.isZero()).findFirst();
    if (!target.delayable()) {
      latencyNote = "no delay injection on an S3 endpoint";
    } else if (delayed.isEmpty() || undelayed.isEmpty()) {
      latencyNote = "not measured (--delay)";
    } else {
      Optional<Estimate> a = throughput(delayed.get(), op);
      Optional<Estimate> b = throughput(undelayed.get(), op);
      if (a.isPresent() && b.isPresent()) {
        latency = Optional.of(Ratio.of(a.get(), b.get()));
      }
      latencyNote = delay(delayed.get().delay) + " / 0 ms at c" + fewest;
    }
    return new Row(
        target.name(),
        target.kind(),
        first.workloadLabel(),
        first.workload.size().label(),
        op,
        byClients,
        parallelism,
        latency,
        latencyNote,
        base);
  }

  /**
   * The throughput of {@code op} in point {@code p}: the point's own for a single operation, the
   * operation's share for a mix; empty when no iteration is valid.
   */
  static Optional<Estimate> throughput(PointResult p, Op op) {
    if (p.workload.mix().isSingle()) {
      return p.opsPerSecond();
    }
    List<IterationResult> valid = p.validIterations();
    if (valid.isEmpty()) {
      return Optional.empty();
    }
    double[] rates = new double[valid.size()];
    for (int i = 0; i < rates.length; i++) {
      IterationResult it = valid.get(i);
      long ops = it.perOp.containsKey(op) ? it.perOp.get(op).getTotalCount() : 0;
      rates[i] = ops / it.windowSeconds();
    }
    return Optional.of(Estimate.atConfidence(p.confidence, rates));
  }

  private static String delay(Duration d) {
    return d.toMillis() + " ms";
  }

  /** The table as HTML (empty when the run has no closed-loop point). */
  static String html(RunResult result) {
    List<Row> rows = rows(result);
    if (rows.isEmpty()) {
      return "";
    }
    TreeSet<Integer> clients = new TreeSet<>();
    rows.forEach(r -> clients.addAll(r.byClients().keySet()));
    String ci = Format.percent(result.plan.confidence()) + " CI";
    StringBuilder h = new StringBuilder();
    h.append("<h2>Operations by target</h2>\n<p>Throughput of each operation on each target")
        .append(" (ops/s, mean ± ")
        .append(ci)
        .append("; an operation of a mix counts its own requests), with ParallelismImpactRatio")
        .append(" (most clients over one) and LatencyImpactRatio (injected delay over none);")
        .append(" the client columns are without injected delay, or at the smallest delay when")
        .append(" every point had one.")
        .append("</p>\n<table class=\"operations\"><tr><th>target</th><th>kind</th>")
        .append("<th>workload</th><th>size</th><th>operation</th>");
    for (int c : clients) {
      h.append("<th>").append(c).append(c == 1 ? " client" : " clients").append("</th>");
    }
    h.append("<th>ParallelismImpact</th><th>LatencyImpact</th></tr>\n");
    for (Row r : rows) {
      h.append("<tr><td>")
          .append(Format.html(r.target()))
          .append("</td><td>")
          .append(
              switch (String.valueOf(r.targetKind())) {
                case "endpoint" -> "S3 endpoint";
                case "array" -> "array (in process)";
                case "array-cold" -> "array (in process, cold reads)";
                default -> "repository";
              })
          .append("</td><td>")
          .append(Format.html(r.workload()))
          .append("</td><td>")
          .append(Format.html(r.size()))
          .append("</td><td>")
          .append(r.op().name());
      for (int c : clients) {
        Estimate e = r.byClients().get(c);
        h.append("</td><td>").append(e == null ? "-" : Format.estimate(e));
      }
      h.append("</td><td>")
          .append(
              r.parallelismImpact()
                  .map(
                      x ->
                          ratio(x)
                              + (r.byClientsDelay().isZero()
                                  ? ""
                                  : " (at " + delay(r.byClientsDelay()) + ")"))
                  .orElse("n/a (one client count)"))
          .append("</td><td>")
          .append(
              r.latencyImpact()
                  .map(x -> ratio(x) + " (" + Format.html(r.latencyNote()) + ")")
                  .orElse("n/a (" + Format.html(r.latencyNote()) + ")"))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
    return h.toString();
  }

  private static String ratio(Ratio r) {
    return Format.number(r.value())
        + (Double.isNaN(r.halfWidth()) ? " ± n/a" : " ± " + Format.number(r.halfWidth()));
  }
}
