package io.racs.repos.azure;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A put body as the SDK reads it: counts the bytes read, for the stored size, and ignores {@code
 * close()}, since the caller owns the body (see {@link io.racs.repos.Repository#put}).
 */
final class CountingBody extends FilterInputStream {
  private long count;

  CountingBody(InputStream in) {
    super(in);
  }

  long count() {
    return count;
  }

  @Override
  public int read() throws IOException {
    int b = in.read();
    if (b >= 0) {
      count++;
    }
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    int n = in.read(b, off, len);
    if (n > 0) {
      count += n;
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    throw new IOException("a put body is read, not skipped");
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  @Override
  public void close() {
    // The caller's body: not ours to close.
  }
}
