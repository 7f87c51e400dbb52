package io.racs.bench.object.run;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The progress line of a long run: elapsed time, what runs now, requests so far, the current rate
 * and errors, printed to {@code err} at most once per second by one daemon thread. Clients only add
 * to two {@link LongAdder}s. {@link #silent()} prints nothing (tests, agents).
 */
public final class Progress implements AutoCloseable {
  private final LongAdder ops = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final PrintWriter err;
  private final long startNanos = System.nanoTime();
  private final ScheduledExecutorService printer;
  private volatile String phase = "starting";
  private long lastOps;
  private long lastNanos = startNanos;

  private Progress(PrintWriter err) {
    this.err = err;
    if (err == null) {
      printer = null;
      return;
    }
    printer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bench-progress");
              t.setDaemon(true);
              return t;
            });
    printer.scheduleAtFixedRate(this::print, 1, 1, TimeUnit.SECONDS);
  }

  /** Prints to {@code err} every second. */
  public static Progress printingTo(PrintWriter err) {
    return new Progress(err);
  }

  /** Counts without printing. */
  public static Progress silent() {
    return new Progress(null);
  }

  /** Names what runs now. */
  public void phase(String phase) {
    this.phase = phase;
  }

  /** One request completed. */
  public void completed(boolean failed) {
    ops.increment();
    if (failed) {
      errors.increment();
    }
  }

  private synchronized void print() {
    long now = System.nanoTime();
    long total = ops.sum();
    double rate = (total - lastOps) / ((now - lastNanos) / 1e9);
    lastOps = total;
    lastNanos = now;
    err.printf(
        Locale.ROOT,
        "[%5.0fs] %s  ops %d  rate %.0f/s  errors %d%n",
        (now - startNanos) / 1e9,
        phase,
        total,
        rate,
        errors.sum());
    err.flush();
  }

  @Override
  public void close() {
    if (printer != null) {
      printer.shutdownNow();
    }
  }
}
