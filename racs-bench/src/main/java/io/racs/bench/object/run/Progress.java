package io.racs.bench.object.run;

import io.racs.proxy.cli.progress.ProgressBar;
import io.racs.proxy.cli.progress.ProgressMode;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The progress of a long run, drawn by the proxy's one renderer ({@link ProgressBar}: a bar on a
 * terminal, a line every few seconds otherwise): iterations done of those planned, with their rate
 * and the ETA, then what runs now, requests so far, the current request rate and errors. One daemon
 * thread looks four times a second; clients only add to two {@link LongAdder}s. {@link #silent()}
 * prints nothing (tests, agents).
 */
public final class Progress implements AutoCloseable {
  private final LongAdder ops = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final AtomicLong iterationsDone = new AtomicLong();
  private volatile long iterationsPlanned;
  private final ProgressBar bar;
  private final ScheduledExecutorService printer;
  private volatile String phase = "starting";
  private long lastOps;
  private long lastNanos = System.nanoTime();
  private double rate;

  private Progress(PrintWriter err, ProgressMode mode) {
    if (err == null || mode == ProgressMode.NONE) {
      bar = null;
      printer = null;
      return;
    }
    bar = ProgressBar.create(mode, err);
    printer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bench-progress");
              t.setDaemon(true);
              return t;
            });
    printer.scheduleAtFixedRate(this::print, 250, 250, TimeUnit.MILLISECONDS);
  }

  /** Draws on {@code err} in {@code mode}. */
  public static Progress printingTo(PrintWriter err, ProgressMode mode) {
    return new Progress(err, mode);
  }

  /** Counts without printing. */
  public static Progress silent() {
    return new Progress(null, ProgressMode.NONE);
  }

  /** Names what runs now. */
  public void phase(String phase) {
    this.phase = phase;
  }

  /** The run has {@code iterations} iterations (warmup ones included) in all. */
  public void planned(long iterations) {
    iterationsPlanned = iterations;
  }

  /** One iteration (warmup or measured) ended. */
  public void iterationDone() {
    iterationsDone.incrementAndGet();
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
    // The request rate over the last second or so, so that it follows the phase that runs now.
    if (now - lastNanos >= TimeUnit.SECONDS.toNanos(1)) {
      rate = (total - lastOps) / ((now - lastNanos) / 1e9);
      lastOps = total;
      lastNanos = now;
    }
    bar.update(
        ProgressBar.Step.of("bench", iterationsDone.get(), iterationsPlanned, "iterations")
            .detail(
                String.format(
                    Locale.ROOT,
                    "%s  ops %d  rate %.0f/s  errors %d",
                    phase,
                    total,
                    rate,
                    errors.sum())));
  }

  @Override
  public void close() {
    if (printer != null) {
      printer.shutdownNow();
      try {
        printer.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      print();
      bar.finish();
    }
  }
}
