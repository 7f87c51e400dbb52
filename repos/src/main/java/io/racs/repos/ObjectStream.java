package io.racs.repos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;

/**
 * The body of a {@link Repository#get}: the requested bytes as a stream, plus what the repository
 * knows about the whole object. Not thread-safe; the caller closes it. Read failures surface as
 * {@link RepositoryException}.
 */
public final class ObjectStream extends InputStream {
  private final ObjectInfo info;
  private final InputStream body;

  /** Wraps {@code body}, which holds the requested range of the object {@code info} describes. */
  public ObjectStream(ObjectInfo info, InputStream body) {
    this.info = Objects.requireNonNull(info, "info");
    this.body = Objects.requireNonNull(body, "body");
  }

  /** The whole object (not the range): key, size, ETag and modification time. */
  public ObjectInfo info() {
    return info;
  }

  @Override
  public int read() throws IOException {
    return body.read();
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return body.read(b, off, len);
  }

  @Override
  public long transferTo(OutputStream out) throws IOException {
    return body.transferTo(out); // a body holding its bytes in arrays writes them without a copy
  }

  @Override
  public long skip(long n) throws IOException {
    return body.skip(n);
  }

  @Override
  public int available() throws IOException {
    return body.available();
  }

  @Override
  public void close() throws IOException {
    body.close();
  }
}
