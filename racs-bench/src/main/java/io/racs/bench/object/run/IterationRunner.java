package io.racs.bench.object.run;

import io.racs.bench.object.target.Target;
import io.racs.bench.object.workload.KeySpace;
import io.racs.bench.object.workload.KeySpaces;
import io.racs.bench.object.workload.Op;
import io.racs.bench.stats.ClientCpu;
import io.racs.bench.stats.MeasurementWindow;
import io.racs.bench.stats.WindowCheck;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs one iteration of a workload on one target: opens a handle per client, starts a thread per
 * client ({@link #clientThread}), releases all clients at one start instant, joins them, settles
 * the ramp cut, merges the clients' histograms exactly and judges the window ({@link WindowCheck}).
 */
public final class IterationRunner {
  private IterationRunner() {}

  /**
   * Up to this many clients, each client is a platform thread; beyond, a virtual thread. A platform
   * thread's blocking socket read is one system call, where a virtual thread parks, goes through
   * the poller and is scheduled again: against MinIO, 1 MiB GETs at 8 clients cost about a third
   * less client CPU on platform threads (0.39 against 0.63 ms per GET). Thousands of clients are
   * what virtual threads are for.
   */
  static final int PLATFORM_THREAD_CLIENTS = 512;

  static Thread.Builder clientThread(int clients) {
    return clients <= PLATFORM_THREAD_CLIENTS ? Thread.ofPlatform() : Thread.ofVirtual();
  }

  /** The current time as nanoseconds since the epoch. */
  public static long epochNanos() {
    Instant now = Instant.now();
    return ChronoUnit.NANOS.between(Instant.EPOCH, now);
  }

  /**
   * Runs one iteration.
   *
   * @param keys the prepared key space (for a pure DELETE workload, a freshly prepared pool)
   * @param iterationSeed derives the clients' seeds
   * @param startEpochNanos the start instant in nanoseconds since the epoch, or 0 for "as soon as
   *     the clients are ready"; agents get one instant from the controller
   */
  public static IterationResult run(
      Target target,
      KeySpace keys,
      Workload workload,
      long iterationSeed,
      long startEpochNanos,
      Progress progress)
      throws InterruptedException {
    return run(target, KeySpaces.shared(keys), workload, iterationSeed, startEpochNanos, progress);
  }

  /**
   * Runs one iteration, client {@code i} on {@code spaces.of(i)}: with a key space per client, a
   * pure DELETE workload also keeps a delete cursor per client, each client emptying its own pool.
   *
   * @param spaces the prepared key spaces (for a pure DELETE workload, freshly prepared pools)
   * @param iterationSeed derives the clients' seeds
   * @param startEpochNanos the start instant in nanoseconds since the epoch, or 0 for "as soon as
   *     the clients are ready"; agents get one instant from the controller
   * @throws IllegalArgumentException when the key spaces are per client and made for fewer clients
   */
  public static IterationResult run(
      Target target,
      KeySpaces spaces,
      Workload workload,
      long iterationSeed,
      long startEpochNanos,
      Progress progress)
      throws InterruptedException {
    int n = workload.clients();
    // Fails before any handle opens when per-client key spaces were made for fewer clients.
    spaces.of(n - 1);
    List<Target.Client> handles = new ArrayList<>(n);
    try {
      for (int i = 0; i < n; i++) {
        handles.add(target.client(i));
      }
      long nowEpoch = epochNanos();
      long nowNanos = System.nanoTime();
      long startNanos =
          startEpochNanos > 0 ? nowNanos + (startEpochNanos - nowEpoch) : nowNanos + 5_000_000L;
      long deadline = startNanos + workload.duration().toNanos();
      MeasurementWindow window = new MeasurementWindow(n);
      boolean pureDelete = workload.mix().isSingle() && workload.mix().single() == Op.DELETE;
      AtomicInteger sharedCursor = pureDelete ? new AtomicInteger() : null;
      boolean perOp = !workload.mix().isSingle();
      List<ClientRecorder> recorders = new ArrayList<>(n);
      List<Thread> threads = new ArrayList<>(n);
      ClientCpu cpu = ClientCpu.start();
      for (int i = 0; i < n; i++) {
        long quota = workload.count() / n + (i < workload.count() % n ? 1 : 0);
        ClientRecorder recorder = new ClientRecorder(startNanos, perOp);
        AtomicInteger deleteCursor =
            pureDelete && spaces.perClient() ? new AtomicInteger() : sharedCursor;
        recorders.add(recorder);
        ClientLoop loop =
            new ClientLoop(
                i,
                handles.get(i),
                spaces.of(i),
                workload,
                window,
                recorder,
                progress,
                startNanos,
                deadline,
                quota,
                deleteCursor,
                iterationSeed);
        threads.add(clientThread(n).name("bench-client-" + i).start(loop));
      }
      for (Thread t : threads) {
        t.join();
      }
      window.close();
      IterationResult result = new IterationResult();
      result.cpuUtilisation = cpu.utilisation();
      result.cpuPressure = cpu.pressure();
      result.startEpochNanos = nowEpoch + (startNanos - nowNanos);
      if (window.isValid()) {
        result.windowStartNanos = window.startNanos() - startNanos;
        result.windowEndNanos = window.endNanos() - startNanos;
      }
      for (ClientRecorder recorder : recorders) {
        recorder.settle(window);
        result.add(recorder.result);
      }
      result.invalidReason =
          WindowCheck.invalidReason(
                  window.isValid(),
                  result.windowEndNanos - result.windowStartNanos,
                  result.requestNanosP50(),
                  workload.count() > 0 ? "--count" : "--duration")
              .orElse(null);
      return result;
    } finally {
      for (Target.Client handle : handles) {
        handle.close();
      }
    }
  }
}
