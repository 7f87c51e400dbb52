package io.racs.proxy.crypto;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * The plaintext of a range of sealed chunks ({@link SealedLayout#span}). Every chunk is
 * authenticated whole before any of its bytes is handed out, so a reader never sees a byte that was
 * altered; a sealed stream that ends early, or a chunk that fails to open, is a {@link
 * TamperedDataException}.
 *
 * <p>Not thread-safe.
 */
public final class OpeningInputStream extends InputStream {
  private final InputStream sealed;
  private final LendingInput lending;
  private final ChunkSealer sealer;
  private final SealedLayout.Span span;
  private final long lastSealedChunkBytes;
  private final byte[] in = new byte[SealedLayout.SEALED_CHUNK_BYTES];
  private final byte[] out = new byte[SealedLayout.CHUNK_BYTES];
  private long nextChunk;
  private long remaining;
  private long skip;
  private int outPosition;
  private int outLimit;
  // Where the chunk being opened lies: lent in place by the input, or gathered into `in`.
  private byte[] chunkArray;
  private int chunkOffset;

  /**
   * @param sealed the sealed bytes of {@code span}, from {@code span.sealedOffset()}
   * @param sealer the object's sealer for this stream
   * @param span the chunks to open, as {@link SealedLayout#span} gave them
   * @param plainBytes the stream's whole plaintext length
   * @param length how many plaintext bytes to hand out, from the span's start plus its skip
   */
  public OpeningInputStream(
      InputStream sealed,
      ChunkSealer sealer,
      SealedLayout.Span span,
      long plainBytes,
      long length) {
    this.sealed = Objects.requireNonNull(sealed, "sealed");
    this.lending = sealed instanceof LendingInput l ? l : null;
    this.sealer = Objects.requireNonNull(sealer, "sealer");
    this.span = Objects.requireNonNull(span, "span");
    this.nextChunk = span.firstChunk();
    this.remaining = length;
    this.skip = span.skipBytes();
    this.lastSealedChunkBytes =
        SealedLayout.sealedLength(plainBytes)
            - (span.totalChunks() - 1) * (long) SealedLayout.SEALED_CHUNK_BYTES;
  }

  /**
   * Opens and authenticates the first chunk now rather than at the first read, so that a caller can
   * fail before it has promised anything to its own reader.
   *
   * @return this stream
   */
  public OpeningInputStream prefetch() throws IOException {
    if (nextChunk == span.firstChunk()) {
      fill();
    }
    return this;
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
    if (remaining == 0 && nextChunk > span.firstChunk()) {
      return -1;
    }
    if (outPosition == outLimit && skip == 0) {
      // Nothing buffered and the caller has room for a whole chunk of the range: open it straight
      // into the caller's array, saving a copy of every byte.
      int direct = openInto(b, off, len);
      if (direct > 0) {
        return direct;
      }
    }
    while (outPosition == outLimit) {
      if (!fill()) {
        return -1;
      }
    }
    if (remaining == 0) {
      return -1; // an empty range: its chunk was opened only to prove it
    }
    int n = (int) Math.min(Math.min(len, outLimit - outPosition), remaining);
    System.arraycopy(out, outPosition, b, off, n);
    outPosition += n;
    remaining -= n;
    return n;
  }

  /**
   * Opens the next chunk into {@code b[off]} when it lies wholly inside the range and fits in
   * {@code len}; 0 when it does not (the caller then goes through the stream's own buffer). A chunk
   * that fails authentication leaves no plaintext in the caller's array ({@link ChunkSealer#open})
   * and the read throws, so the caller is never told of a byte that was not authenticated.
   */
  private int openInto(byte[] b, int off, int len) throws IOException {
    if (nextChunk == span.firstChunk() + span.chunks() || nextChunk == span.firstChunk()) {
      return 0; // past the span, or the first chunk (which prefetch may open, and which an empty
      // range opens only to prove)
    }
    long index = nextChunk;
    boolean last = index == span.totalChunks() - 1;
    int want = (int) (last ? lastSealedChunkBytes : SealedLayout.SEALED_CHUNK_BYTES);
    int plain = want - SealedLayout.TAG_BYTES;
    if (plain > len || plain > remaining || plain == 0) {
      return 0;
    }
    takeChunk(index, want);
    int opened = sealer.open(index, last, chunkArray, chunkOffset, want, b, off);
    nextChunk++;
    remaining -= opened;
    return opened;
  }

  private boolean fill() throws IOException {
    if (remaining == 0 && nextChunk > span.firstChunk()) {
      return false;
    }
    if (nextChunk == span.firstChunk() + span.chunks()) {
      if (remaining > 0) {
        throw new IllegalStateException("the span ends before the range: " + span);
      }
      return false;
    }
    long index = nextChunk;
    boolean last = index == span.totalChunks() - 1;
    int want = (int) (last ? lastSealedChunkBytes : SealedLayout.SEALED_CHUNK_BYTES);
    takeChunk(index, want);
    int plain = sealer.open(index, last, chunkArray, chunkOffset, want, out, 0);
    nextChunk++;
    int start = (int) Math.min(skip, plain);
    skip -= start;
    outPosition = start;
    outLimit = plain;
    return true;
  }

  /**
   * Takes the next {@code want} sealed bytes, chunk {@code index}: in place when the input lends
   * them in one run, otherwise gathered into {@code in}. Sets {@link #chunkArray} and {@link
   * #chunkOffset}.
   */
  private void takeChunk(long index, int want) throws IOException {
    int got = 0;
    if (lending != null) {
      got = lending.lend(want);
      if (got == want) {
        chunkArray = lending.lentArray();
        chunkOffset = lending.lentOffset();
        return;
      }
      if (got > 0) {
        System.arraycopy(lending.lentArray(), lending.lentOffset(), in, 0, got);
      }
    }
    got += sealed.readNBytes(in, got, want - got);
    if (got < want) {
      throw new TamperedDataException(
          "sealed chunk " + index + " ends after " + got + " of its " + want + " bytes");
    }
    chunkArray = in;
    chunkOffset = 0;
  }

  @Override
  public void close() throws IOException {
    sealed.close();
  }
}
