package io.racs.bench.object.run;

import io.racs.bench.stats.Estimate;
import io.racs.bench.stats.Ratio;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The ratios a run reports, each the ratio of two points' mean throughput (ops/s) with its
 * confidence interval ({@link Ratio}):
 *
 * <ul>
 *   <li>{@code parallelismImpact}: a point at N clients over the same point at 1 client;
 *   <li>{@code latencyImpact}: a point with injected delay over the same point without;
 *   <li>{@code overhead}: target A over target B (named by {@code --overhead A/B}) for the same
 *       workload, size, clients and delay — the array (the proxy's endpoint) over a direct
 *       repository of the same kind.
 * </ul>
 */
public final class Ratios {
  private Ratios() {}

  /**
   * One ratio.
   *
   * @param kind {@code parallelismImpact}, {@code latencyImpact} or {@code overhead}
   * @param numerator the numerator point's id
   * @param denominator the denominator point's id
   * @param ratio the ratio of mean ops/s with its interval
   */
  public record Row(String kind, String numerator, String denominator, Ratio ratio) {}

  /** Every ratio the points allow. */
  public static List<Row> compute(List<PointResult> points, Optional<String[]> overhead) {
    List<Row> rows = new ArrayList<>();
    for (PointResult p : points) {
      if (p.workload.clients() != 1) {
        find(points, p.target, p, 1, p.delay.toMillis())
            .ifPresent(base -> add(rows, "parallelismImpact", p, base));
      }
    }
    for (PointResult p : points) {
      if (!p.delay.isZero()) {
        find(points, p.target, p, p.workload.clients(), 0)
            .ifPresent(base -> add(rows, "latencyImpact", p, base));
      }
    }
    if (overhead.isPresent()) {
      String a = overhead.get()[0];
      String b = overhead.get()[1];
      for (PointResult p : points) {
        if (p.target.equals(a)) {
          find(points, b, p, p.workload.clients(), p.delay.toMillis())
              .ifPresent(base -> add(rows, "overhead", p, base));
        }
      }
    }
    return rows;
  }

  private static Optional<PointResult> find(
      List<PointResult> points, String target, PointResult like, int clients, long delayMillis) {
    return points.stream()
        .filter(
            q ->
                q.target.equals(target)
                    && q.workload.mix().toString().equals(like.workload.mix().toString())
                    && q.workload.size().label().equals(like.workload.size().label())
                    && q.workload.clients() == clients
                    && q.delay.toMillis() == delayMillis
                    && q.workload.rateOpsPerSecond() == like.workload.rateOpsPerSecond())
        .findFirst();
  }

  private static void add(List<Row> rows, String kind, PointResult a, PointResult b) {
    Optional<Estimate> ea = a.opsPerSecond();
    Optional<Estimate> eb = b.opsPerSecond();
    if (ea.isEmpty() || eb.isEmpty() || Objects.equals(a, b)) {
      return;
    }
    rows.add(new Row(kind, a.id(), b.id(), Ratio.of(ea.get(), eb.get())));
  }
}
