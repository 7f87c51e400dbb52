package io.racs.repos.gcs;

import io.racs.repos.Keys;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;

/**
 * An open read of one generation of an object: the bytes {@link GcsRepository#get} already received
 * (its first read, which sent the request), then the rest from the client's channel. Failures reach
 * the caller as {@link RepositoryException}s (see {@link io.racs.repos.Repository#get(String, long,
 * long)}). A generation that is gone by the time a read resumes means the object was overwritten or
 * deleted while the stream was open: the read is broken off as {@code UNAVAILABLE}, as the contract
 * allows, rather than mixing two bodies.
 */
final class ObjectReadStream extends InputStream {
  private final String repository;
  private final String key;
  private final ByteBuffer first;
  private final ReadableByteChannel channel;
  private final InputStream rest;

  ObjectReadStream(String repository, String key, ByteBuffer first, ReadableByteChannel channel) {
    this.repository = repository;
    this.key = key;
    this.first = first;
    this.channel = channel;
    this.rest = Channels.newInputStream(channel);
  }

  @Override
  public int read() throws IOException {
    if (first.hasRemaining()) {
      return first.get() & 0xff;
    }
    try {
      return rest.read();
    } catch (IOException | RuntimeException e) {
      throw failure(e);
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (first.hasRemaining()) {
      int n = Math.min(len, first.remaining());
      first.get(b, off, n);
      return n;
    }
    try {
      return rest.read(b, off, len);
    } catch (IOException | RuntimeException e) {
      throw failure(e);
    }
  }

  @Override
  public int available() {
    return first.remaining();
  }

  @Override
  public void close() throws IOException {
    try {
      channel.close();
    } catch (IOException | RuntimeException e) {
      throw failure(e);
    }
  }

  private RepositoryException failure(Exception e) {
    return changedOrTranslated(repository, e, "read", key);
  }

  /**
   * The failure of a read of one generation: {@code UNAVAILABLE} when that generation is gone (404)
   * or no longer current (412), since the object changed under the read; otherwise as {@link
   * GcsErrors} translates it.
   */
  static RepositoryException changedOrTranslated(
      String repository, Exception e, String operation, String key) {
    RepositoryException translated =
        GcsErrors.translate(repository, e, operation, key, Kind.NOT_FOUND);
    if (translated.kind() == Kind.NOT_FOUND || translated.kind() == Kind.PRECONDITION_FAILED) {
      return new RepositoryException(
          Kind.UNAVAILABLE,
          repository
              + ": "
              + operation
              + " "
              + Keys.abbreviate(key)
              + ": the object changed while being read",
          e);
    }
    return translated;
  }
}
