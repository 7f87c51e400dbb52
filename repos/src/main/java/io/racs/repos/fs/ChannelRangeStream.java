package io.racs.repos.fs;

import io.racs.repos.Keys;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * Reads {@code [position, end)} of an open file with positional reads; the body of an {@link
 * FsRepository} GET. The open file stays the same object even if it is replaced or deleted
 * meanwhile.
 */
final class ChannelRangeStream extends InputStream {
  private final FsRoot root;
  private final String name;
  private final FileChannel channel;
  private final long end;
  private final String key;
  private long position;

  ChannelRangeStream(
      FsRoot root, String name, FileChannel channel, long position, long end, String key) {
    this.root = root;
    this.name = name;
    this.channel = channel;
    this.position = position;
    this.end = end;
    this.key = key;
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
    if (position >= end) {
      return -1;
    }
    int want = (int) Math.min(len, end - position);
    try {
      int n = channel.read(ByteBuffer.wrap(b, off, want), position);
      if (n < 0) {
        // The file is shorter than when we opened it: it cannot be, since files are never
        // rewritten in place, unless someone outside this repository truncated it.
        throw new RepositoryException(
            Kind.CORRUPT,
            name + ": get " + Keys.abbreviate(key) + ": file shrank while being read");
      }
      position += n;
      return n;
    } catch (IOException e) {
      throw root.translate(e, "get", key);
    }
  }

  @Override
  public long skip(long n) {
    long skipped = Math.max(0, Math.min(n, end - position));
    position += skipped;
    return skipped;
  }

  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, end - position);
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
