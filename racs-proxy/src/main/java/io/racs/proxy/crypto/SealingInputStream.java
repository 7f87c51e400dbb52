package io.racs.proxy.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * The sealed form of a plaintext stream: reads the plaintext a chunk at a time and hands out each
 * chunk sealed, so memory stays at two chunk buffers whatever the object's size.
 *
 * <p>With a declared length, a plaintext that ends before it, or goes on past it, is an {@link
 * IOException}: the sealed stream's length was promised from the declared one, and the last chunk
 * must be sealed as the last. Without one (a browser form's file), each full chunk is sealed once
 * one more byte has been read past it, so that the last chunk is known to be the last.
 *
 * <p>Not thread-safe.
 */
public final class SealingInputStream extends InputStream {
  private static final int NONE = -1;

  private final InputStream plain;
  private final long plainBytes;
  private final long chunks;
  private int carried = NONE; // the byte read past a full chunk, when the length is unknown
  private boolean ended;
  private long plainRead;
  private final ChunkSealer sealer;
  private final byte[] in = new byte[SealedLayout.CHUNK_BYTES];
  private final byte[] out = new byte[SealedLayout.SEALED_CHUNK_BYTES];
  private long nextChunk;
  private int outPosition;
  private int outLimit;

  /**
   * @param plain the plaintext, exactly {@code plainBytes} long
   * @param plainBytes the plaintext's length, or -1 when it is known only at its end
   * @param sealer the object's sealer for this stream
   */
  public SealingInputStream(InputStream plain, long plainBytes, ChunkSealer sealer) {
    this.plain = Objects.requireNonNull(plain, "plain");
    this.chunks = plainBytes == -1 ? Long.MAX_VALUE : SealedLayout.chunkCount(plainBytes);
    this.plainBytes = plainBytes;
    this.sealer = Objects.requireNonNull(sealer, "sealer");
  }

  /** The number of bytes this stream yields in all; -1 while the plaintext's length is unknown. */
  public long sealedLength() {
    return plainBytes == -1 ? -1 : SealedLayout.sealedLength(plainBytes);
  }

  /** The plaintext bytes sealed so far: the plaintext's length once this stream has ended. */
  public long plainBytesRead() {
    return plainRead;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (outPosition == outLimit && !fill()) {
      return -1;
    }
    int n = Math.min(len, outLimit - outPosition);
    System.arraycopy(out, outPosition, b, off, n);
    outPosition += n;
    return n;
  }

  private boolean fill() throws IOException {
    if (plainBytes == -1) {
      return fillUnknown();
    }
    if (nextChunk == chunks) {
      return false;
    }
    long index = nextChunk;
    boolean last = index == chunks - 1;
    int want =
        (int) Math.min(SealedLayout.CHUNK_BYTES, plainBytes - index * SealedLayout.CHUNK_BYTES);
    int got = plain.readNBytes(in, 0, want);
    if (got < want) {
      throw new IOException(
          "the plaintext ended after "
              + (index * SealedLayout.CHUNK_BYTES + got)
              + " of its declared "
              + plainBytes
              + " bytes");
    }
    if (last && plain.read() >= 0) {
      throw new IOException("the plaintext is longer than its declared " + plainBytes + " bytes");
    }
    outLimit = sealer.seal(index, last, in, 0, want, out, 0);
    outPosition = 0;
    nextChunk++;
    plainRead += want;
    return true;
  }

  private boolean fillUnknown() throws IOException {
    if (ended) {
      return false;
    }
    int got = 0;
    if (carried != NONE) {
      in[got++] = (byte) carried;
      carried = NONE;
    }
    got += plain.readNBytes(in, got, SealedLayout.CHUNK_BYTES - got);
    boolean last = got < SealedLayout.CHUNK_BYTES;
    if (!last) {
      int next = plain.read();
      if (next < 0) {
        last = true;
      } else {
        carried = next;
      }
    }
    outLimit = sealer.seal(nextChunk, last, in, 0, got, out, 0);
    outPosition = 0;
    nextChunk++;
    plainRead += got;
    ended = last;
    return true;
  }

  @Override
  public void close() throws IOException {
    plain.close();
  }
}
