/**
 * Request body decoding: aws-chunked framing in its three {@code x-amz-content-sha256} modes
 * (signed chunks, signed chunks with signed trailers, unsigned with trailers) and plain bodies
 * (verified against a hex SHA-256, or passed through for {@code UNSIGNED-PAYLOAD}). Every decoder
 * is push-style ({@link io.racs.proxy.s3.chunked.BodyDecoder}): the server feeds it buffers as they
 * arrive and it hands payload bytes to a {@link io.racs.proxy.s3.chunked.PayloadSink}, in memory
 * bounded by a few small limits whatever the body size. Chunk framing never reaches the sink.
 * Failures are {@link io.racs.proxy.s3.error.S3Exception}s.
 */
package io.racs.proxy.s3.chunked;
