package io.racs.proxy.store.commit;

import io.racs.proxy.store.api.StoreConfig;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * How fast the {@link Collector} may remove versions in the background: a token bucket whose rate
 * follows the work coming in. Each removal (a superseded version, a version removed by id, the data
 * of a failed write) takes one token. The rate is twice the removals that arrived in the last
 * second (so a store keeps up with a steady stream of overwrites), and never less than {@value
 * #FLOOR_PER_SECOND} a second; at most a second of it is saved up.
 *
 * <p>What it prevents: superseded versions are collected a settle time after their successor
 * committed (60 s as shipped), so a burst of overwrites comes due as one burst of removals, a
 * minute later, whatever the clients are doing then. Unpaced, a burst of 9,000 (750 PUT/s for 12 s
 * on fast repositories) was removed as fast as the cores allowed, and the requests of that minute
 * queued behind its repository calls on the same carriers: a one-client PUT at 50 ms went from a
 * p90 of 105 ms to 528 ms. Paced, the same burst is removed at the floor's rate, unless the store
 * is then being overwritten as fast. Pacing delays only what is deleted, never what is read: a
 * version waiting to be collected is already superseded.
 *
 * <p>The bucket ages on the store's ticker ({@link StoreConfig#ticker()}), so tests drive it. Once
 * {@linkplain #unpace() unpaced} (the store closing), and while {@linkplain #hurry hurried} (heal
 * waiting for the backlog), every removal proceeds at once. Thread-safe.
 */
final class CollectionPace {
  /** The least rate, in removals a second. */
  static final int FLOOR_PER_SECOND = 100;

  /** How much faster than they arrive removals may go. */
  static final int KEEP_UP = 2;

  private static final long SECOND = 1_000_000_000L;

  private final LongSupplier ticker;
  private long windowStart;
  private int arrivedThisWindow;
  private int arrivedLastWindow;
  private double tokens = FLOOR_PER_SECOND;
  private long refilledAt;
  private int waiting;
  private volatile boolean unpaced;
  private int hurried;

  CollectionPace(LongSupplier ticker) {
    this.ticker = ticker;
    long now = ticker.getAsLong();
    this.windowStart = now;
    this.refilledAt = now;
  }

  /** Counts one removal that has come in (it may run later). */
  synchronized void arrived() {
    refill(ticker.getAsLong()); // at the rate before this arrival raises it
    arrivedThisWindow++;
  }

  /** Removals a second allowed now. */
  synchronized double perSecond() {
    return rate(ticker.getAsLong());
  }

  /**
   * Takes a token if there is one and returns 0; otherwise returns how many nanoseconds until the
   * next one, and takes nothing.
   */
  synchronized long reserve() {
    if (unpaced || hurried > 0) {
      return 0;
    }
    double rate = refill(ticker.getAsLong());
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.max(1, (long) Math.ceil((1 - tokens) * SECOND / rate));
  }

  /** Waits for a token (on a virtual thread, a wait parks nothing but itself). */
  void acquire() {
    long wait = reserve();
    if (wait == 0) {
      return;
    }
    synchronized (this) {
      waiting++;
    }
    try {
      while (wait > 0) {
        LockSupport.parkNanos(this, wait);
        wait = reserve();
      }
    } finally {
      synchronized (this) {
        waiting--;
      }
    }
  }

  /** Removals waiting for a token now (for tests). */
  synchronized int waiting() {
    return waiting;
  }

  /**
   * While {@code on} calls outnumber the {@code off} ones, every removal proceeds at once: someone
   * (heal) waits for the backlog.
   */
  synchronized void hurry(boolean on) {
    hurried += on ? 1 : -1;
  }

  /** From now on every removal proceeds at once: the store is closing, no request is served. */
  void unpace() {
    unpaced = true;
  }

  /** Adds the tokens earned since the last refill, at the rate now; returns that rate. */
  private double refill(long now) {
    double rate = rate(now);
    if (now > refilledAt) {
      tokens = Math.min(rate, tokens + (now - refilledAt) * rate / SECOND);
      refilledAt = now;
    }
    return rate;
  }

  private double rate(long now) {
    roll(now);
    return Math.max(FLOOR_PER_SECOND, KEEP_UP * Math.max(arrivedThisWindow, arrivedLastWindow));
  }

  private void roll(long now) {
    long elapsed = now - windowStart;
    if (elapsed < SECOND) {
      return;
    }
    arrivedLastWindow = elapsed < 2 * SECOND ? arrivedThisWindow : 0;
    arrivedThisWindow = 0;
    windowStart = now - elapsed % SECOND;
  }
}
