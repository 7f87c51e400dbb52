package io.racs.proxy.cli;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.codec.Geometry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code racs codec encode|decode}: Reed-Solomon over plain files, the equivalent of Backblaze's
 * SampleEncoder and SampleDecoder and the way to recover data with no proxy running. Shard files
 * are raw: {@code shard-0 .. shard-(k+m-1)}, each {@code ceil(length / k)} bytes; data shard {@code
 * i} holds input bytes {@code [i·size, (i+1)·size)} zero-padded, then come the parity shards. Files
 * stream through in chunks, so memory stays at {@code (k+m) × 1 MiB} whatever their size; every
 * file is written to a temporary name and renamed when complete.
 */
@Command(
    name = "codec",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Encode a file into Reed-Solomon shard files, or decode them back.",
    subcommands = {CodecCommand.Encode.class, CodecCommand.Decode.class})
public final class CodecCommand implements Callable<Integer> {
  static final int CHUNK_BYTES = 1 << 20;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }

  /** Parses {@code DxP} for Picocli, with the codec's own message. */
  static final class GeometryConverter implements ITypeConverter<Geometry> {
    @Override
    public Geometry convert(String value) {
      return Geometry.parse(value);
    }
  }

  static Path shardFile(Path dir, int index) {
    return dir.resolve("shard-" + index);
  }

  static long shardSize(long length, int dataShards) {
    return (length + dataShards - 1) / dataShards;
  }

  /** {@code racs codec encode}. */
  @Command(
      name = "encode",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "Split FILE into k data and m parity shard files in DIR.")
  static final class Encode implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--geometry",
        required = true,
        converter = GeometryConverter.class,
        description = "data x parity shards, e.g. 4x2")
    Geometry geometry;

    @Option(names = "--in", required = true, paramLabel = "FILE", description = "file to encode")
    Path in;

    @Option(
        names = "--out",
        required = true,
        paramLabel = "DIR",
        description = "directory for shard-0 .. shard-(k+m-1) (created if missing)")
    Path out;

    @Override
    public Integer call() throws IOException {
      if (!Files.isRegularFile(in)) {
        throw new IllegalArgumentException("--in: " + in + " (expected: a readable file)");
      }
      ErasureCodec codec = ErasureCodec.create(geometry);
      int k = geometry.dataShards();
      int n = geometry.totalShards();
      Files.createDirectories(out);
      long length = Files.size(in);
      long shardSize = shardSize(length, k);
      int chunk = (int) Math.min(CHUNK_BYTES, Math.max(1, shardSize));
      byte[][] buffers = new byte[n][chunk];
      Path[] temps = new Path[n];
      FileChannel[] channels = new FileChannel[n];
      try (FileChannel source = FileChannel.open(in, StandardOpenOption.READ)) {
        for (int i = 0; i < n; i++) {
          temps[i] = Files.createTempFile(out, ".shard-" + i + "-", ".tmp");
          channels[i] = FileChannel.open(temps[i], StandardOpenOption.WRITE);
        }
        for (long offset = 0; offset < shardSize; offset += chunk) {
          int len = (int) Math.min(chunk, shardSize - offset);
          for (int i = 0; i < k; i++) {
            readFully(source, i * shardSize + offset, buffers[i], len, length);
          }
          codec.encodeParity(buffers, 0, len);
          for (int i = 0; i < n; i++) {
            writeFully(channels[i], offset, buffers[i], len);
          }
        }
        for (int i = 0; i < n; i++) {
          channels[i].force(true);
          channels[i].close();
          Files.move(temps[i], shardFile(out, i), StandardCopyOption.ATOMIC_MOVE);
          temps[i] = null;
        }
      } finally {
        cleanUp(channels, temps);
      }
      PrintWriter printer = spec.commandLine().getOut();
      printer.printf(
          "encoded %s (%d bytes) into %d shards of %d bytes in %s (%s, %s)%n",
          in, length, n, shardSize, out, geometry, codec.implementation());
      printer.printf(
          "decode with: racs codec decode --geometry %s --in %s --length %d --out FILE%n",
          geometry, out, length);
      return ExitCodes.OK;
    }
  }

  /** {@code racs codec decode}. */
  @Command(
      name = "decode",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Rebuild FILE from any k shard files in DIR, and rewrite the missing shard files.",
        "A shard file that is absent or has the wrong size counts as missing."
      })
  static final class Decode implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--geometry",
        required = true,
        converter = GeometryConverter.class,
        description = "data x parity shards, e.g. 4x2")
    Geometry geometry;

    @Option(names = "--in", required = true, paramLabel = "DIR", description = "shard directory")
    Path in;

    @Option(
        names = "--length",
        required = true,
        paramLabel = "N",
        description = "length in bytes of the original file")
    long length;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "file to write")
    Path out;

    @Override
    public Integer call() throws IOException {
      if (length < 0) {
        throw new IllegalArgumentException("--length: " + length + " (expected: >= 0)");
      }
      if (!Files.isDirectory(in)) {
        throw new IllegalArgumentException("--in: " + in + " (expected: a directory of shards)");
      }
      ErasureCodec codec = ErasureCodec.create(geometry);
      int k = geometry.dataShards();
      int n = geometry.totalShards();
      long shardSize = shardSize(length, k);
      PrintWriter printer = spec.commandLine().getOut();
      boolean[] present = new boolean[n];
      int usable = 0;
      for (int i = 0; i < n; i++) {
        Path file = shardFile(in, i);
        if (Files.isRegularFile(file)) {
          long size = Files.size(file);
          if (size == shardSize) {
            present[i] = true;
            usable++;
          } else {
            printer.printf(
                "%s: %d bytes (expected: %d); treated as missing%n", file, size, shardSize);
          }
        }
      }
      if (usable < k) {
        throw new IllegalStateException(
            "only "
                + usable
                + " of "
                + n
                + " shard files usable in "
                + in
                + " (expected: at least "
                + k
                + " for "
                + geometry
                + "); nothing written");
      }
      int chunk = (int) Math.min(CHUNK_BYTES, Math.max(1, shardSize));
      byte[][] buffers = new byte[n][chunk];
      FileChannel[] channels = new FileChannel[n];
      Path[] temps = new Path[n + 1];
      Path parent = out.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      int rebuilt = 0;
      try {
        for (int i = 0; i < n; i++) {
          if (present[i]) {
            channels[i] = FileChannel.open(shardFile(in, i), StandardOpenOption.READ);
          } else {
            temps[i] = Files.createTempFile(in, ".shard-" + i + "-", ".tmp");
            channels[i] = FileChannel.open(temps[i], StandardOpenOption.WRITE);
            rebuilt++;
          }
        }
        temps[n] = Files.createTempFile(parent, "." + out.getFileName() + "-", ".tmp");
        try (FileChannel target = FileChannel.open(temps[n], StandardOpenOption.WRITE)) {
          for (long offset = 0; offset < shardSize; offset += chunk) {
            int len = (int) Math.min(chunk, shardSize - offset);
            for (int i = 0; i < n; i++) {
              if (present[i]) {
                readFully(channels[i], offset, buffers[i], len, shardSize);
              }
            }
            codec.reconstruct(buffers, present, 0, len);
            for (int i = 0; i < n; i++) {
              if (!present[i]) {
                writeFully(channels[i], offset, buffers[i], len);
              }
            }
            for (int i = 0; i < k; i++) {
              long at = i * shardSize + offset;
              int keep = (int) Math.max(0, Math.min(len, length - at));
              writeFully(target, at, buffers[i], keep);
            }
          }
          target.force(true);
        }
        Files.move(
            temps[n], out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        temps[n] = null;
        for (int i = 0; i < n; i++) {
          if (!present[i]) {
            channels[i].force(true);
            channels[i].close();
            Files.move(
                temps[i],
                shardFile(in, i),
                StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
            temps[i] = null;
          }
        }
      } finally {
        cleanUp(channels, temps);
      }
      printer.printf(
          "decoded %s (%d bytes) from %d of %d shards in %s; rewrote %d missing shard files (%s, %s)%n",
          out, length, usable, n, in, rebuilt, geometry, codec.implementation());
      return ExitCodes.OK;
    }
  }

  /** Reads {@code len} bytes at {@code position}; bytes at or past {@code end} read as zero. */
  static void readFully(FileChannel channel, long position, byte[] buffer, int len, long end)
      throws IOException {
    int available = (int) Math.max(0, Math.min(len, end - position));
    ByteBuffer target = ByteBuffer.wrap(buffer, 0, available);
    while (target.hasRemaining()) {
      int read = channel.read(target, position + target.position());
      if (read < 0) {
        throw new IOException("unexpected end of file at " + (position + target.position()));
      }
    }
    Arrays.fill(buffer, available, len, (byte) 0);
  }

  static void writeFully(FileChannel channel, long position, byte[] buffer, int len)
      throws IOException {
    ByteBuffer source = ByteBuffer.wrap(buffer, 0, len);
    while (source.hasRemaining()) {
      channel.write(source, position + source.position());
    }
  }

  private static void cleanUp(FileChannel[] channels, Path[] temps) throws IOException {
    for (FileChannel channel : channels) {
      if (channel != null && channel.isOpen()) {
        channel.close();
      }
    }
    for (Path temp : temps) {
      if (temp != null) {
        Files.deleteIfExists(temp);
      }
    }
  }
}
