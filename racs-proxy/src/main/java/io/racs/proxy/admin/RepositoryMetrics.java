package io.racs.proxy.admin;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.ForwardingRepository;
import io.racs.repos.decorator.MeteredRepository;
import io.racs.repos.decorator.Operation;
import io.racs.repos.price.PriceBook;
import io.racs.repos.price.Prices;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Each repository's traffic as Prometheus client library snapshots (for {@link MetricsReport}),
 * labelled by slot and repository name, so that an operator sees which provider is slow or failing:
 * requests, errors and a latency histogram by operation, and body bytes each way. A slot counts
 * only when a {@link MeteredRepository} is in its chain of decorators ({@link #metered(List)} puts
 * one there); the counts are what reached the repository, after the store's own guards.
 */
public final class RepositoryMetrics {
  private RepositoryMetrics() {}

  /**
   * {@code repositories}, each with a {@link MeteredRepository} around it unless its chain already
   * has one (a configured {@code metered} decorator is not counted twice).
   */
  public static List<Repository> metered(List<Repository> repositories) {
    List<Repository> out = new ArrayList<>(repositories.size());
    for (Repository repository : repositories) {
      out.add(
          ForwardingRepository.find(repository, MeteredRepository.class).isPresent()
              ? repository
              : new MeteredRepository(repository));
    }
    return out;
  }

  /** The metrics of every metered repository among {@code slots} (index = slot), as snapshots. */
  public static MetricSnapshots snapshots(List<Repository> slots) {
    CounterSnapshot.Builder requests =
        counter("racs_repository_requests", "Repository calls by operation.");
    CounterSnapshot.Builder errors =
        counter(
            "racs_repository_errors",
            "Repository calls that failed, by operation (not counting not_found and"
                + " precondition_failed, which are answers).");
    CounterSnapshot.Builder errorsByKind =
        counter(
            "racs_repository_errors_by_kind",
            "Failed repository calls by operation and kind (kinds seen so far).");
    CounterSnapshot.Builder sent =
        counter(
            "racs_repository_sent_bytes", "Body bytes the proxy sent to the repository (puts).");
    CounterSnapshot.Builder received =
        counter(
            "racs_repository_received_bytes",
            "Body bytes the proxy read from the repository (gets).");
    HistogramSnapshot.Builder duration =
        HistogramSnapshot.builder()
            .name("racs_repository_request_duration_seconds")
            .help("Repository call latency (a get's ends when its body starts).");
    boolean any = false;
    for (int slot = 0; slot < slots.size(); slot++) {
      Repository repository = slots.get(slot);
      var meter = ForwardingRepository.find(repository, MeteredRepository.class);
      if (meter.isEmpty()) {
        continue;
      }
      any = true;
      Labels labels = Labels.of("slot", Integer.toString(slot), "repository", repository.name());
      // The counters are read without resetting anything; only the calls and bytes are used
      // from the stats (their latency interval belongs to the benchmark, so it is not taken).
      Map<Operation, MeteredRepository.OperationStats> stats = meter.get().counts();
      for (MeteredRepository.OperationStats op : stats.values()) {
        Labels byOperation = labels.add("operation", name(op.operation()));
        requests.dataPoint(counter(byOperation, op.calls()));
        errors.dataPoint(counter(byOperation, failures(op)));
        for (Map.Entry<RepositoryException.Kind, Long> kind : op.failures().entrySet()) {
          if (kind.getValue() > 0) {
            errorsByKind.dataPoint(
                counter(
                    byOperation.add("kind", kind.getKey().name().toLowerCase(Locale.ROOT)),
                    kind.getValue()));
          }
        }
      }
      sent.dataPoint(counter(labels, stats.get(Operation.PUT).bytes()));
      received.dataPoint(counter(labels, stats.get(Operation.GET).bytes()));
      for (MeteredRepository.LatencyBuckets op : meter.get().cumulativeLatency().values()) {
        duration.dataPoint(
            HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .labels(labels.add("operation", name(op.operation())))
                .classicHistogramBuckets(ClassicHistogramBuckets.of(UPPER_BOUNDS, op.counts()))
                .sum(op.sumNanos() / 1e9)
                .build());
      }
    }
    if (!any) {
      return MetricSnapshots.of();
    }
    return MetricSnapshots.of(
        requests.build(),
        errors.build(),
        errorsByKind.build(),
        sent.build(),
        received.build(),
        duration.build());
  }

  /** The histogram's bucket bounds, the last one unbounded as the library wants it. */
  private static final double[] UPPER_BOUNDS = upperBounds();

  private static double[] upperBounds() {
    double[] bounds = new double[MeteredRepository.BUCKET_BOUNDS_SECONDS.length + 1];
    System.arraycopy(MeteredRepository.BUCKET_BOUNDS_SECONDS, 0, bounds, 0, bounds.length - 1);
    bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
    return bounds;
  }

  /**
   * A counter family; its name without {@code _total}, which the Prometheus text format appends
   * (and OpenMetrics to the samples only).
   */
  private static CounterSnapshot.Builder counter(String name, String help) {
    return CounterSnapshot.builder().name(name).help(help);
  }

  private static CounterSnapshot.CounterDataPointSnapshot counter(Labels labels, long value) {
    return CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build();
  }

  /**
   * One metered repository's traffic since the proxy started, for the console: calls, failed calls
   * (as {@code racs_repository_errors_total} counts them) and latency quantiles over every
   * operation, each the upper bound of its histogram bucket (NaN before any call; infinite past the
   * last bound).
   *
   * @param slot the slot
   * @param name the repository's name
   * @param requests calls made
   * @param errors calls that failed for the repository's sake
   * @param p50Seconds the median latency's bucket bound
   * @param p99Seconds the 99th percentile's bucket bound
   */
  public record Summary(
      int slot, String name, long requests, long errors, double p50Seconds, double p99Seconds) {}

  /** The summary of every metered repository among {@code slots} (index = slot). */
  public static List<Summary> summaries(List<Repository> slots) {
    List<Summary> out = new ArrayList<>();
    for (int slot = 0; slot < slots.size(); slot++) {
      Repository repository = slots.get(slot);
      int s = slot;
      ForwardingRepository.find(repository, MeteredRepository.class)
          .ifPresent(m -> out.add(summary(s, repository.name(), m)));
    }
    return out;
  }

  private static Summary summary(int slot, String name, MeteredRepository meter) {
    long requests = 0;
    long errors = 0;
    for (MeteredRepository.OperationStats op : meter.counts().values()) {
      requests += op.calls();
      errors += failures(op);
    }
    long[] counts = latencyCounts(meter);
    return new Summary(
        slot, name, requests, errors, quantile(counts, 0.50), quantile(counts, 0.99));
  }

  /** The calls of every operation since the start, by latency bucket. */
  static long[] latencyCounts(MeteredRepository meter) {
    long[] counts = new long[MeteredRepository.BUCKET_BOUNDS_SECONDS.length + 1];
    for (MeteredRepository.LatencyBuckets op : meter.cumulativeLatency().values()) {
      long[] c = op.counts();
      for (int b = 0; b < c.length; b++) {
        counts[b] += c[b];
      }
    }
    return counts;
  }

  /**
   * What each metered repository among {@code slots} (index = slot) has cost since the proxy
   * started, in US dollars at {@code book}'s prices: its calls of each operation ({@link
   * Prices#requests}) and the bytes its GETs returned as data transfer out ({@link
   * Prices#transferOut}), as the bench prices them.
   */
  public static Map<Integer, BigDecimal> pricesSoFar(List<Repository> slots, PriceBook book) {
    Map<Integer, BigDecimal> out = new TreeMap<>();
    for (int slot = 0; slot < slots.size(); slot++) {
      Repository repository = slots.get(slot);
      var meter = ForwardingRepository.find(repository, MeteredRepository.class);
      if (meter.isEmpty()) {
        continue;
      }
      Prices prices = book.of(repository.name());
      BigDecimal total = BigDecimal.ZERO;
      for (MeteredRepository.OperationStats op : meter.get().counts().values()) {
        total = total.add(prices.requests(name(op.operation()), BigDecimal.valueOf(op.calls())));
        if (op.operation() == Operation.GET) {
          total =
              total.add(prices.transferOut(BigDecimal.valueOf(op.bytes()), MathContext.DECIMAL64));
        }
      }
      out.put(slot, total);
    }
    return out;
  }

  /** The upper bound of the bucket holding quantile {@code q} of {@code counts}. */
  static double quantile(long[] counts, double q) {
    long total = 0;
    for (long c : counts) {
      total += c;
    }
    if (total == 0) {
      return Double.NaN;
    }
    long rank = (long) Math.ceil(q * total);
    long cumulative = 0;
    for (int b = 0; b < MeteredRepository.BUCKET_BOUNDS_SECONDS.length; b++) {
      cumulative += counts[b];
      if (cumulative >= rank) {
        return MeteredRepository.BUCKET_BOUNDS_SECONDS[b];
      }
    }
    return Double.POSITIVE_INFINITY;
  }

  /**
   * The calls that failed for the repository's sake: a key that is not there, or a condition that
   * did not hold, is the repository answering, and the store asks such questions on purpose.
   */
  private static long failures(MeteredRepository.OperationStats op) {
    long sum = 0;
    for (Map.Entry<RepositoryException.Kind, Long> kind : op.failures().entrySet()) {
      if (kind.getKey() != RepositoryException.Kind.NOT_FOUND
          && kind.getKey() != RepositoryException.Kind.PRECONDITION_FAILED) {
        sum += kind.getValue();
      }
    }
    return sum;
  }

  private static String name(Operation operation) {
    return operation.name().toLowerCase(Locale.ROOT);
  }
}
