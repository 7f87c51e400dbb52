package io.racs.proxy.store.array;

import java.time.Duration;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The new versions and delete markers being written through this store now, by when they began, so
 * that a proxy can tell when every write it began before some moment has ended: its acknowledgement
 * of a new array record must cover the writes that took the old layout (docs/reshape.md §6), since
 * the mover's completing sweep, which begins on that acknowledgement, must find each of them.
 *
 * <p>Each write is counted from its start ({@link #begin}) to its end, committed or failed (closing
 * what {@code begin} returned). {@link #awaitBegunBefore} waits until none that began before it was
 * called is still under way. Two monitor operations per write; nothing else waits on them.
 *
 * <p>Thread-safe.
 */
public final class WritesInFlight {
  /** One write under way: closing it ends it (once; closing again does nothing). */
  public interface Write extends AutoCloseable {
    @Override
    void close();
  }

  // Writes under way by the epoch they began in; the epoch moves at each awaitBegunBefore.
  private final TreeMap<Long, Integer> underWay = new TreeMap<>();
  private long epoch;

  /** A write begins now. */
  public Write begin() {
    long began;
    synchronized (this) {
      began = epoch;
      underWay.merge(began, 1, Integer::sum);
    }
    return new Write() {
      private boolean ended;

      @Override
      public void close() {
        synchronized (WritesInFlight.this) {
          if (ended) {
            return;
          }
          ended = true;
          if (underWay.merge(began, -1, Integer::sum) == 0) {
            underWay.remove(began);
            WritesInFlight.this.notifyAll();
          }
        }
      }
    };
  }

  /**
   * Waits until every write that began before this call has ended, for at most {@code atMost}; says
   * whether they all have. Writes that begin meanwhile are not waited for.
   */
  public synchronized boolean awaitBegunBefore(Duration atMost) throws InterruptedException {
    long mark = epoch++;
    long deadline = System.nanoTime() + atMost.toNanos();
    while (!underWay.headMap(mark, true).isEmpty()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
    }
    return true;
  }
}
