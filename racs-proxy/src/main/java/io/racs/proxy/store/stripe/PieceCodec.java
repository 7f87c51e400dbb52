package io.racs.proxy.store.stripe;

import io.racs.proxy.store.format.Layout;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The framing of a shard piece on a repository ({@link Layout}): the piece's bytes followed by
 * their CRC32C, {@link Layout#CRC_BYTES} bytes, big-endian. A shard object (and an inline record's
 * shard) is a sequence of such framed pieces; this is the one place that writes and checks them.
 *
 * <p>The methods take the caller's {@link CRC32C} so that a loop over many pieces reuses one; each
 * resets it before use.
 */
public final class PieceCodec {
  private PieceCodec() {}

  /** What reading one framed piece found. */
  public enum Check {
    /** The piece is whole and its CRC32C matches. */
    INTACT,
    /** The stream ended before the piece and its trailer. */
    SHORT,
    /** The piece is whole but its CRC32C does not match (bitrot). */
    CORRUPT
  }

  /** How many bytes a piece of {@code length} bytes takes framed. */
  public static int framedLength(int length) {
    return length + Layout.CRC_BYTES;
  }

  /**
   * Frames the piece {@code framed[0, length)} in place: writes its CRC32C into the next {@link
   * Layout#CRC_BYTES} bytes, which the array must have room for.
   */
  public static void seal(byte[] framed, int length, CRC32C crc) {
    crc.reset();
    crc.update(framed, 0, length);
    writeInt(framed, length, (int) crc.getValue());
  }

  /** A copy of {@code piece}'s first {@code length} bytes followed by their CRC32C. */
  public static byte[] framed(byte[] piece, int length, CRC32C crc) {
    byte[] out = Arrays.copyOf(piece, framedLength(length));
    seal(out, length, crc);
    return out;
  }

  /**
   * Whether the framed piece at {@code offset} in {@code b}, of {@code length} bytes before its
   * trailer, matches its CRC32C. The caller has checked that the array holds the whole frame.
   */
  public static boolean intact(byte[] b, int offset, int length, CRC32C crc) {
    crc.reset();
    crc.update(b, offset, length);
    return (int) crc.getValue() == readInt(b, offset + length);
  }

  /**
   * Reads the next framed piece of {@code length} bytes from {@code in} into {@code into} (the
   * piece, then its trailer, from index 0) and checks it.
   */
  public static Check read(InputStream in, byte[] into, int length, CRC32C crc) throws IOException {
    int framed = framedLength(length);
    if (in.readNBytes(into, 0, framed) < framed) {
      return Check.SHORT;
    }
    return intact(into, 0, length, crc) ? Check.INTACT : Check.CORRUPT;
  }

  private static int readInt(byte[] b, int at) {
    return ((b[at] & 0xFF) << 24)
        | ((b[at + 1] & 0xFF) << 16)
        | ((b[at + 2] & 0xFF) << 8)
        | (b[at + 3] & 0xFF);
  }

  private static void writeInt(byte[] b, int at, int value) {
    b[at] = (byte) (value >>> 24);
    b[at + 1] = (byte) (value >>> 16);
    b[at + 2] = (byte) (value >>> 8);
    b[at + 3] = (byte) value;
  }
}
