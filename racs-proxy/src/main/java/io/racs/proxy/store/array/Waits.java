package io.racs.proxy.store.array;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Waits with a timeout that first give the repository threads a few turns. On a virtual thread a
 * timed park arms and then cancels a timer of the fork-join pool's delay scheduler, two signals to
 * its thread each time; a request that waits for a piece or an answer which is only microseconds
 * away (a file read on another virtual thread) does better to yield a few times, letting that
 * thread run, and to park with the timer only when the answer is still not there.
 */
public final class Waits {
  private static final int YIELDS = 4;

  private Waits() {}

  /** Like {@link BlockingQueue#poll(long, TimeUnit)}. */
  static <E> E poll(BlockingQueue<E> queue, long timeoutNanos) throws InterruptedException {
    E e = queue.poll();
    for (int i = 0; e == null && i < YIELDS; i++) {
      Thread.yield();
      e = queue.poll();
    }
    return e != null ? e : queue.poll(timeoutNanos, TimeUnit.NANOSECONDS);
  }

  /** Like {@link CountDownLatch#await(long, TimeUnit)}. */
  static boolean await(CountDownLatch latch, long timeoutNanos) throws InterruptedException {
    for (int i = 0; latch.getCount() > 0 && i < YIELDS; i++) {
      Thread.yield();
    }
    return latch.getCount() == 0 || latch.await(timeoutNanos, TimeUnit.NANOSECONDS);
  }

  /** Like {@link Semaphore#tryAcquire(long, TimeUnit)}. */
  static boolean acquire(Semaphore semaphore, long timeoutNanos) throws InterruptedException {
    for (int i = 0; i < YIELDS; i++) {
      if (semaphore.tryAcquire()) {
        return true;
      }
      Thread.yield();
    }
    return semaphore.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
  }

  /** Like {@link CompletionService#poll(long, TimeUnit)}. */
  static <T> Future<T> poll(CompletionService<T> done, long timeoutNanos)
      throws InterruptedException {
    Future<T> f = done.poll();
    for (int i = 0; f == null && i < YIELDS; i++) {
      Thread.yield();
      f = done.poll();
    }
    return f != null ? f : done.poll(timeoutNanos, TimeUnit.NANOSECONDS);
  }
}
