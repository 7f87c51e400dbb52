package io.racs.proxy.s3.chunked;

import java.nio.ByteBuffer;

/**
 * Receives the decoded payload of a request body, in order.
 *
 * <p>The buffer is valid only during the call (it may be a view of the decoder's input): copy what
 * must outlive it. Bytes reach the sink before the decoder has verified them (a chunk signature,
 * the body's SHA-256 or checksum is only known at the end of its data): the consumer must treat the
 * payload as unverified until {@link BodyDecoder#finish()} returns normally, and discard it if any
 * call throws.
 */
@FunctionalInterface
public interface PayloadSink {
  /** Takes the remaining bytes of {@code payload}. */
  void accept(ByteBuffer payload);
}
