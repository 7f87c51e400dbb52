package io.racs.proxy.s3.route;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.PercentCodec;

/**
 * What {@code x-amz-copy-source} names: bucket and key, percent-decoded, and the version ({@code
 * null} when it names none). Read here once for the copy handlers and the policy decision (a copy
 * reads its source), so both judge the same object.
 *
 * @param bucket the source bucket
 * @param key the source key
 * @param versionId the source version, or null
 */
public record CopySourceName(String bucket, String key, String versionId) {
  /**
   * Parses the header of {@code headers}.
   *
   * @throws S3Exception {@code InvalidArgument} when it is missing or names no bucket and key
   */
  public static CopySourceName of(Headers headers) {
    String raw =
        headers
            .first("x-amz-copy-source")
            .orElseThrow(
                () -> S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Missing x-amz-copy-source"));
    String version = null;
    int query = raw.indexOf('?');
    if (query >= 0) {
      String rest = raw.substring(query + 1);
      if (rest.startsWith("versionId=")) {
        version = rest.substring("versionId=".length());
      }
      raw = raw.substring(0, query);
    }
    String decoded = PercentCodec.decode(raw, false);
    if (decoded.startsWith("/")) {
      decoded = decoded.substring(1);
    }
    int slash = decoded.indexOf('/');
    if (slash <= 0 || slash == decoded.length() - 1) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT, "Copy Source must mention the source bucket and key");
    }
    return new CopySourceName(decoded.substring(0, slash), decoded.substring(slash + 1), version);
  }
}
