package io.racs.bench.block;

import io.racs.bench.stats.ArrivalSchedule;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Executes the run definitions of a {@link VdbenchParams} file and prints vdbench-like output: a
 * line per interval (I/O rate, MB/sec in 1024², bytes per I/O, read percentage, mean, read, write
 * and max response time in ms) and an {@code avg_} line over the intervals after the warmup. Each
 * thread picks read or write from {@code rdpct} and a random or the next sequential block from
 * {@code seekpct}, within {@code range}; with a fixed rate each thread paces itself on its own
 * share of it (exponential or uniform gaps) and response time is measured from the actual start, as
 * vdbench does. With {@code --verify}, thread {@code t} of {@code T} only touches blocks whose
 * index is {@code t} mod {@code T}, so each block has one writer and reads can check the last
 * write. Not thread-safe.
 */
public final class VdbenchRun {
  /**
   * One printed line: an interval, or the average over the measured ones.
   *
   * @param name {@code 1}, {@code 2}, ... or {@code avg_F-L}
   * @param seconds its length
   * @param ios I/Os completed in it
   * @param rate I/Os per second
   * @param megabytesPerSecond in 1024² bytes per second, as vdbench
   * @param readPercent share of reads
   * @param meanResponseMillis mean response time
   * @param readResponseMillis mean read response time (0 without reads)
   * @param writeResponseMillis mean write response time (0 without writes)
   * @param maxResponseMillis max response time
   */
  public record Line(
      String name,
      double seconds,
      long ios,
      double rate,
      double megabytesPerSecond,
      double readPercent,
      double meanResponseMillis,
      double readResponseMillis,
      double writeResponseMillis,
      double maxResponseMillis) {}

  /**
   * One run's summary over the intervals after the warmup.
   *
   * @param label the run's label, e.g. {@code rd=rd1,wd=wd1,threads=4,xfersize=4KiB,iorate=max}
   * @param id a stable id, e.g. {@code rd1/wd1/t4/4KiB/max} ({@code 50%} for a curve point, the
   *     rate for a fixed one)
   * @param threads threads
   * @param xferBytes bytes per I/O
   * @param requestedRate the rate asked for, 0 for max
   * @param direct whether the storage was opened with O_DIRECT
   * @param average the average over the measured intervals
   * @param measured the measured intervals (those after the warmup)
   * @param verifiedBlocks reads checked against their stamps ({@code --verify})
   * @param failures verification failures
   */
  public record Summary(
      String label,
      String id,
      int threads,
      int xferBytes,
      double requestedRate,
      boolean direct,
      Line average,
      List<Line> measured,
      long verifiedBlocks,
      List<Stamp.Failure> failures) {
    /** I/Os per second over the measured intervals. */
    public double rate() {
      return average.rate();
    }

    /** 1024² bytes per second over the measured intervals, as vdbench. */
    public double megabytesPerSecond() {
      return average.megabytesPerSecond();
    }

    /** Share of reads. */
    public double readPercent() {
      return average.readPercent();
    }

    /** Mean response time. */
    public double meanResponseMillis() {
      return average.meanResponseMillis();
    }

    /** Max response time. */
    public double maxResponseMillis() {
      return average.maxResponseMillis();
    }
  }

  private final PrintWriter out;
  private final boolean verify;
  private final long seed;
  private final DdRun.Opener opener;
  private final Map<Path, Prepared> prepared = new HashMap<>();
  private final AtomicInteger writeGeneration = new AtomicInteger(1);

  private record Prepared(long sizeBytes, int align, int runId, int[] generations) {}

  /** A runner printing to {@code out}. */
  public VdbenchRun(PrintWriter out, boolean verify, long seed) {
    this(out, verify, seed, FileChannel::open);
  }

  VdbenchRun(PrintWriter out, boolean verify, long seed, DdRun.Opener opener) {
    this.out = out;
    this.verify = verify;
    this.seed = seed;
    this.opener = opener;
  }

  /** Runs every run definition in order. */
  public List<Summary> runAll(VdbenchParams params) throws IOException, InterruptedException {
    List<Summary> summaries = new ArrayList<>();
    for (VdbenchParams.Rd rd : params.runs()) {
      for (int threads : rd.threads()) {
        for (int xfer : rd.xferBytes()) {
          if (rd.rateMode() == VdbenchParams.RateMode.CURVE) {
            Summary max = run(rd, threads, xfer, 0, "max", "max");
            summaries.add(max);
            for (double pct : rd.curvePercents()) {
              double rate = max.rate() * pct / 100;
              summaries.add(
                  run(
                      rd,
                      threads,
                      xfer,
                      rate,
                      String.format(Locale.ROOT, "%.0f%%=%.1f", pct, rate),
                      String.format(Locale.ROOT, "%s%%", number(pct))));
            }
          } else {
            double rate = rd.rateMode() == VdbenchParams.RateMode.FIXED ? rd.iorate() : 0;
            String label = rate > 0 ? String.format(Locale.ROOT, "%.1f", rate) : "max";
            summaries.add(run(rd, threads, xfer, rate, label, rate > 0 ? number(rate) : "max"));
          }
        }
      }
    }
    return summaries;
  }

  private Prepared prepare(VdbenchParams.Sd sd, int largestXfer) throws IOException {
    Prepared p = prepared.get(sd.lun());
    if (p != null) {
      return p;
    }
    int align = DdRun.alignment(sd.lun());
    int unit = Math.max(align, verify ? Stamp.UNIT_BYTES : 1);
    long size = sd.sizeBytes() / unit * unit;
    if (size < largestXfer) {
      throw new IllegalArgumentException(
          "sd="
              + sd.name()
              + ": size "
              + sd.sizeBytes()
              + " (expected: >= xfersize "
              + largestXfer
              + ")");
    }
    int runId = new SplittableRandom(seed).nextInt(1, Integer.MAX_VALUE);
    int chunk = (int) Math.min(size, 1 << 20) / unit * unit;
    try (FileChannel channel = BlockFile.open(sd.lun(), sd.direct(), opener)) {
      channel.truncate(size);
      long filled = 0;
      ByteBuffer buffer = BlockFile.aligned(chunk, align);
      while (filled < size) {
        int n = (int) Math.min(chunk, size - filled);
        buffer.clear().limit(n);
        if (verify) {
          Stamp.fill(buffer, filled, Stamp.key(runId, 1));
        } else {
          BlockFile.random(buffer, seed ^ filled);
        }
        BlockFile.writeFully(channel, buffer, filled);
        filled += n;
      }
      channel.force(true);
    } catch (IOException e) {
      throw BlockFile.translate(sd.lun(), sd.direct(), e);
    }
    int[] generations = null;
    if (verify) {
      generations = new int[(int) (size / Stamp.UNIT_BYTES)];
      java.util.Arrays.fill(generations, 1);
    }
    p = new Prepared(size, align, runId, generations);
    prepared.put(sd.lun(), p);
    return p;
  }

  /** {@code 50}, {@code 12.5}: a number without a needless fraction, for ids. */
  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  /**
   * Runs one definition at one thread count, transfer size and rate (0: max); {@code rateLabel} is
   * printed, {@code rateId} ends the summary's id.
   */
  Summary run(
      VdbenchParams.Rd rd, int threads, int xfer, double rate, String rateLabel, String rateId)
      throws IOException, InterruptedException {
    VdbenchParams.Wd wd = rd.wd();
    VdbenchParams.Sd sd = wd.sd();
    if (sd.direct() && xfer % DdRun.alignment(sd.lun()) != 0) {
      throw new IllegalArgumentException(
          "xfersize: "
              + xfer
              + " (expected: a multiple of the filesystem block size "
              + DdRun.alignment(sd.lun())
              + " for o_direct)");
    }
    if (verify && xfer % Stamp.UNIT_BYTES != 0) {
      throw new IllegalArgumentException(
          "xfersize: " + xfer + " (expected: a multiple of 4096 with --verify)");
    }
    Prepared p = prepare(sd, xfer);
    long firstBlock = (long) Math.ceil(p.sizeBytes() * wd.rangeLowPercent() / 100 / xfer);
    long endBlock = (long) Math.floor(p.sizeBytes() * wd.rangeHighPercent() / 100 / xfer);
    long blocks = endBlock - firstBlock;
    if (blocks < (verify ? threads : 1)) {
      throw new IllegalArgumentException(
          "wd="
              + wd.name()
              + ": range holds "
              + blocks
              + " blocks of "
              + xfer
              + " (expected: at least "
              + (verify ? threads : 1)
              + ")");
    }
    String label =
        String.format(
            Locale.ROOT,
            "rd=%s,wd=%s,threads=%d,xfersize=%s,iorate=%s",
            rd.name(),
            wd.name(),
            threads,
            Sizes.label(xfer),
            rateLabel);
    out.println("Starting " + label);
    out.printf(
        Locale.ROOT,
        "%-10s %10s %9s %9s %7s %9s %9s %9s %9s%n",
        "interval",
        "i/o rate",
        "MB/sec",
        "bytes/io",
        "read%",
        "resp ms",
        "read ms",
        "write ms",
        "max ms");
    Recorder reads = new Recorder(3);
    Recorder writes = new Recorder(3);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> error = new AtomicReference<>();
    ConcurrentLinkedQueue<Stamp.Failure> failures = new ConcurrentLinkedQueue<>();
    AtomicLong verified = new AtomicLong();
    List<Line> measured = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    long[] startNanos = new long[1];
    List<Thread> workers = new ArrayList<>();
    try (FileChannel channel = BlockFile.open(sd.lun(), sd.direct(), opener)) {
      for (int t = 0; t < threads; t++) {
        final int index = t;
        workers.add(
            Thread.ofPlatform()
                .name("block-run-" + t)
                .start(
                    () -> {
                      try {
                        work(
                            channel,
                            sd.lun(),
                            wd,
                            p,
                            xfer,
                            firstBlock,
                            blocks,
                            index,
                            threads,
                            rate,
                            rd.exponential(),
                            reads,
                            writes,
                            stop,
                            start,
                            startNanos,
                            failures,
                            verified);
                      } catch (Throwable e) {
                        error.compareAndSet(null, e);
                      }
                    }));
      }
      long intervalNanos = (long) (rd.intervalSeconds() * 1e9);
      long elapsedNanos = (long) (rd.elapsedSeconds() * 1e9);
      long warmupNanos = (long) (rd.warmupSeconds() * 1e9);
      startNanos[0] = System.nanoTime();
      start.countDown();
      reads.reset();
      writes.reset();
      Histogram totalReads = new Histogram(3);
      Histogram totalWrites = new Histogram(3);
      double measuredSeconds = 0;
      int interval = 0;
      int firstMeasured = 0;
      long previous = startNanos[0];
      for (long at = intervalNanos; previous - startNanos[0] < elapsedNanos; at += intervalNanos) {
        long until = startNanos[0] + Math.min(at, elapsedNanos);
        for (long now = System.nanoTime();
            now - until < 0 && error.get() == null;
            now = System.nanoTime()) {
          LockSupport.parkNanos(until - now);
        }
        long now = System.nanoTime();
        Histogram r = reads.getIntervalHistogram();
        Histogram w = writes.getIntervalHistogram();
        interval++;
        double seconds = (now - previous) / 1e9;
        Line line = printLine(Integer.toString(interval), r, w, xfer, seconds);
        if (previous - startNanos[0] >= warmupNanos) {
          if (firstMeasured == 0) {
            firstMeasured = interval;
          }
          measured.add(line);
          totalReads.add(r);
          totalWrites.add(w);
          measuredSeconds += seconds;
        }
        previous = now;
        if (error.get() != null) {
          break;
        }
      }
      stop.set(true);
      for (Thread worker : workers) {
        worker.join();
      }
      Throwable e = error.get();
      if (e instanceof IOException io) {
        throw BlockFile.translate(sd.lun(), sd.direct(), io);
      }
      if (e instanceof RuntimeException re) {
        throw re;
      }
      if (e != null) {
        throw new IOException(e);
      }
      if (firstMeasured == 0) {
        firstMeasured = interval;
      }
      Line average =
          printLine(
              "avg_" + firstMeasured + "-" + interval,
              totalReads,
              totalWrites,
              xfer,
              Math.max(measuredSeconds, 1e-9));
      List<Stamp.Failure> sorted = new ArrayList<>(failures);
      sorted.sort(java.util.Comparator.comparingLong(Stamp.Failure::offsetBytes));
      for (Stamp.Failure f : sorted) {
        out.println("VERIFY FAILED " + label + ": " + f);
      }
      out.flush();
      return new Summary(
          label,
          rd.name() + "/" + wd.name() + "/t" + threads + "/" + Sizes.label(xfer) + "/" + rateId,
          threads,
          xfer,
          rate,
          sd.direct(),
          average,
          List.copyOf(measured),
          verified.get(),
          List.copyOf(sorted));
    }
  }

  private Line printLine(String name, Histogram r, Histogram w, int xfer, double seconds) {
    long n = r.getTotalCount() + w.getTotalCount();
    double rate = n / seconds;
    double mb = rate * xfer / 1048576.0;
    double readPct = n == 0 ? 0 : 100.0 * r.getTotalCount() / n;
    double mean =
        n == 0 ? 0 : (r.getMean() * r.getTotalCount() + w.getMean() * w.getTotalCount()) / n / 1e6;
    double max = Math.max(r.getMaxValue(), w.getMaxValue()) / 1e6;
    double readMillis = r.getTotalCount() == 0 ? 0 : r.getMean() / 1e6;
    double writeMillis = w.getTotalCount() == 0 ? 0 : w.getMean() / 1e6;
    out.printf(
        Locale.ROOT,
        "%-10s %10.1f %9.2f %9d %7.1f %9.3f %9.3f %9.3f %9.3f%n",
        name,
        rate,
        mb,
        xfer,
        readPct,
        mean,
        readMillis,
        writeMillis,
        max);
    out.flush();
    return new Line(name, seconds, n, rate, mb, readPct, mean, readMillis, writeMillis, max);
  }

  private void work(
      FileChannel channel,
      Path file,
      VdbenchParams.Wd wd,
      Prepared p,
      int xfer,
      long firstBlock,
      long blocks,
      int index,
      int threads,
      double rate,
      boolean exponential,
      Recorder reads,
      Recorder writes,
      AtomicBoolean stop,
      CountDownLatch start,
      long[] startNanos,
      ConcurrentLinkedQueue<Stamp.Failure> failures,
      AtomicLong verified)
      throws IOException, InterruptedException {
    SplittableRandom random = new SplittableRandom(seed * 31 + index);
    ByteBuffer buffer = BlockFile.aligned(xfer, p.align());
    if (!verify) {
      BlockFile.random(buffer, seed + index);
    }
    // With --verify thread `index` owns the blocks congruent to it modulo `threads`.
    long stride = verify ? threads : 1;
    long owned = verify ? (blocks - index + threads - 1) / threads : blocks;
    long slot = random.nextLong(owned);
    start.await();
    ArrivalSchedule schedule =
        rate > 0
            ? new ArrivalSchedule(
                rate / threads,
                exponential ? ArrivalSchedule.Arrivals.POISSON : ArrivalSchedule.Arrivals.CONSTANT,
                seed ^ index,
                startNanos[0])
            : null;
    while (!stop.get()) {
      if (schedule != null) {
        long intended = schedule.next();
        for (long now = System.nanoTime(); now - intended < 0; now = System.nanoTime()) {
          if (stop.get()) {
            return;
          }
          LockSupport.parkNanos(Math.min(intended - now, 10_000_000L));
        }
      }
      if (random.nextInt(100) < wd.seekPercent()) {
        slot = random.nextLong(owned);
      } else {
        slot = (slot + 1) % owned;
      }
      long block = firstBlock + (verify ? index + slot * stride : slot);
      long offset = block * xfer;
      boolean read = random.nextInt(100) < wd.readPercent();
      buffer.clear().limit(xfer);
      int generation = 0;
      if (!read && verify) {
        generation = writeGeneration.incrementAndGet();
        Stamp.fill(buffer, offset, Stamp.key(p.runId(), generation));
      }
      long t0 = System.nanoTime();
      if (read) {
        BlockFile.readFully(file, channel, buffer, offset);
      } else {
        BlockFile.writeFully(channel, buffer, offset);
      }
      long t1 = System.nanoTime();
      (read ? reads : writes).recordValue(t1 - t0);
      if (verify) {
        int first = (int) (offset / Stamp.UNIT_BYTES);
        if (read) {
          buffer.flip();
          Stamp.Failure f =
              Stamp.check(
                  buffer, offset, p.runId(), o -> p.generations()[(int) (o / Stamp.UNIT_BYTES)]);
          verified.incrementAndGet();
          if (f != null && failures.size() < 100) {
            failures.add(f);
          }
        } else {
          java.util.Arrays.fill(
              p.generations(), first, first + xfer / Stamp.UNIT_BYTES, generation);
        }
      }
    }
  }
}
