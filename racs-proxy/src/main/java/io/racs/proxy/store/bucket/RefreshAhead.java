package io.racs.proxy.store.bucket;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a cached answer again in the background once a request finds it with at most {@link
 * #LEFT_NANOS} of its {@link BucketCatalog#CACHE_NANOS} left, so that while it is in use requests
 * keep finding it fresh and none waits for its read: without this, over repositories tens of
 * milliseconds away, one write a second per bucket paid a listing round of its own (at 50 ms, with
 * one client writing, a PUT's 90th percentile was three rounds, not two). A quarter of the life is
 * left for the re-read, which takes a round or two: re-reading at half the life would double the
 * listings a bucket in use costs (each one billed by every provider); at three quarters it costs
 * about a third more than reading on expiry did.
 *
 * <p>Only the wait moves. An answer is still never used past its life, which still counts from its
 * own read, so how long a change through another proxy may take to be seen here is what it was (and
 * a re-read that sees one drops the answer sooner). At most one re-read of an answer runs at a
 * time. One that fails leaves the answer to expire: the first request after that reads in line, and
 * fails as it would have. Thread-safe.
 */
public final class RefreshAhead {
  private static final Logger LOG = LoggerFactory.getLogger(RefreshAhead.class);

  /** How much of an answer's life may be left when a request starts its re-read. */
  public static final long LEFT_NANOS = BucketCatalog.CACHE_NANOS / 4;

  private final Executor executor;
  private final Set<String> running = ConcurrentHashMap.newKeySet();

  public RefreshAhead(Executor executor) {
    this.executor = executor;
  }

  /**
   * Starts {@code read} in the background when the answer {@code id}, good until {@code
   * untilNanos}, has at most {@link #LEFT_NANOS} left at {@code nowNanos}, unless a re-read of it
   * runs.
   */
  public void ifDue(String id, long untilNanos, long nowNanos, Runnable read) {
    if (untilNanos - nowNanos > LEFT_NANOS || !running.add(id)) {
      return;
    }
    try {
      executor.execute(
          () -> {
            try {
              read.run();
            } catch (RuntimeException e) {
              // The answer expires as it would have; the request that then reads says why.
              LOG.debug("re-reading {} ahead of its expiry failed: {}", id, e.toString());
            } finally {
              running.remove(id);
            }
          });
    } catch (RejectedExecutionException e) {
      running.remove(id); // the store is closing
    }
  }

  /** Whether a re-read of any answer is running. */
  public boolean running() {
    return !running.isEmpty();
  }
}
