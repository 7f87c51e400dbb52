package io.racs.proxy.s3.chunked;

import java.nio.ByteBuffer;

/**
 * A push-style decoder of one request body.
 *
 * <p>Feed it the body as it arrives, then call {@link #finish()} once at its end. Not thread-safe:
 * one request, one thread at a time (an event loop). After any method throws, the decoder is failed
 * and every later call throws the same error.
 *
 * <p>Errors are {@link io.racs.proxy.s3.error.S3Exception}s: {@code SignatureDoesNotMatch} (a chunk
 * or trailer signature), {@code IncompleteBody} (the body ended early), {@code InvalidRequest}
 * (malformed framing, more data than declared, undeclared trailers), {@code
 * XAmzContentSHA256Mismatch} (a plain body's SHA-256).
 */
public interface BodyDecoder {
  /** Consumes every remaining byte of {@code data}, passing payload bytes to the sink. */
  void feed(ByteBuffer data);

  /** Consumes {@code length} bytes of {@code data} from {@code offset}. */
  default void feed(byte[] data, int offset, int length) {
    feed(ByteBuffer.wrap(data, offset, length));
  }

  /**
   * Declares the end of the body and verifies it was complete and valid.
   *
   * @return the decoded length and trailers
   */
  DecodedBody finish();
}
