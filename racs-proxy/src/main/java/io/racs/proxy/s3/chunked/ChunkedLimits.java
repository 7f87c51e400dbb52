package io.racs.proxy.s3.chunked;

/**
 * Bounds on what an aws-chunked decoder buffers, so memory per request stays small whatever a
 * client sends.
 *
 * @param maxLineBytes the longest chunk-size line or trailer line, CRLF included
 * @param maxTrailerBytes the most trailer bytes in total
 * @param maxTrailers the most trailer headers
 */
public record ChunkedLimits(int maxLineBytes, int maxTrailerBytes, int maxTrailers) {
  /** Defaults far above what real clients send: 4 KiB lines, 16 KiB of at most 32 trailers. */
  public static final ChunkedLimits DEFAULT = new ChunkedLimits(4096, 16 * 1024, 32);

  /** Checks the arguments. */
  public ChunkedLimits {
    if (maxLineBytes < 100) {
      throw new IllegalArgumentException("maxLineBytes: " + maxLineBytes + " (expected: >= 100)");
    }
    if (maxTrailerBytes < maxLineBytes) {
      throw new IllegalArgumentException(
          "maxTrailerBytes: "
              + maxTrailerBytes
              + " (expected: >= maxLineBytes "
              + maxLineBytes
              + ")");
    }
    if (maxTrailers < 1) {
      throw new IllegalArgumentException("maxTrailers: " + maxTrailers + " (expected: >= 1)");
    }
  }
}
