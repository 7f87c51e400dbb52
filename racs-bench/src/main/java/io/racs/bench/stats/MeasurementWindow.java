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
 * <p>A {@code --count} client that reaches its quota before the window opens waits for it ({@link
 * #awaitOpen()}) before it stops. Otherwise one client starting late (a loaded machine keeps its
 * thread off a core for longer than another client's whole quota of fast requests) would leave no
 * window at all, and the iteration would drop every request it made, errors included.
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
  private final boolean[] completed;
  private final Object opening = new Object();
  private boolean hopeless;
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
    this.completed = new boolean[clients];
    this.stopTimes = new long[clients];
    Arrays.fill(stopTimes, Long.MAX_VALUE);
  }

  /**
   * Records client {@code client}'s first completed request (success or error); call once per
   * client, before classifying that request.
   */
  public void firstCompletion(int client, long completionNanos) {
    firstCompletions[client] = completionNanos;
    synchronized (opening) {
      completed[client] = true;
    }
    if (started.incrementAndGet() == firstCompletions.length) {
      long latest = Long.MIN_VALUE;
      for (long c : firstCompletions) {
        latest = Math.max(latest, c);
      }
      start = latest;
      startKnown = true;
      synchronized (opening) {
        opening.notifyAll();
      }
    }
  }

  /**
   * Waits until every client has completed a request (the window is open), or until a client
   * stopped without completing one (it never will open). A client calls it after its last request
   * and before {@link #clientStopped(int)}; its stop time is then read after the window's start.
   */
  public void awaitOpen() throws InterruptedException {
    synchronized (opening) {
      while (!startKnown && !hopeless) {
        opening.wait();
      }
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
    synchronized (opening) {
      if (!completed[client]) {
        hopeless = true;
        opening.notifyAll();
      }
    }
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
