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
 * returned; for a get, before the stream is handed over, like a time to first byte). The benchmark
 * uses it to measure LatencyImpactRatio. Jitter comes from one seeded generator, so a
 * single-threaded run draws the same delays every time. Delays wait on the calling thread, which is
 * meant to be virtual; an interrupted wait fails the call with {@code UNEXPECTED}.
 */
public final class LatencyRepository extends ForwardingRepository {
  private final Delay request;
  private final Delay response;
  private final Random random;

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
    super(delegate);
    this.request = request;
    this.response = response;
    this.random = new Random(seed);
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> description = new LinkedHashMap<>(super.describe());
    description.put("latency", "request " + request + ", response " + response);
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
    await(request);
    T result = call.get();
    await(response);
    return result;
  }

  private void await(Delay delay) {
    long nanos = delay.delay.toNanos();
    long jitterNanos = delay.jitter.toNanos();
    if (jitterNanos > 0) {
      nanos += (long) (random.nextDouble() * jitterNanos);
    }
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
