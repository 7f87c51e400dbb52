package io.racs.proxy.s3.server;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Request metrics of the S3 front end, kept by the Prometheus client library: requests by operation
 * and status, bytes in and out, a latency histogram, and requests in flight. The instruments belong
 * to no registry until {@link #register} puts them into the admin server's. Exemplars are off: the
 * library attaches them only from an OpenTelemetry span, and the proxy has no tracing.
 */
public final class ServerMetrics {
  private static final double[] BUCKETS_SECONDS = {
    0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30
  };

  private final Counter requests =
      Counter.builder()
          .name("racs_s3_requests_total")
          .help("S3 requests by operation and status.")
          .labelNames("operation", "status")
          .withoutExemplars()
          .build();
  private final Counter bytesIn =
      Counter.builder()
          .name("racs_s3_received_bytes_total")
          .help("Request body bytes received from S3 clients.")
          .withoutExemplars()
          .build();
  private final Counter bytesOut =
      Counter.builder()
          .name("racs_s3_sent_bytes_total")
          .help("Response body bytes sent to S3 clients.")
          .withoutExemplars()
          .build();
  private final Histogram latency =
      Histogram.builder()
          .name("racs_s3_request_duration_seconds")
          .help("S3 request latency, from the request's start to its response's end.")
          .classicOnly()
          .classicUpperBounds(BUCKETS_SECONDS)
          .withoutExemplars()
          .build();
  private final AtomicLong inFlight = new AtomicLong();
  // Set when the server binds; until then the transport gauge has no sample.
  private volatile Transport transport;

  public ServerMetrics() {}

  /** Puts these metrics into {@code registry} (once per registry). */
  public void register(PrometheusRegistry registry) {
    registry.register(requests);
    registry.register(bytesIn);
    registry.register(bytesOut);
    registry.register(latency);
    registry.register(
        GaugeWithCallback.builder()
            .name("racs_s3_requests_in_flight")
            .help("S3 requests being served now.")
            .callback(callback -> callback.call(inFlight.get()))
            .build());
    registry.register(
        GaugeWithCallback.builder()
            .name("racs_s3_transport")
            .help("The socket transport of the S3 server's event loops: 1 for the one in use.")
            .labelNames("transport")
            .callback(
                callback -> {
                  Transport t = transport;
                  if (t != null) {
                    callback.call(1, t.word());
                  }
                })
            .build());
  }

  /** Records the transport the server's event loops run on. */
  void transport(Transport transport) {
    this.transport = transport;
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
        TimeUnit.NANOSECONDS.timedWait(inFlight, left);
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
    requests.labelValues(operation, Integer.toString(status)).inc();
    bytesIn.inc(in);
    bytesOut.inc(out);
    latency.observe(nanos / 1e9);
  }

  /** Requests being served now. */
  public long inFlight() {
    return inFlight.get();
  }
}
