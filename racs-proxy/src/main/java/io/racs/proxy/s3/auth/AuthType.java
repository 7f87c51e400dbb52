package io.racs.proxy.s3.auth;

/** How a request proved who sent it. */
public enum AuthType {
  /** SigV4 in the {@code Authorization} header. */
  V4_HEADER,
  /** SigV4 in {@code X-Amz-*} query parameters (a presigned URL). */
  V4_PRESIGNED,
  /** SigV2 in the {@code Authorization: AWS key:signature} header. */
  V2_HEADER,
  /** SigV2 in {@code AWSAccessKeyId}, {@code Expires}, {@code Signature} query parameters. */
  V2_PRESIGNED
}
