package io.racs.bench.stats;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The ramp cut of one iteration: the window runs from the moment every client has completed one
 * request (the latest of the clients' first completions) to the moment the first client stops.
 * Requests completed outside it are excluded, so neither ramp-up nor ramp-down dilutes throughput.
 *
 * <p>The cut is decided online and exactly. Each client calls {@link #classify(long)} after every
 * request, with the request's completion time; the answer is {@link Decision#INCLUDE} or {@link
 * Decision#EXCLUDE} when the window already settles it, else {@link Decision#UNDECIDED}, and the
 * client keeps that request aside and resolves it with {@link #includes(long)} after {@link
 * #close()}. Only the ramp-up (before every client's first completion) and the last in-flight
 * request of each client are ever undecided, so memory stays small.
 *
 * <p>Why "undecided" is safe at the end: {@link #clientStopped(int)} raises a flag before it reads
 * the clock. A client that reads its completion time and then sees the flag down knows the stop
 * time, read later, is later than its completion.
 *
 * <p>Thread-safe: each client index must be used by one thread.
 */
public final class MeasurementWindow {
  /** What to do with one completed request. */
  public enum Decision {
    /** It completed inside the window: record it. */
    INCLUDE,
    /** It completed before the window: drop it. */
    EXCLUDE,
    /** Keep it aside and ask {@link #includes(long)} after {@link #close()}. */
    UNDECIDED
  }

  private final LongSupplier clock;
  private final long[] firstCompletions;
  private final long[] stopTimes;
  private final AtomicInteger started = new AtomicInteger();
  private volatile long start;
  private volatile boolean startKnown;
  private volatile boolean stopping;
  private long end = Long.MIN_VALUE;
  private boolean closed;

  /** A window for {@code clients} clients on the {@link System#nanoTime()} clock. */
  public MeasurementWindow(int clients) {
    this(clients, System::nanoTime);
  }

  /** A window on {@code clock} (a test seam). */
  public MeasurementWindow(int clients, LongSupplier clock) {
    if (clients < 1) {
      throw new IllegalArgumentException("clients: " + clients + " (expected: >= 1)");
    }
    this.clock = clock;
    this.firstCompletions = new long[clients];
    this.stopTimes = new long[clients];
    Arrays.fill(stopTimes, Long.MAX_VALUE);
  }

  /**
   * Records client {@code client}'s first completed request (success or error); call once per
   * client, before classifying that request.
   */
  public void firstCompletion(int client, long completionNanos) {
    firstCompletions[client] = completionNanos;
    if (started.incrementAndGet() == firstCompletions.length) {
      long latest = Long.MIN_VALUE;
      for (long c : firstCompletions) {
        latest = Math.max(latest, c);
      }
      start = latest;
      startKnown = true;
    }
  }

  /** Classifies a request that completed at {@code completionNanos} (read just before the call). */
  public Decision classify(long completionNanos) {
    if (!startKnown) {
      return Decision.UNDECIDED;
    }
    if (completionNanos < start) {
      return Decision.EXCLUDE;
    }
    return stopping ? Decision.UNDECIDED : Decision.INCLUDE;
  }

  /** Client {@code client} has stopped: it completes no more requests in this iteration. */
  public void clientStopped(int client) {
    stopping = true;
    stopTimes[client] = clock.getAsLong();
  }

  /** Settles the window once every client has stopped (and its thread has been joined). */
  public synchronized void close() {
    long first = Long.MAX_VALUE;
    for (long s : stopTimes) {
      first = Math.min(first, s);
    }
    end = first;
    closed = true;
  }

  /** Whether a request that completed at {@code completionNanos} is in the settled window. */
  public synchronized boolean includes(long completionNanos) {
    checkClosed();
    return startKnown && completionNanos >= start && completionNanos <= end;
  }

  /** True when every client completed a request before the first stopped. */
  public synchronized boolean isValid() {
    checkClosed();
    return startKnown && start <= end;
  }

  /** Window start, {@code System.nanoTime()} scale. */
  public synchronized long startNanos() {
    checkClosed();
    return start;
  }

  /** Window end, {@code System.nanoTime()} scale. */
  public synchronized long endNanos() {
    checkClosed();
    return end;
  }

  /** The window's length in seconds (0 when invalid). */
  public synchronized double seconds() {
    return isValid() ? (end - start) / 1e9 : 0;
  }

  private void checkClosed() {
    if (!closed) {
      throw new IllegalStateException("the window is not closed yet");
    }
  }
}
