package io.racs.proxy.s3.bridge;

/**
 * A part named in a CompleteMultipartUpload: its number and the ETag the client holds, unquoted.
 */
public record CompletedPart(int partNumber, String etag) {}
