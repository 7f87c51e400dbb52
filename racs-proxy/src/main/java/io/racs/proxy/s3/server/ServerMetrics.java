package io.racs.proxy.s3.server;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Request counters of the S3 front end, rendered in the Prometheus text format: requests by
 * operation and status, bytes in and out, a latency histogram, and requests in flight.
 */
public final class ServerMetrics {
  private static final double[] BUCKETS_SECONDS = {
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30
  };

  private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
  private final LongAdder bytesIn = new LongAdder();
  private final LongAdder bytesOut = new LongAdder();
  private final LongAdder[] latency = new LongAdder[BUCKETS_SECONDS.length + 1];
  private final LongAdder latencyCount = new LongAdder();
  private final AtomicLong latencySumNanos = new AtomicLong();
  private final AtomicLong inFlight = new AtomicLong();

  public ServerMetrics() {
    for (int i = 0; i < latency.length; i++) {
      latency[i] = new LongAdder();
    }
  }

  void started() {
    inFlight.incrementAndGet();
  }

  /** Waits until no request is in flight or the deadline passes; true when none is. */
  boolean awaitIdle(long deadlineNanos) throws InterruptedException {
    synchronized (inFlight) {
      while (inFlight.get() > 0) {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(inFlight, left);
      }
      return true;
    }
  }

  /** Records a finished request. */
  void finished(String operation, int status, long in, long out, long nanos) {
    if (inFlight.decrementAndGet() == 0) {
      synchronized (inFlight) {
        inFlight.notifyAll();
      }
    }
    requests.computeIfAbsent(operation + "|" + status, k -> new LongAdder()).increment();
    bytesIn.add(in);
    bytesOut.add(out);
    double seconds = nanos / 1e9;
    int i = 0;
    while (i < BUCKETS_SECONDS.length && seconds > BUCKETS_SECONDS[i]) {
      i++;
    }
    latency[i].increment();
    latencyCount.increment();
    latencySumNanos.addAndGet(nanos);
  }

  /** Requests being served now. */
  public long inFlight() {
    return inFlight.get();
  }

  /** The Prometheus exposition of these counters (extra lines may be appended by the caller). */
  public String render() {
    StringBuilder out = new StringBuilder();
    out.append("# HELP racs_s3_requests_total S3 requests by operation and status.\n");
    out.append("# TYPE racs_s3_requests_total counter\n");
    new TreeMap<>(requests)
        .forEach(
            (key, count) -> {
              String[] parts = key.split("\\|");
              out.append("racs_s3_requests_total{operation=\"")
                  .append(parts[0])
                  .append("\",status=\"")
                  .append(parts[1])
                  .append("\"} ")
                  .append(count.sum())
                  .append('\n');
            });
    out.append("# TYPE racs_s3_received_bytes_total counter\n");
    out.append("racs_s3_received_bytes_total ").append(bytesIn.sum()).append('\n');
    out.append("# TYPE racs_s3_sent_bytes_total counter\n");
    out.append("racs_s3_sent_bytes_total ").append(bytesOut.sum()).append('\n');
    out.append("# TYPE racs_s3_requests_in_flight gauge\n");
    out.append("racs_s3_requests_in_flight ").append(inFlight.get()).append('\n');
    out.append("# TYPE racs_s3_request_duration_seconds histogram\n");
    long cumulative = 0;
    for (int i = 0; i < BUCKETS_SECONDS.length; i++) {
      cumulative += latency[i].sum();
      out.append("racs_s3_request_duration_seconds_bucket{le=\"")
          .append(BUCKETS_SECONDS[i])
          .append("\"} ")
          .append(cumulative)
          .append('\n');
    }
    cumulative += latency[BUCKETS_SECONDS.length].sum();
    out.append("racs_s3_request_duration_seconds_bucket{le=\"+Inf\"} ")
        .append(cumulative)
        .append('\n');
    out.append("racs_s3_request_duration_seconds_sum ")
        .append(latencySumNanos.get() / 1e9)
        .append('\n');
    out.append("racs_s3_request_duration_seconds_count ").append(latencyCount.sum()).append('\n');
    return out.toString();
  }
}
