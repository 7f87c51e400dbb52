package io.racs.bench.block;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One dd-style sequential pass: {@code count} blocks of {@code blockBytes} written to or read from
 * one file, from offset 0, timed from the first request to the last completion (including the final
 * fsync when {@code sync}). With {@code direct}, the file is opened with O_DIRECT ({@link #DIRECT})
 * and the buffer is aligned to the filesystem's block size, which the block size must be a multiple
 * of.
 */
public final class DdRun {
  /**
   * {@code com.sun.nio.file.ExtendedOpenOption.DIRECT}, looked up by name: javac warns about any
   * compile-time reference to that JDK-specific class and the build treats warnings as errors.
   */
  public static final OpenOption DIRECT = direct();

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static OpenOption direct() {
    try {
      Class<? extends Enum> type =
          (Class<? extends Enum>) Class.forName("com.sun.nio.file.ExtendedOpenOption");
      return (OpenOption) Enum.valueOf(type, "DIRECT");
    } catch (ClassNotFoundException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** What a pass does. */
  public enum Mode {
    /** Write the blocks (creating or truncating the file). */
    WRITE,
    /** Read the blocks. */
    READ
  }

  /**
   * One pass's outcome.
   *
   * @param bytes bytes moved
   * @param seconds elapsed seconds
   * @param direct whether O_DIRECT was in effect
   * @param runKey the {@link Stamp} key written, or checked against; 0 without verification
   * @param verifiedBlocks blocks read and checked against their stamps
   * @param failures the first failing unit of each bad block, in offset order (at most {@link
   *     #MAX_FAILURES} kept)
   * @param failedBlocks every bad block, also those past the kept ones
   */
  public record Result(
      long bytes,
      double seconds,
      boolean direct,
      long runKey,
      long verifiedBlocks,
      List<Stamp.Failure> failures,
      long failedBlocks) {
    /** An unverified pass. */
    public Result(long bytes, double seconds, boolean direct) {
      this(bytes, seconds, direct, 0, 0, List.of(), 0);
    }

    /** Megabytes (10^6 bytes) per second. */
    public double megabytesPerSecond() {
      return bytes / seconds / 1e6;
    }
  }

  /** Failures kept per pass; the count goes on. */
  public static final int MAX_FAILURES = 100;

  private DdRun() {}

  /** The filesystem block size of {@code path}'s store (the O_DIRECT alignment). */
  public static int alignment(Path path) throws IOException {
    Path existing = Files.exists(path) ? path : path.toAbsolutePath().getParent();
    return (int) Files.getFileStore(existing).getBlockSize();
  }

  /** A pass over {@code file} in {@code mode}: one 1 MiB block, buffered, no sync, unverified. */
  public static Builder builder(Path file, Mode mode) {
    return new Builder(file, mode);
  }

  /** Sets up and runs one pass; every flag is off until set. */
  public static final class Builder {
    private final Path file;
    private final Mode mode;
    private int blockBytes = 1 << 20;
    private long count = 1;
    private boolean direct;
    private boolean sync;
    private boolean dsync;
    private Long verifyKey;
    private Opener opener = FileChannel::open;

    private Builder(Path file, Mode mode) {
      this.file = file;
      this.mode = mode;
    }

    /** Bytes per block. */
    public Builder blockBytes(int blockBytes) {
      this.blockBytes = blockBytes;
      return this;
    }

    /** Blocks per pass. */
    public Builder count(long count) {
      this.count = count;
      return this;
    }

    /** O_DIRECT on a buffer aligned to the filesystem's block size. */
    public Builder direct(boolean direct) {
      this.direct = direct;
      return this;
    }

    /** A write ends with an fsync, inside the timed pass. */
    public Builder sync(boolean sync) {
      this.sync = sync;
      return this;
    }

    /** O_DSYNC: every write is durable before it returns. */
    public Builder dsync(boolean dsync) {
      this.dsync = dsync;
      return this;
    }

    /**
     * Verification ({@code --verify}). A write stamps every block ({@link Stamp}) with its offset
     * and {@code runKey}; a read checks every block against {@code runKey}, or, when it is 0,
     * against the key the first block carries (read once before the timed pass). Stamping and
     * checking run inside the timed loop, as the sweep's do, so a verified pass measures a little
     * less than a plain one.
     */
    public Builder verify(long runKey) {
      this.verifyKey = runKey;
      return this;
    }

    /** Opens the file; a test seam to stand for a filesystem that refuses O_DIRECT. */
    Builder opener(Opener opener) {
      this.opener = opener;
      return this;
    }

    /**
     * Runs the pass.
     *
     * @throws IllegalArgumentException when the block size is not a multiple of the alignment under
     *     O_DIRECT, or of {@link Stamp#UNIT_BYTES} with verification, or a verified read finds no
     *     stamp in the first block and is given no key
     * @throws DirectIoRefusedException when the filesystem refuses O_DIRECT
     */
    public Result run() throws IOException {
      return DdRun.run(this);
    }
  }

  /**
   * A fresh run id for verified writes ({@link Stamp#key}). Not seeded on purpose: a block left
   * over from an earlier invocation must never carry the key of this one.
   */
  public static int freshRunId() {
    return java.util.concurrent.ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
  }

  /** Opens the file; a test seam to stand for a filesystem that refuses O_DIRECT. */
  interface Opener {
    FileChannel open(Path file, OpenOption... options) throws IOException;
  }

  private static Result run(Builder b) throws IOException {
    Path file = b.file;
    Mode mode = b.mode;
    int blockBytes = b.blockBytes;
    long count = b.count;
    boolean direct = b.direct;
    boolean sync = b.sync;
    boolean dsync = b.dsync;
    Long verifyKey = b.verifyKey;
    Opener opener = b.opener;
    int align = alignment(file);
    boolean verify = verifyKey != null;
    if (verify && blockBytes % Stamp.UNIT_BYTES != 0) {
      throw new IllegalArgumentException(
          "bs: "
              + blockBytes
              + " (expected: a multiple of "
              + Stamp.UNIT_BYTES
              + " with --verify)");
    }
    if (verify && mode == Mode.WRITE && verifyKey == 0) {
      throw new IllegalArgumentException("runKey: 0 (expected: a key to stamp, not 0)");
    }
    if (direct && blockBytes % align != 0) {
      throw new IllegalArgumentException(
          "bs: "
              + blockBytes
              + " (expected: a multiple of the filesystem block size "
              + align
              + " for O_DIRECT)");
    }
    List<OpenOption> options = new ArrayList<>();
    if (mode == Mode.WRITE) {
      options.add(StandardOpenOption.CREATE);
      options.add(StandardOpenOption.WRITE);
      options.add(StandardOpenOption.TRUNCATE_EXISTING);
    } else {
      options.add(StandardOpenOption.READ);
    }
    if (dsync) {
      options.add(StandardOpenOption.DSYNC);
    }
    if (direct) {
      options.add(DIRECT);
    }
    ByteBuffer buffer = ByteBuffer.allocateDirect(blockBytes + align).alignedSlice(align);
    buffer.limit(blockBytes);
    byte[] pattern = new byte[blockBytes];
    new SplittableRandom(blockBytes).nextBytes(pattern);
    buffer.put(pattern).flip();
    FileChannel channel;
    try {
      channel = opener.open(file, options.toArray(OpenOption[]::new));
    } catch (IOException e) {
      if (direct && e.getMessage() != null && e.getMessage().contains("Invalid argument")) {
        throw new DirectIoRefusedException(file, e);
      }
      throw e;
    }
    long bytes = 0;
    long key = verify ? verifyKey : 0;
    long verified = 0;
    long failed = 0;
    List<Stamp.Failure> failures = new ArrayList<>();
    long start;
    try (channel) {
      if (verify && mode == Mode.READ && key == 0) {
        key = firstBlockKey(file, channel, align);
      }
      int runId = (int) (key >>> 32);
      int generation = (int) key;
      start = System.nanoTime();
      for (long i = 0; i < count; i++) {
        buffer.clear().limit(blockBytes);
        long position = i * blockBytes;
        if (verify && mode == Mode.WRITE) {
          Stamp.fill(buffer, position, key);
        }
        while (buffer.hasRemaining()) {
          int n =
              mode == Mode.WRITE
                  ? channel.write(buffer, position + buffer.position())
                  : channel.read(buffer, position + buffer.position());
          if (n < 0) {
            throw new IOException(
                file + ": ends at " + (position + buffer.position()) + " bytes, before block " + i);
          }
        }
        bytes += blockBytes;
        if (verify && mode == Mode.READ) {
          buffer.flip();
          Stamp.Failure f = Stamp.check(buffer, position, runId, o -> generation);
          verified++;
          if (f != null) {
            failed++;
            if (failures.size() < MAX_FAILURES) {
              failures.add(f);
            }
          }
        }
      }
      if (sync && mode == Mode.WRITE) {
        channel.force(true);
      }
    } catch (IOException e) {
      if (direct && e.getMessage() != null && e.getMessage().contains("Invalid argument")) {
        throw new DirectIoRefusedException(file, e);
      }
      throw e;
    }
    return new Result(
        bytes,
        (System.nanoTime() - start) / 1e9,
        direct,
        key,
        verified,
        List.copyOf(failures),
        failed);
  }

  /** The key the first block's first unit carries; a missing stamp is an argument error. */
  private static long firstBlockKey(Path file, FileChannel channel, int align) throws IOException {
    ByteBuffer unit = BlockFile.aligned(Math.max(Stamp.UNIT_BYTES, align), align);
    BlockFile.readFully(file, channel, unit, 0);
    unit.order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long offset = unit.getLong(0);
    long key = unit.getLong(8);
    if (offset != 0 || key == 0) {
      throw new IllegalArgumentException(
          "--verify: "
              + file
              + " holds no stamp at offset 0 (expected: a file written by dd --verify, or"
              + " --run-key as that write printed it)");
    }
    return key;
  }

  /** The filesystem does not allow O_DIRECT (tmpfs, some FUSE and network filesystems). */
  public static final class DirectIoRefusedException extends IOException {
    private static final long serialVersionUID = 1L;

    DirectIoRefusedException(Path file, IOException cause) {
      super(
          file
              + ": the filesystem refuses O_DIRECT (tmpfs?); use a directory on a disk, or"
              + " --allow-buffered to measure buffered I/O (labelled so)",
          cause);
    }
  }
}
