package io.racs.repos;

import java.io.IOException;
import java.io.InputStream;

/** Helpers for backends that consume {@link Repository#put} bodies. */
public final class Bodies {
  private Bodies() {}

  /**
   * Wraps a put body so that it yields exactly {@code lengthBytes} bytes (or, when that is {@code
   * -1}, everything up to the end) and turns every problem with the body — an exception from it, a
   * short body, a long body — into a {@link RepositoryException} of kind {@code UNEXPECTED}. A
   * backend then knows that an {@link IOException} it sees comes from its own storage, never from
   * the caller's body.
   */
  public static InputStream checked(
      InputStream body, long lengthBytes, String repository, String key) {
    return new CheckedBody(body, lengthBytes, repository, key);
  }

  /**
   * Reads into {@code buffer[offset, offset + length)} until it is full or the stream ends.
   *
   * @return the number of bytes read, less than {@code length} only at the end of the stream
   */
  public static int readFully(InputStream in, byte[] buffer, int offset, int length)
      throws IOException {
    int total = 0;
    while (total < length) {
      int n = in.read(buffer, offset + total, length - total);
      if (n < 0) {
        break;
      }
      total += n;
    }
    return total;
  }

  private static final class CheckedBody extends InputStream {
    private final InputStream body;
    private final long lengthBytes;
    private final String repository;
    private final String key;
    private long readBytes;
    private boolean ended;

    CheckedBody(InputStream body, long lengthBytes, String repository, String key) {
      if (body == null) {
        throw new IllegalArgumentException("body: null (expected: a stream)");
      }
      Keys.checkLength(lengthBytes);
      this.body = body;
      this.lengthBytes = lengthBytes;
      this.repository = repository;
      this.key = key;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (ended) {
        return -1;
      }
      int want = len;
      if (lengthBytes >= 0) {
        long left = lengthBytes - readBytes;
        if (left == 0) {
          checkNoMore();
          ended = true;
          return -1;
        }
        want = (int) Math.min(want, left);
      }
      int n;
      try {
        n = body.read(b, off, want);
      } catch (IOException | RuntimeException e) {
        throw failure("the body failed after " + readBytes + " bytes", e);
      }
      if (n < 0) {
        ended = true;
        if (lengthBytes >= 0 && readBytes != lengthBytes) {
          throw failure(
              "the body ended after " + readBytes + " bytes (expected: " + lengthBytes + ")", null);
        }
        return -1;
      }
      readBytes += n;
      return n;
    }

    private void checkNoMore() {
      int extra;
      try {
        extra = body.read();
      } catch (IOException | RuntimeException e) {
        throw failure("the body failed after " + readBytes + " bytes", e);
      }
      if (extra >= 0) {
        throw failure(
            "the body is longer than lengthBytes (expected: " + lengthBytes + " bytes)", null);
      }
    }

    private RepositoryException failure(String message, Throwable cause) {
      return new RepositoryException(
          RepositoryException.Kind.UNEXPECTED,
          repository + ": put " + Keys.abbreviate(key) + ": " + message,
          cause);
    }

    @Override
    public void close() {
      // The caller owns the body.
    }
  }
}
