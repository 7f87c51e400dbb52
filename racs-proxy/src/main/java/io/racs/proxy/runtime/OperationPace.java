package io.racs.proxy.runtime;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Paces background work to at most a number of operations a second, so that a scan over many
 * objects does not crowd out client requests; up to one second of unused pace may be caught up.
 * Parking the caller is the point here, not a way to wait for another thread. Not thread-safe: one
 * scan uses it.
 */
final class OperationPace {
  private static final long SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final long intervalNanos;
  private long nextNanos = System.nanoTime();

  private OperationPace(long intervalNanos) {
    this.intervalNanos = intervalNanos;
  }

  /** At most {@code perSecond} operations a second; 0 or less means no limit. */
  static OperationPace perSecond(double perSecond) {
    return new OperationPace(perSecond <= 0 ? 0 : (long) (SECOND_NANOS / perSecond));
  }

  /** Waits, if needed, until the next operation may start. */
  void await() {
    if (intervalNanos == 0) {
      return;
    }
    long now = System.nanoTime();
    long ahead;
    while ((ahead = nextNanos - now) > 0) {
      LockSupport.parkNanos(ahead); // may return early: the loop checks again
      now = System.nanoTime();
    }
    nextNanos = Math.max(nextNanos, now - SECOND_NANOS) + intervalNanos;
  }
}
