package io.racs.repos.s3;

import io.racs.repos.Keys;
import io.racs.repos.RepositoryException;
import java.io.IOException;
import java.io.InputStream;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/** An {@link S3Repository} GET body: read failures translated; closing early aborts. */
final class BodyStream extends InputStream {
  private final String repository;
  private final ResponseInputStream<GetObjectResponse> in;
  private final String key;
  private boolean ended;

  BodyStream(String repository, ResponseInputStream<GetObjectResponse> in, String key) {
    this.repository = repository;
    this.in = in;
    this.key = key;
  }

  @Override
  public int read() {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    try {
      int n = in.read(b, off, len);
      if (n < 0) {
        ended = true;
      }
      return n;
    } catch (IOException e) {
      throw new RepositoryException(
          S3Errors.kindOf(e), repository + ": get " + Keys.abbreviate(key) + ": " + e, e);
    } catch (SdkException e) {
      throw S3Errors.translate(repository, e, "get", key);
    }
  }

  @Override
  public void close() throws IOException {
    if (!ended) {
      // Draining the rest of a large object just to reuse the connection costs more.
      in.abort();
    }
    in.close();
  }
}
