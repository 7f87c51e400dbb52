package io.racs.proxy.store.stripe;

import io.racs.proxy.store.api.ChunkedBody;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.IntFunction;

/**
 * The parts of a multipart range one after another, each opened only when the one before is used up
 * (so a part that cannot be read fails when its bytes are due), readable as a stream or in chunks.
 */
public final class PartSequence extends InputStream implements ChunkedBody {
  private final IntFunction<PartReader> opener;
  private final int more;
  private PartReader current;
  private int opened;

  /**
   * @param first the first part's reader, already open
   * @param more how many parts follow
   * @param opener opens part {@code i} of those that follow (0-based)
   */
  public PartSequence(PartReader first, int more, IntFunction<PartReader> opener) {
    this.current = first;
    this.more = more;
    this.opener = opener;
  }

  /** Closes the used-up reader and opens the next part's; null after the last part. */
  private PartReader advance() {
    current.close();
    if (opened == more) {
      current = null;
      return null;
    }
    current = opener.apply(opened++);
    return current;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int got = read(one, 0, 1);
    return got < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    for (PartReader reader = current; reader != null; ) {
      int got = reader.read(b, off, len);
      if (got >= 0) {
        return got;
      }
      reader = advance();
    }
    return -1;
  }

  @Override
  public Chunk nextChunk() throws IOException {
    for (PartReader reader = current; reader != null; ) {
      Chunk chunk = reader.nextChunk();
      if (chunk != null) {
        return chunk;
      }
      reader = advance();
    }
    return null;
  }

  @Override
  public void close() {
    if (current != null) {
      current.close();
      current = null;
    }
  }
}
