package io.racs.proxy.store.api;

import java.io.IOException;

/**
 * A body that can hand out its bytes as slices of arrays it will never touch again, so that a
 * caller writing them on (to a socket) need not copy them first. Bodies of {@link
 * ObjectStore.ObjectReader#body()} implement it where they can; reading the same body both ways is
 * allowed, each byte being returned once.
 */
public interface ChunkedBody {
  /** A slice of an array that now belongs to the caller. */
  record Chunk(byte[] array, int offset, int length) {}

  /** The next bytes of the body, or null at its end. */
  Chunk nextChunk() throws IOException;
}
