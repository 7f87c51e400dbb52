package io.racs.bench.block;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Shared plumbing of the block workloads: opening one file for positional reads and writes (with
 * O_DIRECT translated into a clear refusal where the filesystem rejects it), buffers aligned for
 * O_DIRECT, preallocation with incompressible seeded (or stamped) data, and the page-cache check
 * for buffered runs.
 */
public final class BlockFile {
  private BlockFile() {}

  /** Opens {@code file} for reading and writing, creating it; O_DIRECT when {@code direct}. */
  static FileChannel open(Path file, boolean direct, DdRun.Opener opener) throws IOException {
    List<OpenOption> options = new ArrayList<>();
    options.add(StandardOpenOption.CREATE);
    options.add(StandardOpenOption.READ);
    options.add(StandardOpenOption.WRITE);
    if (direct) {
      options.add(DdRun.DIRECT);
    }
    try {
      return opener.open(file, options.toArray(OpenOption[]::new));
    } catch (IOException e) {
      throw translate(file, direct, e);
    }
  }

  /** A refusal of O_DIRECT as {@link DdRun.DirectIoRefusedException}; other errors unchanged. */
  static IOException translate(Path file, boolean direct, IOException e) {
    if (direct
        && !(e instanceof DdRun.DirectIoRefusedException)
        && e.getMessage() != null
        && e.getMessage().contains("Invalid argument")) {
      return new DdRun.DirectIoRefusedException(file, e);
    }
    return e;
  }

  /** A direct buffer of {@code bytes} whose address is a multiple of {@code align}. */
  static ByteBuffer aligned(int bytes, int align) {
    ByteBuffer b = ByteBuffer.allocateDirect(bytes + align).alignedSlice(align);
    b.limit(bytes);
    return b;
  }

  /** Fills {@code buffer} (position to limit) with seeded incompressible bytes. */
  static void random(ByteBuffer buffer, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    ByteBuffer b = buffer.duplicate();
    while (b.remaining() >= 8) {
      b.putLong(random.nextLong());
    }
    while (b.hasRemaining()) {
      b.put((byte) random.nextInt());
    }
  }

  /** Positional write of the whole buffer at {@code position}. */
  static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
    int start = buffer.position();
    while (buffer.hasRemaining()) {
      channel.write(buffer, position + buffer.position() - start);
    }
  }

  /** Positional read of the whole buffer from {@code position}; a short file is an error. */
  static void readFully(Path file, FileChannel channel, ByteBuffer buffer, long position)
      throws IOException {
    int start = buffer.position();
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position() - start) < 0) {
        throw new IOException(file + ": ends before " + (position + buffer.position() - start));
      }
    }
  }

  /**
   * Writes {@code sizeBytes} of data into {@code channel} from offset 0, in 1 MiB chunks (or {@code
   * chunkBytes}, which the size must be a multiple of): stamped under {@code key} when {@code
   * stampKey} is not null, else seeded incompressible bytes. Forces the data to the device before
   * returning, so reads that follow find it there.
   */
  static void fill(
      FileChannel channel, long sizeBytes, int chunkBytes, int align, long seed, Long stampKey)
      throws IOException {
    ByteBuffer buffer = aligned(chunkBytes, align);
    for (long offset = 0; offset < sizeBytes; offset += chunkBytes) {
      buffer.clear().limit(chunkBytes);
      if (stampKey != null) {
        Stamp.fill(buffer, offset, stampKey);
      } else {
        random(buffer, seed ^ offset);
      }
      writeFully(channel, buffer, offset);
    }
    channel.force(true);
  }

  /** Physical memory in bytes, or -1 when the JVM cannot tell. */
  public static long physicalMemoryBytes() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getTotalMemorySize();
    }
    return -1;
  }

  /** The note a buffered run on a file smaller than RAM must carry, or null. */
  public static String pageCacheWarning(long fileBytes, boolean direct) {
    long ram = physicalMemoryBytes();
    if (direct || ram < 0 || fileBytes >= ram) {
      return null;
    }
    return "buffered I/O on a "
        + fileBytes
        + "-byte file, smaller than RAM ("
        + ram
        + " bytes): reads may come from the page cache, not the device";
  }
}
