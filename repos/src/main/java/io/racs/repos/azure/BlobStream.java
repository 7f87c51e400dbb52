package io.racs.repos.azure;

import io.racs.repos.Keys;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * An open read of a blob, whose failures reach the caller as {@link RepositoryException}s (see
 * {@link io.racs.repos.Repository#get(String, long, long)}). A block that fails its ETag condition
 * means the blob was overwritten or deleted while the stream was open: the read is broken off as
 * {@code UNAVAILABLE}, as the contract allows, rather than mixing two bodies.
 */
final class BlobStream extends FilterInputStream {
  private final String repository;
  private final String key;

  BlobStream(String repository, String key, InputStream in) {
    super(in);
    this.repository = repository;
    this.key = key;
  }

  @Override
  public int read() throws IOException {
    try {
      return in.read();
    } catch (IOException | RuntimeException e) {
      throw failure(e);
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      return in.read(b, off, len);
    } catch (IOException | RuntimeException e) {
      throw failure(e);
    }
  }

  @Override
  public long skip(long n) throws IOException {
    try {
      return in.skip(n);
    } catch (IOException | RuntimeException e) {
      throw failure(e);
    }
  }

  private RepositoryException failure(Exception e) {
    RepositoryException translated = AzureErrors.translate(repository, e, "read", key);
    if (translated.kind() == Kind.PRECONDITION_FAILED || translated.kind() == Kind.NOT_FOUND) {
      return new RepositoryException(
          Kind.UNAVAILABLE,
          repository + ": read " + Keys.abbreviate(key) + ": the blob changed while being read",
          e);
    }
    return translated;
  }
}
