package io.racs.proxy.admin;

import io.racs.repos.Repository;
import io.racs.repos.decorator.ForwardingRepository;
import io.racs.repos.decorator.MeteredRepository;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each repository's latency over time, for the console's charts: every {@link #EVERY} (when the
 * page asks), the p50 and p99 of the calls made since the last sample, from the same latency
 * histogram {@code /metrics} exposes (each quantile the upper bound of its bucket, as {@link
 * RepositoryMetrics#quantile} reads it), the last {@link #POINTS} kept. Thread-safe.
 */
final class LatencyHistory {
  /** The shortest time between two samples. */
  static final Duration EVERY = Duration.ofSeconds(2);

  /** How many samples each repository keeps (three minutes' worth). */
  static final int POINTS = 90;

  /**
   * One sample.
   *
   * @param millis when it was taken, epoch milliseconds
   * @param calls calls made since the sample before
   * @param p50Seconds their median's bucket bound; NaN when there were none
   * @param p99Seconds their 99th percentile's bucket bound; NaN when none, infinite past the last
   */
  record Point(long millis, long calls, double p50Seconds, double p99Seconds) {}

  private final Map<Integer, ArrayDeque<Point>> points = new HashMap<>();
  private final Map<Integer, long[]> previous = new HashMap<>();
  private long lastMillis = Long.MIN_VALUE;

  /** Takes a sample of {@code slots} (index = slot) at {@code nowMillis}, unless one is recent. */
  synchronized void sample(List<Repository> slots, long nowMillis) {
    if (lastMillis != Long.MIN_VALUE && nowMillis - lastMillis < EVERY.toMillis()) {
      return;
    }
    lastMillis = nowMillis;
    for (int slot = 0; slot < slots.size(); slot++) {
      var meter = ForwardingRepository.find(slots.get(slot), MeteredRepository.class);
      if (meter.isEmpty()) {
        continue;
      }
      long[] now = RepositoryMetrics.latencyCounts(meter.get());
      long[] before = previous.put(slot, now);
      if (before == null) {
        continue; // the first sample is the baseline of the next
      }
      long[] interval = new long[now.length];
      long calls = 0;
      for (int b = 0; b < now.length; b++) {
        interval[b] = now[b] - before[b];
        calls += interval[b];
      }
      ArrayDeque<Point> kept = points.computeIfAbsent(slot, s -> new ArrayDeque<>());
      kept.addLast(
          new Point(
              nowMillis,
              calls,
              RepositoryMetrics.quantile(interval, 0.50),
              RepositoryMetrics.quantile(interval, 0.99)));
      while (kept.size() > POINTS) {
        kept.removeFirst();
      }
    }
  }

  /** The samples of {@code slot}, oldest first. */
  synchronized List<Point> of(int slot) {
    ArrayDeque<Point> kept = points.get(slot);
    return kept == null ? List.of() : new ArrayList<>(kept);
  }
}
