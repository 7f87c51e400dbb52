package io.racs.proxy.s3.bridge;

import io.racs.proxy.store.api.ChunkedBody;
import io.racs.proxy.store.api.ObjectStore;
import java.io.IOException;
import java.io.InputStream;

/**
 * An object version opened for reading: its {@link ObjectVersion} and the requested bytes. The
 * caller owns it and must close it. A read of the body that fails (lost quorum, corruption past
 * parity) throws; the response has started by then, so the connection closes rather than answer
 * with an error.
 */
public final class ObjectReader implements AutoCloseable {
  private final ObjectStore.ObjectReader reader;
  private final ObjectVersion version;
  private final InputStream body;

  /** A reader of {@code version}, whose S3 view (its tags, above all) the caller worked out. */
  ObjectReader(ObjectStore.ObjectReader reader, ObjectVersion version) {
    this.reader = reader;
    this.version = version;
    InputStream stored = reader.body();
    this.body = stored instanceof ChunkedBody chunked ? new Chunked(stored, chunked) : stored;
  }

  /** The version read. */
  public ObjectVersion version() {
    return version;
  }

  /** Bytes the body holds. */
  public long rangeLength() {
    return reader.rangeLength();
  }

  /** The bytes; a {@link ChunkedStream} as well when the store can hand them out without a copy. */
  public InputStream body() {
    return body;
  }

  @Override
  public void close() {
    reader.close();
  }

  /** A store body that hands out its chunks, seen through the S3 layer's {@link ChunkedStream}. */
  private static final class Chunked extends InputStream implements ChunkedStream {
    private final InputStream body;
    private final ChunkedBody chunks;

    Chunked(InputStream body, ChunkedBody chunks) {
      this.body = body;
      this.chunks = chunks;
    }

    @Override
    public Chunk nextChunk() throws IOException {
      ChunkedBody.Chunk next = chunks.nextChunk();
      return next == null ? null : new Chunk(next.array(), next.offset(), next.length());
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
}
