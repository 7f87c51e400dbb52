package io.racs.proxy.s3.checksum;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;

/**
 * The checksum an UploadPart (or UploadPartCopy) stores its part with, in an upload that may have
 * recorded an algorithm at its creation ({@link UploadChecksum}). Such an upload takes only parts
 * of its algorithm: one that announces another is refused before its body is read; one that
 * announces none gets its checksum computed here over its body, as S3 computes it, so that the
 * completion finds every part's. In an upload without one, a part keeps what it announced.
 *
 * <p>Use: {@link #wrap} the body before it is handed on, {@link #check} the upload once it is known
 * (before the body is read), then {@link #checksums} once the body was read to its end. Not
 * thread-safe: one part, on the thread that reads its body.
 */
public final class PartChecksum {
  private final Optional<ChecksumAlgorithm> announced;
  private StreamingChecksum computed; // the upload's algorithm, when the part announced none

  private PartChecksum(Optional<ChecksumAlgorithm> announced) {
    this.announced = announced;
  }

  /** For a part that announces {@code announced} (empty: none; a copy announces none). */
  public static PartChecksum announcing(Optional<ChecksumAlgorithm> announced) {
    return new PartChecksum(announced);
  }

  /**
   * Checks the part against its upload's recorded checksum, before any byte of the body is read.
   *
   * @throws io.racs.proxy.s3.error.S3Exception {@code InvalidRequest} when the part announces
   *     another algorithm than the upload's
   */
  public void check(Optional<UploadChecksum> upload) {
    if (upload.isEmpty()) {
      return;
    }
    if (announced.isPresent()) {
      upload.get().requireAlgorithm(announced.get());
    } else {
      computed = upload.get().algorithm().newChecksum();
    }
  }

  /** {@code body}, computing the upload's checksum as it is read when {@link #check} asked. */
  public InputStream wrap(InputStream body) {
    if (announced.isPresent()) {
      return body; // verified by the request's own checksum
    }
    return new FilterInputStream(body) {
      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b >= 0 && computed != null) {
          computed.update(new byte[] {(byte) b}, 0, 1);
        }
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0 && computed != null) {
          computed.update(buffer, offset, n);
        }
        return n;
      }

      @Override
      public long skip(long n) throws IOException {
        // Read, not skipped past the checksum (FilterInputStream would skip the source).
        byte[] scratch = new byte[(int) Math.min(Math.max(n, 0), 8192)];
        long skipped = 0;
        while (skipped < n) {
          int r = read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
          if (r < 0) {
            break;
          }
          skipped += r;
        }
        return skipped;
      }
    };
  }

  /**
   * The checksums to store with the part, once its body was read to its end: {@code verified} (what
   * the request announced and its body matched), or else the one computed here, or none.
   */
  public Map<String, String> checksums(Map<String, String> verified) {
    if (computed != null && verified.isEmpty()) {
      return Map.of(computed.algorithm().name(), computed.base64());
    }
    return verified;
  }
}
