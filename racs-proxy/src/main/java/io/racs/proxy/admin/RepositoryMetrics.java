package io.racs.proxy.admin;

import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.ForwardingRepository;
import io.racs.repos.decorator.MeteredRepository;
import io.racs.repos.decorator.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Each repository's traffic in the Prometheus text format, labelled by slot and repository name, so
 * that an operator sees which provider is slow or failing: requests, errors and a latency histogram
 * by operation, and body bytes each way. A slot counts only when a {@link MeteredRepository} is in
 * its chain of decorators ({@link #metered(List)} puts one there); the counts are what reached the
 * repository, after the store's own guards.
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

  /** The exposition of every metered repository among {@code slots} (index = slot). */
  public static String render(List<Repository> slots) {
    List<Labelled> metered = new ArrayList<>();
    for (int slot = 0; slot < slots.size(); slot++) {
      Repository repository = slots.get(slot);
      int s = slot;
      ForwardingRepository.find(repository, MeteredRepository.class)
          .ifPresent(
              m ->
                  metered.add(
                      new Labelled(
                          "slot=\"" + s + "\",repository=\"" + escape(repository.name()) + "\"",
                          m)));
    }
    StringBuilder out = new StringBuilder();
    if (metered.isEmpty()) {
      return "";
    }
    List<Map<Operation, MeteredRepository.OperationStats>> stats = new ArrayList<>();
    List<Map<Operation, MeteredRepository.LatencyBuckets>> latencies = new ArrayList<>();
    for (Labelled l : metered) {
      // The counters are read without resetting anything; only the calls and bytes are used
      // from the stats (their latency interval belongs to the benchmark, so it is not taken).
      stats.add(l.meter.counts());
      latencies.add(l.meter.cumulativeLatency());
    }
    out.append("# HELP racs_repository_requests_total Repository calls by operation.\n")
        .append("# TYPE racs_repository_requests_total counter\n");
    for (int i = 0; i < metered.size(); i++) {
      for (MeteredRepository.OperationStats op : stats.get(i).values()) {
        line(
            out,
            "racs_repository_requests_total",
            metered.get(i).labels,
            op.operation(),
            op.calls());
      }
    }
    out.append(
            "# HELP racs_repository_errors_total Repository calls that failed, by operation (not"
                + " counting not_found and precondition_failed, which are answers).\n")
        .append("# TYPE racs_repository_errors_total counter\n");
    for (int i = 0; i < metered.size(); i++) {
      for (MeteredRepository.OperationStats op : stats.get(i).values()) {
        line(
            out,
            "racs_repository_errors_total",
            metered.get(i).labels,
            op.operation(),
            failures(op));
      }
    }
    out.append(
            "# HELP racs_repository_errors_by_kind_total Failed repository calls by operation and"
                + " kind (kinds seen so far).\n")
        .append("# TYPE racs_repository_errors_by_kind_total counter\n");
    for (int i = 0; i < metered.size(); i++) {
      for (MeteredRepository.OperationStats op : stats.get(i).values()) {
        for (Map.Entry<RepositoryException.Kind, Long> kind : op.failures().entrySet()) {
          if (kind.getValue() > 0) {
            out.append("racs_repository_errors_by_kind_total{")
                .append(metered.get(i).labels)
                .append(",operation=\"")
                .append(name(op.operation()))
                .append("\",kind=\"")
                .append(kind.getKey().name().toLowerCase(Locale.ROOT))
                .append("\"} ")
                .append(kind.getValue())
                .append('\n');
          }
        }
      }
    }
    out.append(
            "# HELP racs_repository_sent_bytes_total Body bytes the proxy sent to the repository"
                + " (puts).\n")
        .append("# TYPE racs_repository_sent_bytes_total counter\n");
    for (int i = 0; i < metered.size(); i++) {
      out.append("racs_repository_sent_bytes_total{")
          .append(metered.get(i).labels)
          .append("} ")
          .append(stats.get(i).get(Operation.PUT).bytes())
          .append('\n');
    }
    out.append(
            "# HELP racs_repository_received_bytes_total Body bytes the proxy read from the"
                + " repository (gets).\n")
        .append("# TYPE racs_repository_received_bytes_total counter\n");
    for (int i = 0; i < metered.size(); i++) {
      out.append("racs_repository_received_bytes_total{")
          .append(metered.get(i).labels)
          .append("} ")
          .append(stats.get(i).get(Operation.GET).bytes())
          .append('\n');
    }
    out.append(
            "# HELP racs_repository_request_duration_seconds Repository call latency (a get's"
                + " ends when its body starts).\n")
        .append("# TYPE racs_repository_request_duration_seconds histogram\n");
    for (int i = 0; i < metered.size(); i++) {
      String labels = metered.get(i).labels;
      for (MeteredRepository.LatencyBuckets op : latencies.get(i).values()) {
        String prefix = labels + ",operation=\"" + name(op.operation()) + "\"";
        long cumulative = 0;
        long[] counts = op.counts();
        for (int b = 0; b < MeteredRepository.BUCKET_BOUNDS_SECONDS.length; b++) {
          cumulative += counts[b];
          out.append("racs_repository_request_duration_seconds_bucket{")
              .append(prefix)
              .append(",le=\"")
              .append(MeteredRepository.BUCKET_BOUNDS_SECONDS[b])
              .append("\"} ")
              .append(cumulative)
              .append('\n');
        }
        cumulative += counts[counts.length - 1];
        out.append("racs_repository_request_duration_seconds_bucket{")
            .append(prefix)
            .append(",le=\"+Inf\"} ")
            .append(cumulative)
            .append('\n');
        out.append("racs_repository_request_duration_seconds_sum{")
            .append(prefix)
            .append("} ")
            .append(op.sumNanos() / 1e9)
            .append('\n');
        out.append("racs_repository_request_duration_seconds_count{")
            .append(prefix)
            .append("} ")
            .append(cumulative)
            .append('\n');
      }
    }
    return out.toString();
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
    long[] counts = new long[MeteredRepository.BUCKET_BOUNDS_SECONDS.length + 1];
    for (MeteredRepository.LatencyBuckets op : meter.cumulativeLatency().values()) {
      long[] c = op.counts();
      for (int b = 0; b < c.length; b++) {
        counts[b] += c[b];
      }
    }
    return new Summary(
        slot, name, requests, errors, quantile(counts, 0.50), quantile(counts, 0.99));
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

  private record Labelled(String labels, MeteredRepository meter) {}

  private static void line(
      StringBuilder out, String metric, String labels, Operation operation, long value) {
    out.append(metric)
        .append('{')
        .append(labels)
        .append(",operation=\"")
        .append(name(operation))
        .append("\"} ")
        .append(value)
        .append('\n');
  }

  private static String name(Operation operation) {
    return operation.name().toLowerCase(Locale.ROOT);
  }

  /** A label value as the text format wants it: backslash, quote and newline escaped. */
  static String escape(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
