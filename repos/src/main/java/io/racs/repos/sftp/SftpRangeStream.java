package io.racs.repos.sftp;

import io.racs.repos.Keys;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClient.CloseableHandle;
import org.apache.sshd.sftp.client.impl.AbstractSftpClient;
import org.apache.sshd.sftp.client.impl.SftpInputStreamAsync;

/**
 * Reads {@code [from, to)} of a file opened on the server, through pipelined read requests; the
 * body of an {@link SftpRepository} GET. The open handle keeps reading the file it opened even if
 * the key is overwritten or deleted meanwhile (on a POSIX server). Read failures come out as {@link
 * RepositoryException}s.
 *
 * <p>Each read runs through {@link SftpCalls}, on a thread nobody interrupts, into a buffer of its
 * own: a reader interrupted midway fails at once with {@code TIMEOUT}, and the stream is then
 * broken (later reads fail, closing still releases the handle), while the requests in flight
 * complete unseen.
 */
final class SftpRangeStream extends InputStream {
  private static final int MAX_CHUNK_BYTES = 4 * SftpWriter.IO_BUFFER_BYTES;

  private final String name;
  private final String key;
  private final SftpCalls calls;
  private final SftpInputStreamAsync in;

  /** Held by whichever request thread uses {@code in}: an abandoned read and the close. */
  private final ReentrantLock inLock = new ReentrantLock();

  private long remaining;
  private boolean broken;
  private boolean closed;

  SftpRangeStream(
      String name,
      String key,
      SftpCalls calls,
      SftpClient channel,
      String path,
      CloseableHandle handle,
      long from,
      long to) {
    this.name = name;
    this.key = key;
    this.calls = calls;
    this.in =
        new SftpInputStreamAsync(
            (AbstractSftpClient) channel, SftpWriter.IO_BUFFER_BYTES, from, to, path, handle, true);
    this.remaining = to - from;
  }

  @Override
  public int read() {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (closed || broken) {
      throw new RepositoryException(
          Kind.UNEXPECTED,
          name
              + ": get "
              + Keys.abbreviate(key)
              + ": "
              + (closed ? "stream closed" : "an earlier read failed or was interrupted"));
    }
    if (remaining == 0) {
      return -1;
    }
    int want = (int) Math.min(Math.min(len, remaining), MAX_CHUNK_BYTES);
    byte[] chunk;
    try {
      chunk = calls.call("get", key, callerLeft -> readChunk(want));
    } catch (RuntimeException e) {
      broken = true;
      throw e;
    }
    if (chunk.length == 0) {
      broken = true;
      // Objects are never rewritten in place: only someone outside the repository truncated it.
      throw new RepositoryException(
          Kind.CORRUPT, name + ": get " + Keys.abbreviate(key) + ": file shrank while being read");
    }
    System.arraycopy(chunk, 0, b, off, chunk.length);
    remaining -= chunk.length;
    return chunk.length;
  }

  /** Up to {@code want} bytes, none at the end of the file; on a request thread. */
  private byte[] readChunk(int want) {
    inLock.lock();
    try {
      byte[] chunk = new byte[want];
      int n = in.read(chunk, 0, want);
      return n < 0 ? new byte[0] : n == want ? chunk : Arrays.copyOf(chunk, n);
    } catch (IOException e) {
      throw SftpErrors.translate(name, e, "get", key);
    } finally {
      inLock.unlock();
    }
  }

  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, remaining);
  }

  /** Releases the handle: waits for that unless interrupted, when it happens on its own. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      calls.call(
          "get",
          key,
          callerLeft -> {
            inLock.lock();
            try {
              in.close();
            } catch (IOException e) {
              // A read handle whose connection failed has nothing left to release or lose.
            } finally {
              inLock.unlock();
            }
            return Boolean.TRUE;
          });
    } catch (RepositoryException e) {
      // Interrupted: the handle is released on its own thread all the same.
    }
  }
}
