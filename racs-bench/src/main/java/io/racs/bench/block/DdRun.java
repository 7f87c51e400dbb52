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
   */
  public record Result(long bytes, double seconds, boolean direct) {
    /** Megabytes (10^6 bytes) per second. */
    public double megabytesPerSecond() {
      return bytes / seconds / 1e6;
    }
  }

  private DdRun() {}

  /** The filesystem block size of {@code path}'s store (the O_DIRECT alignment). */
  public static int alignment(Path path) throws IOException {
    Path existing = Files.exists(path) ? path : path.toAbsolutePath().getParent();
    return (int) Files.getFileStore(existing).getBlockSize();
  }

  /**
   * Runs one pass.
   *
   * @throws IllegalArgumentException when the block size is not a multiple of the alignment under
   *     O_DIRECT
   * @throws DirectIoRefusedException when the filesystem refuses O_DIRECT
   */
  public static Result run(
      Path file, Mode mode, int blockBytes, long count, boolean direct, boolean sync, boolean dsync)
      throws IOException {
    return run(file, mode, blockBytes, count, direct, sync, dsync, FileChannel::open);
  }

  /** Opens the file; a test seam to stand for a filesystem that refuses O_DIRECT. */
  interface Opener {
    FileChannel open(Path file, OpenOption... options) throws IOException;
  }

  static Result run(
      Path file,
      Mode mode,
      int blockBytes,
      long count,
      boolean direct,
      boolean sync,
      boolean dsync,
      Opener opener)
      throws IOException {
    int align = alignment(file);
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
    long start = System.nanoTime();
    try (channel) {
      for (long i = 0; i < count; i++) {
        buffer.clear().limit(blockBytes);
        long position = i * blockBytes;
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
    return new Result(bytes, (System.nanoTime() - start) / 1e9, direct);
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
