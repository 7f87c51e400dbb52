package io.racs.bench.stats;

import java.util.SplittableRandom;

/**
 * The intended start times of one open-loop client: constant spacing or Poisson arrivals (seeded
 * exponential gaps) at {@code ratePerSecond}. A request that starts late because the previous one
 * ran long keeps its intended start time, and its coordinated-omission-corrected latency is
 * measured from it ({@link #correctedLatency}), as wrk2 and HdrHistogram's own recorder do; the
 * uncorrected latency is measured from the actual start. Not thread-safe: one per client.
 */
public final class ArrivalSchedule {
  /** How arrivals are spaced. */
  public enum Arrivals {
    /** Every gap is exactly 1 / rate. */
    CONSTANT,
    /** Gaps are exponential with mean 1 / rate (a Poisson process). */
    POISSON
  }

  private final double meanGapNanos;
  private final Arrivals arrivals;
  private final SplittableRandom random;
  private double next;

  /**
   * A schedule whose first arrival is at {@code startNanos}.
   *
   * @throws IllegalArgumentException when the rate is not positive
   */
  public ArrivalSchedule(double ratePerSecond, Arrivals arrivals, long seed, long startNanos) {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("rate: " + ratePerSecond + " (expected: > 0)");
    }
    this.meanGapNanos = 1e9 / ratePerSecond;
    this.arrivals = arrivals;
    this.random = new SplittableRandom(seed);
    this.next = startNanos;
  }

  /** The next intended start time, advancing the schedule. */
  public long next() {
    long intended = (long) next;
    double gap =
        arrivals == Arrivals.CONSTANT
            ? meanGapNanos
            : -Math.log(1 - random.nextDouble()) * meanGapNanos;
    next += gap;
    return intended;
  }

  /** Latency from the intended start: what a user arriving on schedule would have seen. */
  public static long correctedLatency(long intendedNanos, long actualStartNanos, long endNanos) {
    return endNanos - Math.min(intendedNanos, actualStartNanos);
  }
}
