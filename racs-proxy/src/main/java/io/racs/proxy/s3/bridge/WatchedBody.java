package io.racs.proxy.s3.bridge;

import io.racs.proxy.s3.error.S3Exception;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request body on its way into the store, watched by the bridge. The S3 layer refuses a body (its
 * signature, checksum or size is wrong, or the client went away) by failing a read with the S3
 * error to answer as the cause of an {@link IOException} (see {@code S3Request#body}). The store
 * knows no S3 errors: it turns any body failure into its own {@code INCOMPLETE_BODY} and undoes the
 * write. So the bridge notes the refusal as it passes, and when the store call then fails, answers
 * with it; the S3 error never has to travel through the store and be dug out of its exception. A
 * body failure that carries no S3 error is left to the store's answer.
 *
 * <p>The store reads a body on the calling thread; the field is volatile all the same, as the
 * contract does not promise it.
 */
final class WatchedBody extends InputStream {
  private final InputStream body;
  private volatile S3Exception refusal;

  WatchedBody(InputStream body) {
    this.body = body;
  }

  /** The S3 error a read of the body failed with, or null while none did. */
  S3Exception refusal() {
    return refusal;
  }

  @Override
  public int read() throws IOException {
    try {
      return body.read();
    } catch (IOException | RuntimeException e) {
      note(e);
      throw e;
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    try {
      return body.read(b, off, len);
    } catch (IOException | RuntimeException e) {
      note(e);
      throw e;
    }
  }

  @Override
  public long skip(long n) throws IOException {
    try {
      return body.skip(n);
    } catch (IOException | RuntimeException e) {
      note(e);
      throw e;
    }
  }

  @Override
  public int available() throws IOException {
    return body.available();
  }

  @Override
  public void close() throws IOException {
    body.close();
  }

  private void note(Exception failure) {
    if (refusal == null) {
      refusal = StoreErrors.carried(failure);
    }
  }
}
