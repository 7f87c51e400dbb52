package io.racs.repos.sftp;

import io.racs.repos.Keys;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClient.CloseableHandle;
import org.apache.sshd.sftp.client.impl.AbstractSftpClient;
import org.apache.sshd.sftp.client.impl.SftpInputStreamAsync;

/**
 * Reads {@code [from, to)} of a file opened on the server, through pipelined read requests; the
 * body of an {@link SftpRepository} GET. The open handle keeps reading the file it opened even if
 * the key is overwritten or deleted meanwhile (on a POSIX server). Read failures come out as {@link
 * RepositoryException}s.
 */
final class SftpRangeStream extends InputStream {
  private final String name;
  private final String key;
  private final SftpInputStreamAsync in;
  private long remaining;

  SftpRangeStream(
      String name,
      String key,
      SftpClient channel,
      String path,
      CloseableHandle handle,
      long from,
      long to) {
    this.name = name;
    this.key = key;
    this.in =
        new SftpInputStreamAsync(
            (AbstractSftpClient) InterruptShield.unwrap(channel),
            SftpWriter.IO_BUFFER_BYTES,
            from,
            to,
            path,
            handle,
            true);
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
    if (remaining == 0) {
      return -1;
    }
    int n;
    try {
      int asked = (int) Math.min(len, remaining);
      n = InterruptShield.call(() -> in.read(b, off, asked));
    } catch (IOException e) {
      throw SftpErrors.translate(name, e, "get", key);
    }
    if (n < 0) {
      // Objects are never rewritten in place: only someone outside the repository truncated it.
      throw new RepositoryException(
          Kind.CORRUPT, name + ": get " + Keys.abbreviate(key) + ": file shrank while being read");
    }
    remaining -= n;
    return n;
  }

  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, remaining);
  }

  @Override
  public void close() {
    try {
      InterruptShield.call(
          () -> {
            in.close();
            return null;
          });
    } catch (IOException e) {
      // A read handle whose connection failed has nothing left to release or lose.
    }
  }
}
