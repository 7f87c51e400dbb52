package io.racs.bench.object.run;

import io.racs.bench.object.target.ErrorKinds;
import io.racs.bench.object.target.Target;
import io.racs.bench.object.workload.Content;
import io.racs.bench.object.workload.KeyDistribution;
import io.racs.bench.object.workload.KeySpace;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.Op;
import io.racs.bench.stats.ArrivalSchedule;
import io.racs.bench.stats.MeasurementWindow;
import java.io.IOException;
import java.io.InputStream;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

/**
 * One client of one iteration: waits for the start instant, then issues requests back to back
 * (closed loop) or at its share of the rate (open loop) until the deadline or its share of the
 * count, and hands every completed request to its {@link ClientRecorder}.
 */
final class ClientLoop implements Runnable {
  private static final int MAX_REDRAWS = 16;

  private final int index;
  private final Target.Client client;
  private final KeySpace keys;
  private final Workload workload;
  private final MeasurementWindow window;
  private final ClientRecorder recorder;
  private final Progress progress;
  private final long startNanos;
  private final long deadlineNanos;
  private final long quota;
  private final AtomicInteger deleteCursor;
  private final long clientSeed;
  private final byte[] buffer = new byte[64 * 1024];
  private final byte[] expected = new byte[64 * 1024];
  private final SplittableRandom random;
  private final KeyDistribution.Chooser chooser;

  /** Thrown inside {@link #execute} when a pure DELETE workload has no objects left. */
  private static final class PoolExhausted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PoolExhausted() {
      super(null, null, false, false);
    }
  }

  ClientLoop(
      int index,
      Target.Client client,
      KeySpace keys,
      Workload workload,
      MeasurementWindow window,
      ClientRecorder recorder,
      Progress progress,
      long startNanos,
      long deadlineNanos,
      long quota,
      AtomicInteger deleteCursor,
      long iterationSeed) {
    this.index = index;
    this.client = client;
    this.keys = keys;
    this.workload = workload;
    this.window = window;
    this.recorder = recorder;
    this.progress = progress;
    this.startNanos = startNanos;
    this.deadlineNanos = deadlineNanos;
    this.quota = quota;
    this.deleteCursor = deleteCursor;
    this.clientSeed = Content.mix(iterationSeed * 31 + index);
    this.random = new SplittableRandom(clientSeed);
    this.chooser = workload.keys().chooser(keys.size(), clientSeed ^ 0x6b79L);
  }

  @Override
  public void run() {
    try {
      loop();
    } finally {
      window.clientStopped(index);
    }
  }

  private void loop() {
    parkUntil(startNanos);
    Mix.Deck deck = workload.mix().deck(clientSeed ^ 0xdec4L);
    ArrivalSchedule schedule =
        workload.openLoop()
            ? new ArrivalSchedule(
                workload.rateOpsPerSecond() / workload.clients(),
                workload.arrivals(),
                clientSeed ^ 0xa441L,
                startNanos)
            : null;
    boolean first = true;
    long done = 0;
    boolean countMode = workload.count() > 0;
    while (true) {
      if (countMode && done >= quota) {
        if (done > 0) {
          awaitWindow();
        }
        return;
      }
      if (!countMode && System.nanoTime() >= deadlineNanos) {
        return;
      }
      long intended = -1;
      if (schedule != null) {
        intended = schedule.next();
        if (!countMode && intended >= deadlineNanos) {
          parkUntil(deadlineNanos);
          return;
        }
        parkUntil(intended);
      }
      Op op = deck.next();
      long start = System.nanoTime();
      Outcome outcome;
      try {
        outcome = execute(op, start);
      } catch (PoolExhausted e) {
        return;
      }
      long end = System.nanoTime();
      done++;
      if (first) {
        window.firstCompletion(index, end);
        first = false;
      }
      ClientRecorder.Sample sample =
          new ClientRecorder.Sample(
              op,
              start,
              end,
              end - start,
              intended < 0 ? -1 : ArrivalSchedule.correctedLatency(intended, start, end),
              outcome.ttfbNanos,
              outcome.bytes,
              outcome.verified,
              outcome.error,
              outcome.expectedMiss);
      recorder.accept(sample, window.classify(end));
      progress.completed(outcome.error != null);
      // Virtual threads (beyond IterationRunner.PLATFORM_THREAD_CLIENTS clients) are not
      // time-sliced: against a CPU-bound target (memory) a client that never blocks would keep its
      // carrier, and clients beyond the carrier count would not start until it stopped. Yielding
      // after each request shares the carriers round-robin.
      Thread.yield();
    }
  }

  /** A client done with its quota stops only once the window is open (see MeasurementWindow). */
  private void awaitWindow() {
    try {
      window.awaitOpen();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void parkUntil(long nanos) {
    for (long left = nanos - System.nanoTime(); left > 0; left = nanos - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }

  /**
   * What one request did. {@code expectedMiss}: a read found no object because the workload had
   * deleted it, which is counted apart from errors.
   */
  private record Outcome(
      long bytes, long ttfbNanos, boolean verified, String error, boolean expectedMiss) {
    Outcome(long bytes, long ttfbNanos, boolean verified, String error) {
      this(bytes, ttfbNanos, verified, error, false);
    }

    static Outcome failed(Throwable t) {
      return new Outcome(0, -1, false, ErrorKinds.of(t));
    }

    static final Outcome MISS = new Outcome(0, -1, false, null, true);
  }

  /**
   * A read of key {@code i} as the key space stood when it was chosen: whether it surely held an
   * object, and how many deletes of it had started. A not-found answer is the workload's own doing
   * when the key was absent or possibly undone by a delete that overlapped its last put (see {@link
   * KeySpace#surelyPresent}), or a delete started since.
   */
  private record Pick(int index, boolean surelyPresent, int deletesStarted) {
    boolean deletedSince(KeySpace keys) {
      return !surelyPresent || keys.deletesStarted(index) != deletesStarted;
    }
  }

  private Pick pick() {
    int i = pickExisting();
    // The count first: a delete that starts between the two reads then shows in one of them.
    int started = keys.deletesStarted(i);
    return new Pick(i, keys.surelyPresent(i), started);
  }

  private int pickExisting() {
    int i = chooser.next();
    for (int tries = 0; tries < MAX_REDRAWS && !keys.exists(i); tries++) {
      i = chooser.next();
    }
    return i;
  }

  private Outcome execute(Op op, long start) {
    try {
      return switch (op) {
        case PUT -> put();
        case GET -> {
          Pick pick = pick();
          try {
            yield get(pick.index(), start);
          } catch (RuntimeException | IOException e) {
            Outcome failed = Outcome.failed(e);
            yield ErrorKinds.isNotFound(failed.error()) && pick.deletedSince(keys)
                ? Outcome.MISS
                : failed;
          }
        }
        case HEAD -> {
          Pick pick = pick();
          if (client.head(keys.key(pick.index()))) {
            yield new Outcome(0, -1, false, null);
          }
          yield pick.deletedSince(keys) ? Outcome.MISS : new Outcome(0, -1, false, "NOT_FOUND");
        }
        case LIST -> {
          client.list(keys.prefix(), workload.listMaxKeys());
          yield new Outcome(0, -1, false, null);
        }
        case DELETE -> delete();
      };
    } catch (PoolExhausted e) {
      throw e;
    } catch (RuntimeException e) {
      return Outcome.failed(e);
    }
  }

  private Outcome put() {
    int i = chooser.next();
    String key = keys.key(i);
    long began = System.nanoTime();
    long version = keys.beginPut(i);
    long size = workload.size().sizeOf(workload.seed(), key, version);
    long seed = Content.seed(workload.seed(), key, version);
    client.put(key, Content.stream(seed, size), size);
    keys.putDone(i, version, began);
    return new Outcome(size, -1, false, null);
  }

  private Outcome delete() {
    if (deleteCursor != null) {
      int i = deleteCursor.getAndIncrement();
      if (i >= keys.size()) {
        throw new PoolExhausted();
      }
      keys.beginDelete(i);
      try {
        client.delete(keys.key(i));
      } finally {
        keys.deleteDone(i);
      }
      return new Outcome(0, -1, false, null);
    }
    int i = pickExisting();
    keys.beginDelete(i);
    try {
      client.delete(keys.key(i));
    } finally {
      keys.deleteDone(i);
    }
    return new Outcome(0, -1, false, null);
  }

  private Outcome get(int i, long start) throws IOException {
    String key = keys.key(i);
    long version = keys.storedVersion(i);
    long size = workload.size().sizeOf(workload.seed(), key, version);
    long[] range = workload.range().pick(size, random);
    long offset = range[0];
    long length = workload.range().isNone() ? -1 : range[1];
    long seed = Content.seed(workload.seed(), key, version);
    boolean verify = workload.verify();
    CRC32C crc = verify ? new CRC32C() : null;
    long ttfb = -1;
    long total = 0;
    boolean matches = true;
    try (InputStream in = client.get(key, offset, length)) {
      int n;
      while ((n = in.read(buffer)) != -1) {
        if (ttfb < 0) {
          ttfb = System.nanoTime() - start;
        }
        if (verify) {
          crc.update(buffer, 0, n);
          if (matches) {
            Content.fill(seed, offset + total, expected, 0, n);
            matches = java.util.Arrays.equals(buffer, 0, n, expected, 0, n);
          }
        }
        total += n;
      }
    }
    if (ttfb < 0) {
      ttfb = System.nanoTime() - start;
    }
    if (!verify) {
      return new Outcome(total, ttfb, false, null);
    }
    long expectedLength = Math.max(0, Math.min(length < 0 ? size : length, size - offset));
    if (matches && total == expectedLength) {
      return new Outcome(total, ttfb, true, null);
    }
    // A put may have raced with this read: accept any version that was current meanwhile.
    long newest = keys.startedVersion(i);
    long oldest = Math.max(1, version - workload.clients());
    for (long v = oldest; v <= newest; v++) {
      if (v == version) {
        continue;
      }
      long vSize = workload.size().sizeOf(workload.seed(), key, v);
      long vLength = Math.max(0, Math.min(length < 0 ? vSize : length, vSize - offset));
      if (vLength == total
          && Content.crc(Content.seed(workload.seed(), key, v), offset, total) == crc.getValue()) {
        return new Outcome(total, ttfb, true, null);
      }
    }
    return new Outcome(total, ttfb, false, ErrorKinds.VERIFY_MISMATCH);
  }
}
