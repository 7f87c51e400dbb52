package io.racs.proxy.s3.route;

/**
 * A classified request.
 *
 * @param operation what it does
 * @param bucket the bucket, or {@code null} for {@link S3Operation#LIST_BUCKETS}
 * @param key the decoded object key, or {@code null} for bucket and service operations
 * @param virtualHost whether the bucket came from the {@code Host} header
 */
public record S3Route(S3Operation operation, String bucket, String key, boolean virtualHost) {
  /** The resource for error bodies: {@code /bucket/key}, {@code /bucket} or {@code /}. */
  public String resource() {
    if (bucket == null) {
      return "/";
    }
    return key == null ? "/" + bucket : "/" + bucket + "/" + key;
  }
}
