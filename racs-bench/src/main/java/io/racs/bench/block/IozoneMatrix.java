package io.racs.bench.block;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The IOzone {@code -a} style matrix: every file size × record size (record ≤ file) × test, in KB/s
 * (1024 bytes per second, as IOzone). One file per file size, written by {@code write} and reused
 * by the tests after it, in IOzone's order. Positional tests use one {@link FileChannel} (O_DIRECT
 * with {@code direct}); {@code fwrite} and {@code fread} are the buffered stream tests ({@link
 * BufferedOutputStream}/{@link BufferedInputStream} with a record-sized buffer, never direct). With
 * {@code fsync} the write tests include an fsync in their time (IOzone {@code -e}). Cells past
 * {@code maxCells} or the {@code budget} are skipped, never reported as zero. Not thread-safe.
 */
public final class IozoneMatrix {
  /** The tests, in IOzone's order and with its column names. */
  public enum Test {
    /** Writes a new file sequentially. */
    WRITE("write"),
    /** Writes the existing file again. */
    REWRITE("rewrite"),
    /** Reads it sequentially. */
    READ("read"),
    /** Reads it again. */
    REREAD("reread"),
    /** Reads its records in a seeded random order. */
    RANDREAD("random read"),
    /** Writes its records in a seeded random order. */
    RANDWRITE("random write"),
    /** Reads its records from the last to the first. */
    BKWDREAD("bkwd read"),
    /** Writes the same record (offset 0) as many times as the file has records. */
    RECREWRITE("record rewrite"),
    /** Reads every 17th record, wrapping around, until each record was read once. */
    STRIDEREAD("stride read"),
    /** Writes a new file through a BufferedOutputStream. */
    FWRITE("fwrite"),
    /** Reads it through a BufferedInputStream. */
    FREAD("fread");

    final String column;

    Test(String column) {
      this.column = column;
    }

    /** The command-line name, e.g. {@code randread}. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** IOzone's column heading. */
    public String column() {
      return column;
    }

    /** The test named {@code label}. */
    public static Test of(String label) {
      for (Test t : values()) {
        if (t.label().equals(label.trim())) {
          return t;
        }
      }
      throw new IllegalArgumentException(
          "--tests: "
              + label
              + " (expected: write, rewrite, read, reread, randread, randwrite,"
              + " bkwdread, recrewrite, strideread, fwrite or fread)");
    }
  }

  /**
   * What to run.
   *
   * @param file the scratch file (replaced for each file size, deleted at the end)
   * @param fileSizes file sizes in bytes
   * @param recordSizes record sizes in bytes
   * @param tests the tests (run in IOzone's order whatever the given order)
   * @param maxCells cells to run at most, 0 for no limit
   * @param budget time after which remaining cells are skipped, or null
   * @param direct O_DIRECT for the positional tests
   * @param fsync include an fsync in the write tests' time
   * @param seed seeds the data and the random order
   */
  public record Config(
      Path file,
      List<Long> fileSizes,
      List<Integer> recordSizes,
      List<Test> tests,
      int maxCells,
      Duration budget,
      boolean direct,
      boolean fsync,
      long seed) {
    /** A builder for a matrix on the scratch file {@code file}: buffered, no fsync, seed 1. */
    public static Builder builder(Path file) {
      return new Builder(file);
    }

    /** Builds a {@link Config}; every setting has the meaning of the record's component. */
    public static final class Builder {
      private final Path file;
      private List<Long> fileSizes = List.of();
      private List<Integer> recordSizes = List.of();
      private List<Test> tests = List.of(Test.values());
      private int maxCells;
      private Duration budget;
      private boolean direct;
      private boolean fsync;
      private long seed = 1;

      private Builder(Path file) {
        this.file = file;
      }

      /** The file sizes in bytes. */
      public Builder fileSizes(List<Long> fileSizes) {
        this.fileSizes = List.copyOf(fileSizes);
        return this;
      }

      /** The record sizes in bytes. */
      public Builder recordSizes(List<Integer> recordSizes) {
        this.recordSizes = List.copyOf(recordSizes);
        return this;
      }

      /** The tests. */
      public Builder tests(List<Test> tests) {
        this.tests = List.copyOf(tests);
        return this;
      }

      /** Cells to run at most, 0 for no limit. */
      public Builder maxCells(int maxCells) {
        this.maxCells = maxCells;
        return this;
      }

      /** Time after which remaining cells are skipped, or null. */
      public Builder budget(Duration budget) {
        this.budget = budget;
        return this;
      }

      /** O_DIRECT for the positional tests. */
      public Builder direct(boolean direct) {
        this.direct = direct;
        return this;
      }

      /** Include an fsync in the write tests' time. */
      public Builder fsync(boolean fsync) {
        this.fsync = fsync;
        return this;
      }

      /** Seeds the data and the random order. */
      public Builder seed(long seed) {
        this.seed = seed;
        return this;
      }

      /** The configuration. */
      public Config build() {
        return new Config(
            file, fileSizes, recordSizes, tests, maxCells, budget, direct, fsync, seed);
      }
    }
  }

  /**
   * One cell.
   *
   * @param test the test
   * @param fileBytes the file size
   * @param recordBytes the record size
   * @param kilobytesPerSecond 1024-byte units per second, NaN when skipped
   * @param skipped whether the cell was not run (limit or budget)
   */
  public record Cell(
      Test test, long fileBytes, int recordBytes, double kilobytesPerSecond, boolean skipped) {}

  private final Config config;
  private final DdRun.Opener opener;

  private IozoneMatrix(Config config, DdRun.Opener opener) {
    this.config = config;
    this.opener = opener;
  }

  /** A matrix over {@code config}. */
  public static IozoneMatrix of(Config config) {
    return new IozoneMatrix(config, FileChannel::open);
  }

  /** Runs the cells, printing IOzone-like rows to {@code out} as they complete. */
  public List<Cell> run(PrintWriter out) throws IOException {
    if (config.direct()) {
      int align = DdRun.alignment(config.file());
      for (int r : config.recordSizes()) {
        if (r % align != 0) {
          throw new IllegalArgumentException(
              "--records: " + r + " (expected: multiples of " + align + " for O_DIRECT)");
        }
      }
    }
    List<Test> tests = new ArrayList<>();
    for (Test t : Test.values()) {
      if (config.tests().contains(t)) {
        tests.add(t);
      }
    }
    StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%12s %8s", "kB", "reclen"));
    for (Test t : tests) {
      head.append(String.format(Locale.ROOT, " %14s", t.column()));
    }
    out.println(head);
    List<Cell> cells = new ArrayList<>();
    long deadline =
        config.budget() == null ? Long.MAX_VALUE : System.nanoTime() + config.budget().toNanos();
    int run = 0;
    try {
      for (long fileBytes : config.fileSizes()) {
        for (int record : config.recordSizes()) {
          if (record > fileBytes) {
            continue;
          }
          long usedBytes = fileBytes / record * record;
          StringBuilder row =
              new StringBuilder(
                  String.format(Locale.ROOT, "%12d %8d", fileBytes / 1024, record / 1024));
          for (Test t : tests) {
            boolean skip =
                (config.maxCells() > 0 && run >= config.maxCells())
                    || System.nanoTime() - deadline >= 0;
            double kbps = Double.NaN;
            if (!skip) {
              double seconds = cell(t, usedBytes, record);
              kbps = usedBytes / 1024.0 / seconds;
              run++;
            }
            cells.add(new Cell(t, fileBytes, record, kbps, skip));
            row.append(
                skip
                    ? String.format(Locale.ROOT, " %14s", "skipped")
                    : String.format(Locale.ROOT, " %14.0f", kbps));
          }
          out.println(row);
          out.flush();
        }
      }
    } finally {
      Files.deleteIfExists(config.file());
    }
    return cells;
  }

  /** Runs one test on a file of {@code bytes}; returns its seconds. */
  private double cell(Test test, long bytes, int record) throws IOException {
    Path file = config.file();
    long blocks = bytes / record;
    if (test == Test.FWRITE || test == Test.FREAD) {
      byte[] chunk = new byte[record];
      new SplittableRandom(config.seed()).nextBytes(chunk);
      long start = System.nanoTime();
      if (test == Test.FWRITE) {
        try (OutputStream o =
            new BufferedOutputStream(
                Files.newOutputStream(
                    file,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING),
                record)) {
          for (long i = 0; i < blocks; i++) {
            o.write(chunk);
          }
        }
        if (config.fsync()) {
          try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
            c.force(true);
          }
        }
      } else {
        ensure(file, bytes);
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), record)) {
          long total = 0;
          while (total < bytes) {
            int n = in.read(chunk);
            if (n < 0) {
              throw new IOException(file + ": ends at " + total);
            }
            total += n;
          }
        }
      }
      return Math.max(1e-9, (System.nanoTime() - start) / 1e9);
    }
    boolean write =
        test == Test.WRITE
            || test == Test.REWRITE
            || test == Test.RANDWRITE
            || test == Test.RECREWRITE;
    if (test == Test.WRITE) {
      Files.deleteIfExists(file);
    } else {
      ensure(file, bytes);
    }
    long[] order = new long[(int) blocks];
    for (int i = 0; i < blocks; i++) {
      order[i] =
          switch (test) {
            case BKWDREAD -> blocks - 1 - i;
            case RECREWRITE -> 0;
            case STRIDEREAD -> (i * 17L) % blocks;
            default -> i;
          };
    }
    if (test == Test.RANDREAD || test == Test.RANDWRITE) {
      SplittableRandom random = new SplittableRandom(config.seed() ^ record);
      for (int i = order.length - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        long t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
    }
    // A stride of 17 visits every record once only when 17 does not divide the record count.
    if (test == Test.STRIDEREAD && blocks % 17 == 0) {
      for (int i = 0; i < blocks; i++) {
        long b = (i * 17L + i / (blocks / 17)) % blocks;
        order[i] = b;
      }
    }
    int align = DdRun.alignment(file);
    ByteBuffer buffer = BlockFile.aligned(record, align);
    BlockFile.random(buffer, config.seed() ^ bytes);
    try (FileChannel channel = BlockFile.open(file, config.direct(), opener)) {
      long start = System.nanoTime();
      for (long b : order) {
        buffer.clear().limit(record);
        if (write) {
          BlockFile.writeFully(channel, buffer, b * record);
        } else {
          BlockFile.readFully(file, channel, buffer, b * record);
        }
      }
      if (write && config.fsync()) {
        channel.force(true);
      }
      return Math.max(1e-9, (System.nanoTime() - start) / 1e9);
    } catch (IOException e) {
      throw BlockFile.translate(file, config.direct(), e);
    }
  }

  /** Makes sure the file holds {@code bytes} of data (when {@code write} was not selected). */
  private void ensure(Path file, long bytes) throws IOException {
    if (Files.exists(file) && Files.size(file) >= bytes) {
      return;
    }
    try (FileChannel channel = BlockFile.open(file, false, opener)) {
      int chunk = (int) Math.min(bytes, 1 << 20);
      BlockFile.fill(channel, bytes / chunk * chunk, chunk, 1, config.seed(), null);
      ByteBuffer tail = ByteBuffer.allocate((int) (bytes % chunk));
      BlockFile.random(tail, config.seed());
      BlockFile.writeFully(channel, tail, bytes / chunk * chunk);
    }
  }
}
