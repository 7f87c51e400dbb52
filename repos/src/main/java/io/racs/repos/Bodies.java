package io.racs.repos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

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

  /**
   * Carries a failure of the backend's sink (or the body's excess) through the body's {@code
   * transferTo}, so that it is not taken for a failure of the body.
   */
  private static final class SinkFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SinkFailure(Throwable cause) {
      super(cause.getMessage(), cause, false, false);
    }

    IOException rethrow() {
      Throwable cause = getCause();
      if (cause instanceof IOException e) {
        return e;
      }
      if (cause instanceof RuntimeException e) {
        throw e;
      }
      throw (Error) cause;
    }
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

    /**
     * Hands the body to {@code out} as the body's own {@code transferTo} writes it (a body that
     * holds its bytes in arrays passes them on without a copy into a buffer of ours), with the same
     * checks as {@link #read}. A failure of {@code out} is the backend's own and comes out as
     * {@code out} threw it; every problem with the body is a {@link RepositoryException}.
     */
    @Override
    public long transferTo(OutputStream out) throws IOException {
      if (ended) {
        return 0;
      }
      long before = readBytes;
      Limit limit = new Limit(out);
      try {
        body.transferTo(limit);
      } catch (IOException | RuntimeException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
          if (t instanceof SinkFailure sink) { // possibly wrapped by the body on its way out
            throw sink.rethrow();
          }
        }
        throw failure("the body failed after " + readBytes + " bytes", e);
      }
      ended = true;
      if (lengthBytes >= 0 && readBytes != lengthBytes) {
        throw failure(
            "the body ended after " + readBytes + " bytes (expected: " + lengthBytes + ")", null);
      }
      return readBytes - before;
    }

    /**
     * Counts what the body writes, refuses more than its length, and marks {@code out}'s own
     * failures.
     */
    private final class Limit extends OutputStream {
      private final OutputStream out;

      Limit(OutputStream out) {
        this.out = out;
      }

      @Override
      public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        if (lengthBytes >= 0 && len > lengthBytes - readBytes) {
          throw new SinkFailure(
              failure(
                  "the body is longer than lengthBytes (expected: " + lengthBytes + " bytes)",
                  null));
        }
        try {
          out.write(b, off, len);
        } catch (IOException | RuntimeException | Error e) {
          throw new SinkFailure(e);
        }
        readBytes += len;
      }
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
