package io.racs.bench.object.run;

import io.racs.bench.object.workload.Op;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What one iteration measured on one target (or one agent): only requests that completed inside the
 * ramp-cut window count. Histograms hold nanoseconds. Mutable while clients' records are merged
 * into it; treat it as read-only afterwards.
 */
public final class IterationResult {
  /** Width of one timeline slice, for throughput over time and the agents' shared window. */
  public static final long SLICE_NANOS = 50_000_000L;

  /** Successful requests in the window. */
  public long ops;

  /** Bytes moved by successful requests in the window. */
  public long bytes;

  /** Successful GETs whose bytes were verified. */
  public long verified;

  /** Failed requests in the window, by kind. */
  public final Map<String, Long> errors = new TreeMap<>();

  /**
   * Reads in the window that found no object because the workload itself deleted it (a concurrent
   * or earlier DELETE of the key), by operation label ({@code get}, {@code head}). Expected in a
   * mix with deletes, so neither errors nor successful operations.
   */
  public final Map<String, Long> expectedMisses = new TreeMap<>();

  /**
   * In-process array targets only: the repository calls the iteration made, by operation ({@code
   * get}, {@code list}, ...), summed over the array's repositories, from its start to its end
   * (requests outside the window included, as in {@link #requests}). Empty for other targets.
   */
  public final Map<String, Long> repositoryCalls = new TreeMap<>();

  /**
   * In-process array targets only: {@link #repositoryCalls} of each repository, by its name and
   * then by operation, so that each can be priced at its own provider's prices. Empty for other
   * targets.
   */
  public final Map<String, Map<String, Long>> repositoryCallsByRepository = new TreeMap<>();

  /**
   * In-process array targets only: the body bytes each repository returned to the array's GETs
   * (what a provider bills as data transfer out), by repository name. Empty for other targets.
   */
  public final Map<String, Long> repositoryReadBytes = new TreeMap<>();

  /**
   * {@link #repositoryCalls} per request the iteration completed (every one in {@link #requests}),
   * by operation; empty when there are none.
   */
  public Map<String, Double> repositoryCallsPerRequest() {
    Map<String, Double> out = new TreeMap<>();
    long n = requests.getTotalCount();
    if (n > 0) {
      repositoryCalls.forEach((op, calls) -> out.put(op, calls / (double) n));
    }
    return out;
  }

  /** Service-time latency of successful requests (from actual start to completion). */
  public final Histogram latency = newHistogram();

  /**
   * Service time of every request the iteration completed, inside the window or not, successful or
   * not: how long a request takes, which the window is checked against ({@link
   * io.racs.bench.stats.WindowCheck}).
   */
  public final Histogram requests = newHistogram();

  /** Open loop only: latency from the intended start (coordinated-omission corrected). */
  public final Histogram corrected = newHistogram();

  /** GETs only: time to first byte. */
  public final Histogram ttfb = newHistogram();

  /** Mixes only: latency per operation. */
  public final Map<Op, Histogram> perOp = new EnumMap<>(Op.class);

  /** Window start and end, nanoseconds since the iteration's start instant. */
  public long windowStartNanos;

  /** See {@link #windowStartNanos}. */
  public long windowEndNanos;

  /** The iteration's start instant, nanoseconds since the epoch (for logs and merging). */
  public long startEpochNanos;

  /**
   * Why this iteration cannot give a throughput (no window, or a window shorter than a request), or
   * null when it can. An invalid iteration is excluded from the point's throughput estimate.
   */
  public String invalidReason;

  /** Client CPU utilisation during the iteration (0 to 1, NaN unknown). */
  public double cpuUtilisation = Double.NaN;

  /**
   * The machine's CPU pressure during the iteration: the share of the time in which some runnable
   * task waited for a core (0 to 1, NaN unknown; {@link io.racs.bench.stats.ClientCpu#pressure()}).
   */
  public double cpuPressure = Double.NaN;

  /**
   * With {@code --sample-pid}: the CPU of the sampled processes from the iteration's start to its
   * end (requests outside the window included, as in {@link #requests}); null otherwise.
   */
  public io.racs.bench.cpu.CpuUsage sampledCpu;

  /** Successful requests per {@link #SLICE_NANOS} slice since the start instant. */
  public long[] sliceOps = new long[0];

  /** Bytes per slice, as {@link #sliceOps}. */
  public long[] sliceBytes = new long[0];

  /**
   * Multi-agent merges only: requests completed by all agents inside the window every agent shares
   * (whole slices), or -1. When set, throughput is computed from it, not from {@link #ops}.
   */
  public long sharedWindowOps = -1;

  /** Bytes of {@link #sharedWindowOps}, or -1. */
  public long sharedWindowBytes = -1;

  /** A nanosecond histogram with three significant digits that grows as needed. */
  public static Histogram newHistogram() {
    Histogram h = new Histogram(3);
    h.setAutoResize(true);
    return h;
  }

  /** The window's length in seconds. */
  public double windowSeconds() {
    return (windowEndNanos - windowStartNanos) / 1e9;
  }

  /** True when the window holds a measurement ({@link #invalidReason} is null). */
  public boolean isValid() {
    return invalidReason == null;
  }

  /** The median of {@link #requests} in nanoseconds, or -1 when no request completed. */
  public long requestNanosP50() {
    return requests.getTotalCount() == 0 ? -1 : requests.getValueAtPercentile(50);
  }

  /** Successful requests per second over the window; NaN when the iteration is invalid. */
  public double opsPerSecond() {
    double s = windowSeconds();
    return isValid() && s > 0 ? (sharedWindowOps >= 0 ? sharedWindowOps : ops) / s : Double.NaN;
  }

  /** Megabytes (10^6 bytes) per second over the window; NaN when the iteration is invalid. */
  public double megabytesPerSecond() {
    double s = windowSeconds();
    return isValid() && s > 0
        ? (sharedWindowBytes >= 0 ? sharedWindowBytes : bytes) / s / 1e6
        : Double.NaN;
  }

  /** Failed requests in the window. */
  public long errorCount() {
    return errors.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Expected misses in the window ({@link #expectedMisses}). */
  public long expectedMissCount() {
    return expectedMisses.values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * Adds {@code other}'s counts, histograms and slices (window, start and validity are not
   * touched).
   */
  public void add(IterationResult other) {
    ops += other.ops;
    bytes += other.bytes;
    verified += other.verified;
    other.errors.forEach((k, v) -> errors.merge(k, v, Long::sum));
    other.expectedMisses.forEach((k, v) -> expectedMisses.merge(k, v, Long::sum));
    other.repositoryCalls.forEach((k, v) -> repositoryCalls.merge(k, v, Long::sum));
    other.repositoryCallsByRepository.forEach(
        (repository, calls) ->
            calls.forEach(
                (k, v) ->
                    repositoryCallsByRepository
                        .computeIfAbsent(repository, r -> new TreeMap<>())
                        .merge(k, v, Long::sum)));
    other.repositoryReadBytes.forEach((k, v) -> repositoryReadBytes.merge(k, v, Long::sum));
    latency.add(other.latency);
    requests.add(other.requests);
    corrected.add(other.corrected);
    ttfb.add(other.ttfb);
    other.perOp.forEach((op, h) -> perOp.computeIfAbsent(op, o -> newHistogram()).add(h));
    sliceOps = addSlices(sliceOps, other.sliceOps);
    sliceBytes = addSlices(sliceBytes, other.sliceBytes);
  }

  static long[] addSlices(long[] a, long[] b) {
    long[] sum = new long[Math.max(a.length, b.length)];
    for (int i = 0; i < sum.length; i++) {
      sum[i] = (i < a.length ? a[i] : 0) + (i < b.length ? b[i] : 0);
    }
    return sum;
  }
}
