package io.racs.proxy.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * The sealed form of a plaintext stream of known length: reads the plaintext a chunk at a time and
 * hands out each chunk sealed, so memory stays at two chunk buffers whatever the object's size.
 *
 * <p>A plaintext that ends before its declared length, or goes on past it, is an {@link
 * IOException}: the sealed stream's length was promised from the declared one, and the last chunk
 * must be sealed as the last.
 *
 * <p>Not thread-safe.
 */
public final class SealingInputStream extends InputStream {
  private final InputStream plain;
  private final long plainBytes;
  private final long chunks;
  private final ChunkSealer sealer;
  private final byte[] in = new byte[SealedLayout.CHUNK_BYTES];
  private final byte[] out = new byte[SealedLayout.SEALED_CHUNK_BYTES];
  private long nextChunk;
  private int outPosition;
  private int outLimit;

  /**
   * @param plain the plaintext, exactly {@code plainBytes} long
   * @param sealer the object's sealer for this stream
   */
  public SealingInputStream(InputStream plain, long plainBytes, ChunkSealer sealer) {
    this.plain = Objects.requireNonNull(plain, "plain");
    this.chunks = SealedLayout.chunkCount(plainBytes);
    this.plainBytes = plainBytes;
    this.sealer = Objects.requireNonNull(sealer, "sealer");
  }

  /** The number of bytes this stream yields in all. */
  public long sealedLength() {
    return SealedLayout.sealedLength(plainBytes);
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
    return true;
  }

  @Override
  public void close() throws IOException {
    plain.close();
  }
}
