package io.racs.repos.decorator;

import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counts what passes through: per {@link Operation}, the calls, the failures (by kind), the body
 * bytes (put bodies as consumed, get bodies as read) and a latency histogram. A get's latency ends
 * when the stream is handed over (time to first byte), not when it is read to the end. Recording is
 * wait-free (HdrHistogram {@link Recorder}); {@link #snapshot()} takes a consistent copy and starts
 * a new interval, so a benchmark reads each interval's histogram once.
 */
public final class MeteredRepository extends ForwardingRepository {
  /** The largest latency the histograms track: one hour. */
  public static final long MAX_TRACKED_NANOS = 3_600_000_000_000L;

  private final Map<Operation, Meter> meters = new EnumMap<>(Operation.class);

  /** Wraps {@code delegate}. */
  public MeteredRepository(Repository delegate) {
    super(delegate);
    for (Operation operation : Operation.values()) {
      meters.put(operation, new Meter());
    }
  }

  /**
   * The upper bounds of the cumulative latency buckets ({@link #cumulativeLatency()}), in seconds:
   * from a local disk (1 ms) to a provider across an ocean under load (30 s), as Prometheus
   * histograms want them (fixed, so that series from several proxies add up).
   */
  public static final double[] BUCKET_BOUNDS_SECONDS = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30
  };

  private static final long[] BUCKET_BOUNDS_NANOS = new long[BUCKET_BOUNDS_SECONDS.length];

  static {
    for (int i = 0; i < BUCKET_BOUNDS_SECONDS.length; i++) {
      BUCKET_BOUNDS_NANOS[i] = Math.round(BUCKET_BOUNDS_SECONDS[i] * 1e9);
    }
  }

  private static final class Meter {
    final LongAdder calls = new LongAdder();
    final LongAdder bytes = new LongAdder();
    // Cumulative since the repository was built (the Recorder's histogram is per interval, and
    // an exporter scraped by Prometheus must not steal the benchmark's intervals).
    final LongAdder[] buckets = new LongAdder[BUCKET_BOUNDS_NANOS.length + 1];
    final LongAdder latencySumNanos = new LongAdder();
    final Map<RepositoryException.Kind, LongAdder> failures =
        new EnumMap<>(RepositoryException.Kind.class);
    final Recorder latencyNanos = new Recorder(MAX_TRACKED_NANOS, 3);

    Meter() {
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] = new LongAdder();
      }
      for (RepositoryException.Kind kind : RepositoryException.Kind.values()) {
        failures.put(kind, new LongAdder());
      }
    }
  }

  /**
   * One operation's counts since the repository was built, and its latencies (in nanoseconds) since
   * the previous snapshot.
   */
  public record OperationStats(
      Operation operation,
      long calls,
      long bytes,
      Map<RepositoryException.Kind, Long> failures,
      Histogram latencyNanos) {
    /** All failures, of every kind. */
    public long failureCount() {
      return failures.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /**
   * One operation's latencies since the repository was built: {@code counts[i]} calls took at most
   * {@link #BUCKET_BOUNDS_SECONDS}{@code [i]} and more than the bound before it; the last count is
   * the calls above every bound. Not cumulative across buckets (a renderer sums them).
   */
  public record LatencyBuckets(Operation operation, long[] counts, long sumNanos) {
    /** The calls counted in every bucket. */
    public long count() {
      long total = 0;
      for (long c : counts) {
        total += c;
      }
      return total;
    }
  }

  /**
   * Every operation's latency buckets since the repository was built, for an exporter scraped
   * repeatedly; unlike {@link #snapshot()} it resets nothing.
   */
  public Map<Operation, LatencyBuckets> cumulativeLatency() {
    Map<Operation, LatencyBuckets> all = new EnumMap<>(Operation.class);
    meters.forEach(
        (operation, meter) -> {
          long[] counts = new long[meter.buckets.length];
          for (int i = 0; i < counts.length; i++) {
            counts[i] = meter.buckets[i].sum();
          }
          all.put(operation, new LatencyBuckets(operation, counts, meter.latencySumNanos.sum()));
        });
    return all;
  }

  /** Every operation's stats; resets the latency histograms' interval. */
  public Map<Operation, OperationStats> snapshot() {
    return stats(true);
  }

  /**
   * Every operation's counts, with empty latency histograms: for an exporter that reads the counts
   * repeatedly and must not reset the interval a benchmark reads with {@link #snapshot()}.
   */
  public Map<Operation, OperationStats> counts() {
    return stats(false);
  }

  private Map<Operation, OperationStats> stats(boolean interval) {
    Map<Operation, OperationStats> stats = new EnumMap<>(Operation.class);
    meters.forEach(
        (operation, meter) -> {
          Map<RepositoryException.Kind, Long> failures =
              new EnumMap<>(RepositoryException.Kind.class);
          meter.failures.forEach((kind, count) -> failures.put(kind, count.sum()));
          stats.put(
              operation,
              new OperationStats(
                  operation,
                  meter.calls.sum(),
                  meter.bytes.sum(),
                  failures,
                  interval
                      ? meter.latencyNanos.getIntervalHistogram()
                      : new Histogram(MAX_TRACKED_NANOS, 3)));
        });
    return stats;
  }

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    Meter meter = meters.get(Operation.PUT);
    return timed(meter, () -> super.put(key, new CountingStream(body, meter), lengthBytes));
  }

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    Meter meter = meters.get(Operation.GET);
    ObjectStream stream = timed(meter, () -> super.get(key, offset, lengthBytes));
    return new ObjectStream(stream.info(), new CountingStream(stream, meter));
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    return timed(meters.get(Operation.HEAD), () -> super.head(key));
  }

  @Override
  public void delete(String key) {
    timed(
        meters.get(Operation.DELETE),
        () -> {
          super.delete(key);
          return null;
        });
  }

  @Override
  public void discard(String key) {
    timed(
        meters.get(Operation.DELETE),
        () -> {
          super.discard(key);
          return null;
        });
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    return timed(meters.get(Operation.LIST), () -> super.list(prefix, startAfter, maxKeys));
  }

  @Override
  public void probe() {
    timed(
        meters.get(Operation.PROBE),
        () -> {
          super.probe();
          return null;
        });
  }

  private static <T> T timed(Meter meter, Supplier<T> call) {
    meter.calls.increment();
    long started = System.nanoTime();
    try {
      return call.get();
    } catch (RepositoryException e) {
      meter.failures.get(e.kind()).increment();
      throw e;
    } finally {
      long nanos = Math.min(MAX_TRACKED_NANOS, Math.max(0, System.nanoTime() - started));
      meter.latencyNanos.recordValue(nanos);
      int bucket = 0;
      while (bucket < BUCKET_BOUNDS_NANOS.length && nanos > BUCKET_BOUNDS_NANOS[bucket]) {
        bucket++;
      }
      meter.buckets[bucket].increment();
      meter.latencySumNanos.add(nanos);
    }
  }

  private static final class CountingStream extends FilterInputStream {
    private final Meter meter;

    CountingStream(InputStream in, Meter meter) {
      super(in);
      this.meter = meter;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        meter.bytes.increment();
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        meter.bytes.add(n);
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      return super.skip(n); // Skipped bytes were not transferred to the caller.
    }
  }
}
