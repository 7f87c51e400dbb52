package io.racs.proxy.s3.bridge;

import java.io.IOException;

/**
 * An object body that can hand out its bytes as slices of arrays it will never touch again, so that
 * the connection writing them to the socket need not copy them first. Bodies of {@link
 * ObjectReader#body()} implement it where the store's do; reading the same body both ways is
 * allowed, each byte being returned once.
 */
public interface ChunkedStream {
  /** A slice of an array that now belongs to the caller. */
  record Chunk(byte[] array, int offset, int length) {}

  /** The next bytes of the body, or null at its end. */
  Chunk nextChunk() throws IOException;
}
