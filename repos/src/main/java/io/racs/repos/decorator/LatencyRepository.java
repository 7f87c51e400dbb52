package io.racs.repos.decorator;

import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import java.io.InputStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Adds network-like latency to every call: a fixed delay plus a uniformly distributed jitter, once
 * on the way in (before the call is forwarded) and once on the way out (before its answer is
 * returned; for a get, before the stream is handed over, like a time to first byte), and optionally
 * a {@link Late} tail: a fraction of the calls answers much later still, as a provider's p99 does.
 * The benchmark uses it to measure LatencyImpactRatio. Jitter and late calls come from one seeded
 * generator, so a single-threaded run draws the same delays every time. Delays wait on the calling
 * thread, which is meant to be virtual; an interrupted wait fails the call with {@code UNEXPECTED}.
 */
public final class LatencyRepository extends ForwardingRepository {
  private final Delay request;
  private final Delay response;
  private final Late late;
  private final Random random;

  /**
   * A tail: each call is, with probability {@code rate}, answered {@code extra} later than its
   * delays alone would make it (a slow disk, a retried packet, a provider's bad minute).
   */
  public record Late(double rate, Duration extra) {
    /** No call is late. */
    public static final Late NONE = new Late(0, Duration.ZERO);

    /** Checks the rate and the duration. */
    public Late {
      if (!(rate >= 0 && rate <= 1)) {
        throw new IllegalArgumentException("rate: " + rate + " (expected: 0 to 1)");
      }
      if (extra.isNegative()) {
        throw new IllegalArgumentException("extra: " + extra + " (expected: >= 0)");
      }
    }

    @Override
    public String toString() {
      return rate * 100 + "% " + extra.toMillis() + "ms late";
    }
  }

  /** A fixed delay plus up to {@code jitter} more, drawn uniformly; both may be zero. */
  public record Delay(Duration delay, Duration jitter) {
    /** No delay. */
    public static final Delay NONE = new Delay(Duration.ZERO, Duration.ZERO);

    /** Checks the durations. */
    public Delay {
      if (delay.isNegative()) {
        throw new IllegalArgumentException("delay: " + delay + " (expected: >= 0)");
      }
      if (jitter.isNegative()) {
        throw new IllegalArgumentException("jitter: " + jitter + " (expected: >= 0)");
      }
    }

    @Override
    public String toString() {
      return delay.toMillis() + "ms+" + jitter.toMillis() + "ms";
    }
  }

  /**
   * Wraps {@code delegate}.
   *
   * @param request waited before each call is forwarded
   * @param response waited after each call returns, before its answer is passed on
   * @param seed the jitter's seed
   */
  public LatencyRepository(Repository delegate, Delay request, Delay response, long seed) {
    this(delegate, request, response, Late.NONE, seed);
  }

  /**
   * Wraps {@code delegate}, with a tail of late calls.
   *
   * @param request waited before each call is forwarded
   * @param response waited after each call returns, before its answer is passed on
   * @param late which calls wait longer still, after the response delay
   * @param seed the seed of the jitter and of which calls are late
   */
  public LatencyRepository(
      Repository delegate, Delay request, Delay response, Late late, long seed) {
    super(delegate);
    this.request = request;
    this.response = response;
    this.late = java.util.Objects.requireNonNull(late, "late");
    this.random = new Random(seed);
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> description = new LinkedHashMap<>(super.describe());
    description.put(
        "latency",
        "request " + request + ", response " + response + (late.rate() > 0 ? ", " + late : ""));
    return description;
  }

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    return around(() -> super.put(key, body, lengthBytes));
  }

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    return around(() -> super.get(key, offset, lengthBytes));
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    return around(() -> super.head(key));
  }

  @Override
  public void delete(String key) {
    around(
        () -> {
          super.delete(key);
          return null;
        });
  }

  @Override
  public void discard(String key) {
    around(
        () -> {
          super.discard(key);
          return null;
        });
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    return around(() -> super.list(prefix, startAfter, maxKeys));
  }

  @Override
  public void probe() {
    around(
        () -> {
          super.probe();
          return null;
        });
  }

  private <T> T around(Supplier<T> call) {
    await(draw(request));
    T result = call.get();
    await(responseNanos());
    return result;
  }

  /** The next call's wait on the way out: the response delay, and the late tail if drawn. */
  long responseNanos() {
    long nanos = draw(response);
    if (late.rate() > 0 && nextDouble() < late.rate()) {
      nanos += late.extra().toNanos();
    }
    return nanos;
  }

  private long draw(Delay delay) {
    long nanos = delay.delay.toNanos();
    long jitterNanos = delay.jitter.toNanos();
    if (jitterNanos > 0) {
      nanos += (long) (nextDouble() * jitterNanos);
    }
    return nanos;
  }

  // Random is thread-safe, but a single-threaded caller must draw the same sequence every run:
  // one generator, drawn in call order.
  private double nextDouble() {
    return random.nextDouble();
  }

  private void await(long nanos) {
    if (nanos <= 0) {
      return;
    }
    long deadline = System.nanoTime() + nanos;
    // parkNanos may return early (spuriously or on unpark); keep waiting until the deadline.
    for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
      LockSupport.parkNanos(this, left);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new RepositoryException(
            RepositoryException.Kind.UNEXPECTED, name() + ": interrupted during injected latency");
      }
    }
  }
}
