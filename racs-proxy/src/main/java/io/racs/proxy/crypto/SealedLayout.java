package io.racs.proxy.crypto;

/**
 * How a plaintext maps onto sealed (encrypted and authenticated) chunks. The plaintext is cut into
 * chunks of {@link #CHUNK_BYTES}; each is sealed on its own with AES-256-GCM and followed by its
 * 16-byte tag, so a ranged read opens only the chunks it touches. An empty plaintext still has one
 * (empty, final) chunk, so that a sealed object cut down to nothing fails to open instead of
 * reading as empty.
 *
 * <p>Pure arithmetic; thread-safe.
 */
public final class SealedLayout {
  /** Plaintext bytes per chunk (the last chunk may be shorter). */
  public static final int CHUNK_BYTES = 64 * 1024;

  /** The GCM tag after each chunk. */
  public static final int TAG_BYTES = 16;

  /** Sealed bytes of a full chunk. */
  public static final int SEALED_CHUNK_BYTES = CHUNK_BYTES + TAG_BYTES;

  private SealedLayout() {}

  /** The number of chunks a plaintext of this length is sealed in: at least one. */
  public static long chunkCount(long plainBytes) {
    checkLength("plainBytes", plainBytes);
    return plainBytes == 0 ? 1 : (plainBytes - 1) / CHUNK_BYTES + 1;
  }

  /** The sealed length of a plaintext of this length. */
  public static long sealedLength(long plainBytes) {
    return Math.addExact(plainBytes, Math.multiplyExact(chunkCount(plainBytes), TAG_BYTES));
  }

  /**
   * The plaintext length a sealed length stands for.
   *
   * @throws IllegalArgumentException if no plaintext seals to that length
   */
  public static long plainLength(long sealedBytes) {
    checkLength("sealedBytes", sealedBytes);
    long fullChunks = sealedBytes / SEALED_CHUNK_BYTES;
    long rest = sealedBytes % SEALED_CHUNK_BYTES;
    long plain;
    if (rest == 0) {
      plain = fullChunks * CHUNK_BYTES;
    } else if (rest >= TAG_BYTES) {
      plain = fullChunks * CHUNK_BYTES + rest - TAG_BYTES;
    } else {
      plain = -1;
    }
    if (plain < 0 || sealedLength(plain) != sealedBytes) {
      throw new IllegalArgumentException(
          "sealedBytes: " + sealedBytes + " (expected: the sealed length of some plaintext)");
    }
    return plain;
  }

  /**
   * The sealed bytes to read for the plaintext range {@code [offset, offset + length)} of an object
   * whose plaintext is {@code plainBytes} long: whole chunks, from the one holding {@code offset}.
   * An empty range of an empty object still reads its one chunk, which proves it is empty.
   */
  public static Span span(long offset, long length, long plainBytes) {
    checkLength("plainBytes", plainBytes);
    if (offset < 0 || length < 0 || offset > plainBytes || length > plainBytes - offset) {
      throw new IllegalArgumentException(
          "range: ["
              + offset
              + ", +"
              + length
              + ") (expected: within a plaintext of "
              + plainBytes
              + " bytes)");
    }
    long chunks = chunkCount(plainBytes);
    long first = Math.min(offset / CHUNK_BYTES, chunks - 1);
    long last = length == 0 ? first : (offset + length - 1) / CHUNK_BYTES;
    long sealedOffset = first * SEALED_CHUNK_BYTES;
    long sealedEnd = Math.min((last + 1) * SEALED_CHUNK_BYTES, sealedLength(plainBytes));
    return new Span(
        first,
        last - first + 1,
        chunks,
        sealedOffset,
        sealedEnd - sealedOffset,
        offset - first * CHUNK_BYTES);
  }

  /**
   * Sealed chunks to read for a plaintext range.
   *
   * @param firstChunk the index of the first chunk read
   * @param chunks how many chunks are read
   * @param totalChunks the object's number of chunks (the last one is the final chunk)
   * @param sealedOffset where the first chunk starts in the sealed bytes
   * @param sealedLength how many sealed bytes to read
   * @param skipBytes plaintext bytes of the first chunk before the range starts
   */
  public record Span(
      long firstChunk,
      long chunks,
      long totalChunks,
      long sealedOffset,
      long sealedLength,
      long skipBytes) {}

  private static void checkLength(String name, long value) {
    if (value < 0) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
    }
  }
}
