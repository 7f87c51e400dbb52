package io.racs.bench.stats;

import org.HdrHistogram.AbstractHistogram;

/**
 * Latency percentiles of a nanosecond histogram, in milliseconds. Percentiles are HdrHistogram's
 * own (the value at or below which that share of samples lies, to the histogram's precision), so
 * they are monotone: p50 ≤ p90 ≤ p99 ≤ p99.9 ≤ p99.99 ≤ max.
 *
 * @param count samples
 * @param mean mean latency
 * @param p50 median
 * @param p90 90th percentile
 * @param p99 99th percentile
 * @param p999 99.9th percentile
 * @param p9999 99.99th percentile
 * @param max the largest sample
 */
public record LatencySummary(
    long count,
    double mean,
    double p50,
    double p90,
    double p99,
    double p999,
    double p9999,
    double max) {
  /** The percentiles of {@code nanos}; all zero when it is empty. */
  public static LatencySummary of(AbstractHistogram nanos) {
    if (nanos.getTotalCount() == 0) {
      return new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0);
    }
    return new LatencySummary(
        nanos.getTotalCount(),
        nanos.getMean() / 1e6,
        nanos.getValueAtPercentile(50) / 1e6,
        nanos.getValueAtPercentile(90) / 1e6,
        nanos.getValueAtPercentile(99) / 1e6,
        nanos.getValueAtPercentile(99.9) / 1e6,
        nanos.getValueAtPercentile(99.99) / 1e6,
        nanos.getMaxValue() / 1e6);
  }

  /** The percentiles in ascending order, for monotonicity checks and charts. */
  public double[] ascending() {
    return new double[] {p50, p90, p99, p999, p9999, max};
  }
}
