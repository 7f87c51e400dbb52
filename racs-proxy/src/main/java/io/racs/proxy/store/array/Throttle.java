package io.racs.proxy.store.array;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Limits background work (heal, scrub) to a byte rate so it does not starve client traffic: a token
 * bucket of one second's worth of bytes. Pacing by parking the caller is the point here, not a way
 * to wait for another thread.
 */
public final class Throttle {
  private final double bytesPerSecond;
  private double tokens;
  private long last = System.nanoTime();

  private Throttle(double bytesPerSecond) {
    this.bytesPerSecond = bytesPerSecond;
    this.tokens = bytesPerSecond;
  }

  /** No limit. */
  static Throttle unlimited() {
    return new Throttle(0);
  }

  /** At most {@code megabytesPerSecond} MB/s (10^6 bytes); 0 or less means no limit. */
  public static Throttle megabytesPerSecond(double megabytesPerSecond) {
    return new Throttle(Math.max(0, megabytesPerSecond) * 1e6);
  }

  /** Takes {@code bytes}, waiting as long as the rate requires. */
  public synchronized void consume(long bytes) {
    if (bytesPerSecond <= 0) {
      return;
    }
    refill();
    tokens -= bytes;
    if (tokens < 0) {
      long waitNanos = (long) (-tokens / bytesPerSecond * TimeUnit.SECONDS.toNanos(1));
      LockSupport.parkNanos(waitNanos);
      refill();
    }
  }

  private void refill() {
    long now = System.nanoTime();
    tokens = Math.min(bytesPerSecond, tokens + (now - last) / 1e9 * bytesPerSecond);
    last = now;
  }
}
