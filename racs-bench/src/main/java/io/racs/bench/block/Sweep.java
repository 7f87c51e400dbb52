package io.racs.bench.block;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The block sweep: one preallocated file, read and written with positional I/O by 1..N threads at
 * each record size, sequentially or in a seeded random order. A pass touches every record-sized
 * block of the file exactly once: the blocks (in file order, or a seeded permutation of it) are cut
 * into one contiguous share per thread, and each thread keeps its share in every pass, so no two
 * threads ever write the same block at once. Not thread-safe: one sweep at a time.
 */
public final class Sweep {
  /** The access patterns. */
  public enum Pattern {
    /** Sequential reads. */
    SEQREAD(false, false),
    /** Sequential writes. */
    SEQWRITE(true, false),
    /** Reads in a seeded permutation of the blocks. */
    RANDREAD(false, true),
    /** Writes in a seeded permutation of the blocks. */
    RANDWRITE(true, true);

    final boolean write;
    final boolean random;

    Pattern(boolean write, boolean random) {
      this.write = write;
      this.random = random;
    }

    /** Whether the pattern writes. */
    public boolean write() {
      return write;
    }

    /** Whether the pattern is random. */
    public boolean random() {
      return random;
    }

    /** The command-line name, e.g. {@code randread}. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The pattern named {@code label}. */
    public static Pattern of(String label) {
      for (Pattern p : values()) {
        if (p.label().equals(label.trim())) {
          return p;
        }
      }
      throw new IllegalArgumentException(
          "--patterns: " + label + " (expected: seqread, seqwrite, randread or randwrite)");
    }
  }

  /**
   * What to sweep.
   *
   * @param file the file (created and filled)
   * @param fileSizeBytes requested size; rounded down to a multiple of the largest record
   * @param records record sizes in bytes
   * @param threads thread counts
   * @param patterns access patterns, run in this order for each record and thread count
   * @param duration time per point, or null to run {@code passes} passes
   * @param passes passes per point when {@code duration} is null
   * @param direct O_DIRECT
   * @param seed seeds the data and the random orders
   * @param verify stamp writes and check reads ({@link Stamp})
   * @param reuseFile use the file's contents as they are when it already holds the size (no fill),
   *     as fio does with an existing file; never with {@code verify}, which needs its stamps
   */
  public record Config(
      Path file,
      long fileSizeBytes,
      List<Integer> records,
      List<Integer> threads,
      List<Pattern> patterns,
      Duration duration,
      int passes,
      boolean direct,
      long seed,
      boolean verify,
      boolean reuseFile) {
    /** A builder for a sweep of {@code file}: 1 pass, buffered, unverified, seed 1. */
    public static Builder builder(Path file) {
      return new Builder(file);
    }

    /** A builder holding this configuration's values. */
    public Builder toBuilder() {
      return new Builder(file)
          .fileSizeBytes(fileSizeBytes)
          .records(records)
          .threads(threads)
          .patterns(patterns)
          .duration(duration)
          .passes(passes)
          .direct(direct)
          .seed(seed)
          .verify(verify)
          .reuseFile(reuseFile);
    }

    /** Builds a {@link Config}; every setting has the meaning of the record's component. */
    public static final class Builder {
      private final Path file;
      private long fileSizeBytes;
      private List<Integer> records = List.of();
      private List<Integer> threads = List.of(1);
      private List<Pattern> patterns = List.of(Pattern.values());
      private Duration duration;
      private int passes = 1;
      private boolean direct;
      private long seed = 1;
      private boolean verify;
      private boolean reuseFile;

      private Builder(Path file) {
        this.file = file;
      }

      /** The requested file size. */
      public Builder fileSizeBytes(long fileSizeBytes) {
        this.fileSizeBytes = fileSizeBytes;
        return this;
      }

      /** The record sizes in bytes. */
      public Builder records(List<Integer> records) {
        this.records = List.copyOf(records);
        return this;
      }

      /** The thread counts. */
      public Builder threads(List<Integer> threads) {
        this.threads = List.copyOf(threads);
        return this;
      }

      /** The access patterns, in run order. */
      public Builder patterns(List<Pattern> patterns) {
        this.patterns = List.copyOf(patterns);
        return this;
      }

      /** Time per point, or null to run {@link #passes} passes. */
      public Builder duration(Duration duration) {
        this.duration = duration;
        return this;
      }

      /** Passes per point when there is no duration. */
      public Builder passes(int passes) {
        this.passes = passes;
        return this;
      }

      /** O_DIRECT. */
      public Builder direct(boolean direct) {
        this.direct = direct;
        return this;
      }

      /** Seeds the data and the random orders. */
      public Builder seed(long seed) {
        this.seed = seed;
        return this;
      }

      /** Stamp writes and check reads. */
      public Builder verify(boolean verify) {
        this.verify = verify;
        return this;
      }

      /** Use the file's existing contents when it holds the size. */
      public Builder reuseFile(boolean reuseFile) {
        this.reuseFile = reuseFile;
        return this;
      }

      /** The configuration. */
      public Config build() {
        return new Config(
            file,
            fileSizeBytes,
            records,
            threads,
            patterns,
            duration,
            passes,
            direct,
            seed,
            verify,
            reuseFile);
      }
    }
  }

  /**
   * One measured point.
   *
   * @param pattern the access pattern
   * @param recordBytes bytes per I/O
   * @param threads threads
   * @param ops I/Os completed
   * @param bytes bytes moved
   * @param seconds from the start of the first I/O to the end of the last
   * @param latency per-I/O service time in nanoseconds
   * @param direct whether O_DIRECT was in effect
   * @param verifiedBlocks record-sized reads checked against their stamps
   * @param failures verification failures (at most 100 kept)
   */
  public record Point(
      Pattern pattern,
      int recordBytes,
      int threads,
      long ops,
      long bytes,
      double seconds,
      Histogram latency,
      boolean direct,
      long verifiedBlocks,
      List<Stamp.Failure> failures) {
    /** 10^6 bytes per second. */
    public double megabytesPerSecond() {
      return bytes / seconds / 1e6;
    }

    /** I/Os per second. */
    public double iops() {
      return ops / seconds;
    }

    /** A stable id, e.g. {@code randread/4KiB/t4}. */
    public String id() {
      return pattern.label() + "/" + Sizes.label(recordBytes) + "/t" + threads;
    }
  }

  private final Config config;
  private final DdRun.Opener opener;
  private final int align;
  private final long sizeBytes;
  private final int runId;
  private final int[] generations;
  private int generation = 1;
  private boolean filled = true;

  private Sweep(Config config, DdRun.Opener opener, int align, long sizeBytes) {
    this.config = config;
    this.opener = opener;
    this.align = align;
    this.sizeBytes = sizeBytes;
    this.runId = new SplittableRandom(config.seed()).nextInt(1, Integer.MAX_VALUE);
    this.generations = config.verify() ? new int[(int) (sizeBytes / Stamp.UNIT_BYTES)] : null;
  }

  /**
   * Checks the configuration, then creates and fills the file (stamped when verifying).
   *
   * @throws IllegalArgumentException for sizes that do not fit O_DIRECT, the stamps or the file
   * @throws DdRun.DirectIoRefusedException when the filesystem refuses O_DIRECT
   */
  public static Sweep prepare(Config config) throws IOException {
    return prepare(config, FileChannel::open);
  }

  static Sweep prepare(Config config, DdRun.Opener opener) throws IOException {
    int align = DdRun.alignment(config.file());
    int largest = 0;
    for (int r : config.records()) {
      if (r < 1) {
        throw new IllegalArgumentException("--records: " + r + " (expected: >= 1 byte)");
      }
      if (config.direct() && r % align != 0) {
        throw new IllegalArgumentException(
            "--records: "
                + r
                + " (expected: a multiple of the filesystem block size "
                + align
                + " for O_DIRECT)");
      }
      if (config.verify() && r % Stamp.UNIT_BYTES != 0) {
        throw new IllegalArgumentException(
            "--records: " + r + " (expected: a multiple of 4096 with --verify)");
      }
      largest = Math.max(largest, r);
    }
    for (int t : config.threads()) {
      if (t < 1 || t > 4096) {
        throw new IllegalArgumentException("--threads: " + t + " (expected: 1 to 4096)");
      }
    }
    long size = config.fileSizeBytes() / largest * largest;
    if (size == 0) {
      throw new IllegalArgumentException(
          "--file-size: "
              + config.fileSizeBytes()
              + " (expected: at least the largest record, "
              + largest
              + ")");
    }
    if (config.verify() && size / Stamp.UNIT_BYTES > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("--file-size: " + size + " (expected: < 8 TiB)");
    }
    if (config.duration() == null && config.passes() < 1) {
      throw new IllegalArgumentException("--passes: " + config.passes() + " (expected: >= 1)");
    }
    if (config.reuseFile() && config.verify()) {
      throw new IllegalArgumentException(
          "--reuse-file: (expected: not with --verify, which must stamp the file first)");
    }
    Sweep sweep = new Sweep(config, opener, align, size);
    if (config.reuseFile()
        && Files.isRegularFile(config.file())
        && Files.size(config.file()) >= size) {
      // Opening once proves O_DIRECT is allowed before any point runs.
      BlockFile.open(config.file(), config.direct(), opener).close();
      sweep.filled = false;
      return sweep;
    }
    int chunk = (int) Math.min(size, Math.max(largest, 1 << 20) / largest * largest);
    try (FileChannel channel = BlockFile.open(config.file(), config.direct(), opener)) {
      channel.truncate(size);
      BlockFile.fill(
          channel,
          size,
          chunk,
          align,
          config.seed(),
          config.verify() ? Stamp.key(sweep.runId, sweep.generation) : null);
    } catch (IOException e) {
      throw BlockFile.translate(config.file(), config.direct(), e);
    }
    if (sweep.generations != null) {
      java.util.Arrays.fill(sweep.generations, sweep.generation);
    }
    return sweep;
  }

  /** The file size actually used (rounded down to a multiple of the largest record). */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** Whether {@link #prepare} filled the file (false when it reused the data already there). */
  public boolean filled() {
    return filled;
  }

  /** The run id the stamps carry. */
  public int runId() {
    return runId;
  }

  /** Runs every point in order, handing each to {@code done} as it completes. */
  public List<Point> runAll(Consumer<Point> done) throws IOException, InterruptedException {
    List<Point> points = new ArrayList<>();
    for (int record : config.records()) {
      for (int threads : config.threads()) {
        for (Pattern pattern : config.patterns()) {
          Point p = run(pattern, record, threads);
          points.add(p);
          done.accept(p);
        }
      }
    }
    return points;
  }

  /** Runs one point. */
  public Point run(Pattern pattern, int recordBytes, int threads)
      throws IOException, InterruptedException {
    int blocks = (int) Math.min(Integer.MAX_VALUE, sizeBytes / recordBytes);
    int[] order = new int[blocks];
    for (int i = 0; i < blocks; i++) {
      order[i] = i;
    }
    if (pattern.random) {
      SplittableRandom random = new SplittableRandom(config.seed() ^ recordBytes);
      for (int i = blocks - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
    }
    long key = 0;
    if (pattern.write && config.verify()) {
      generation++;
      key = Stamp.key(runId, generation);
    }
    final long writeKey = key;
    final int writeGeneration = generation;
    ConcurrentLinkedQueue<Stamp.Failure> failures = new ConcurrentLinkedQueue<>();
    AtomicReference<Throwable> error = new AtomicReference<>();
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch start = new CountDownLatch(1);
    long[] ends = new long[threads];
    long[] ops = new long[threads];
    long[] verified = new long[threads];
    Histogram[] latencies = new Histogram[threads];
    long durationNanos = config.duration() == null ? -1 : config.duration().toNanos();
    long[] startNanos = new long[1];
    List<Thread> workers = new ArrayList<>();
    try (FileChannel channel = BlockFile.open(config.file(), config.direct(), opener)) {
      for (int t = 0; t < threads; t++) {
        final int index = t;
        final int from = (int) ((long) blocks * t / threads);
        final int to = (int) ((long) blocks * (t + 1) / threads);
        latencies[t] = new Histogram(3_600_000_000_000L, 3);
        Thread worker =
            Thread.ofPlatform()
                .name("block-sweep-" + t)
                .start(
                    () -> {
                      boolean counted = false;
                      try {
                        ByteBuffer buffer = BlockFile.aligned(recordBytes, align);
                        if (pattern.write && !config.verify()) {
                          BlockFile.random(buffer, config.seed() + index);
                        }
                        ready.countDown();
                        counted = true;
                        start.await();
                        long deadline = startNanos[0] + durationNanos;
                        long n = 0;
                        long checked = 0;
                        int passes = 0;
                        outer:
                        while (from < to) {
                          for (int i = from; i < to; i++) {
                            long offset = (long) order[i] * recordBytes;
                            buffer.clear().limit(recordBytes);
                            if (pattern.write && config.verify()) {
                              Stamp.fill(buffer, offset, writeKey);
                            }
                            // One clock read serves the deadline check and the I/O's start.
                            long t0 = System.nanoTime();
                            if (durationNanos >= 0 && t0 - deadline >= 0) {
                              break outer;
                            }
                            if (pattern.write) {
                              BlockFile.writeFully(channel, buffer, offset);
                            } else {
                              BlockFile.readFully(config.file(), channel, buffer, offset);
                            }
                            long t1 = System.nanoTime();
                            latencies[index].recordValue(Math.min(t1 - t0, 3_600_000_000_000L));
                            n++;
                            if (config.verify()) {
                              int first = (int) (offset / Stamp.UNIT_BYTES);
                              int units = recordBytes / Stamp.UNIT_BYTES;
                              if (pattern.write) {
                                java.util.Arrays.fill(
                                    generations, first, first + units, writeGeneration);
                              } else {
                                buffer.flip();
                                Stamp.Failure f =
                                    Stamp.check(
                                        buffer,
                                        offset,
                                        runId,
                                        o -> generations[(int) (o / Stamp.UNIT_BYTES)]);
                                checked++;
                                if (f != null && failures.size() < 100) {
                                  failures.add(f);
                                }
                              }
                            }
                          }
                          passes++;
                          if (durationNanos < 0 && passes >= config.passes()) {
                            break;
                          }
                        }
                        ops[index] = n;
                        verified[index] = checked;
                        ends[index] = System.nanoTime();
                      } catch (Throwable e) {
                        error.compareAndSet(null, e);
                        ends[index] = System.nanoTime();
                        if (!counted) {
                          ready.countDown();
                        }
                      }
                    });
        workers.add(worker);
      }
      // The clock starts once every thread holds its buffer and waits: a thread still filling
      // its buffer must not be timed idle (16 threads filling 1 MiB each in a fresh JVM took
      // 100-180 ms on a 2-core machine, 5-9% of a 2 s point).
      ready.await();
      startNanos[0] = System.nanoTime();
      start.countDown();
      for (Thread w : workers) {
        w.join();
      }
    }
    Throwable e = error.get();
    if (e instanceof IOException io) {
      throw BlockFile.translate(config.file(), config.direct(), io);
    }
    if (e instanceof RuntimeException re) {
      throw re;
    }
    if (e != null) {
      throw new IOException(e);
    }
    long end = startNanos[0];
    long totalOps = 0;
    long totalVerified = 0;
    Histogram merged = new Histogram(3_600_000_000_000L, 3);
    for (int t = 0; t < threads; t++) {
      end = Math.max(end, ends[t]);
      totalOps += ops[t];
      totalVerified += verified[t];
      merged.add(latencies[t]);
    }
    double seconds = Math.max(1e-9, (end - startNanos[0]) / 1e9);
    List<Stamp.Failure> sorted = new ArrayList<>(failures);
    sorted.sort(java.util.Comparator.comparingLong(Stamp.Failure::offsetBytes));
    return new Point(
        pattern,
        recordBytes,
        threads,
        totalOps,
        totalOps * recordBytes,
        seconds,
        merged,
        config.direct(),
        totalVerified,
        List.copyOf(sorted));
  }
}
