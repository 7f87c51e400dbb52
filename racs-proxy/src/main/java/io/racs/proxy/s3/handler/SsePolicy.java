package io.racs.proxy.s3.handler;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.sse.SseRequest;

/**
 * The proxy's server-side encryption policy, as the handlers apply it to what each request asks
 * ({@link SseRequest}): whether SSE-C keys may come over plain HTTP (S3 refuses them; an operator
 * may allow it on loopback), and whether writes that ask for no encryption get SSE-S3 anyway (a
 * global default). And the response headers that say how an object is encrypted, as S3 sends them.
 * Immutable.
 *
 * @param customerKeysOverHttp whether SSE-C keys are accepted on a plain HTTP connection
 * @param encryptByDefault whether a write that asks for no encryption is sealed with SSE-S3
 * @param masterKey whether the proxy holds a master key, without which SSE-S3 (and a bucket default
 *     of it) is refused
 */
public record SsePolicy(boolean customerKeysOverHttp, boolean encryptByDefault, boolean masterKey) {
  /** S3's settings: SSE-C over TLS only, and nothing encrypted unless asked. */
  public static final SsePolicy DEFAULT = new SsePolicy(false, false, false);

  /** The encryption headers of a request, as an operation allowed to carry them. */
  SseRequest parse(S3Request request, SseRequest.Allowed allowed) {
    return SseRequest.parse(request.headers(), allowed, request.secure(), customerKeysOverHttp);
  }

  /** {@link #parse}, with the default applied to a write that asks for no encryption. */
  SseRequest forWrite(S3Request request, SseRequest.Allowed allowed) {
    return forWrite(request, allowed, null);
  }

  /**
   * {@link #parse}, with the proxy's default, or else the bucket's ({@code buckets}, null for
   * none), applied to a write that asks for no encryption.
   */
  SseRequest forWrite(
      S3Request request, SseRequest.Allowed allowed, BucketEncryptionHandler buckets) {
    return withDefault(request, parse(request, allowed), buckets);
  }

  /**
   * {@link #forWrite} for a browser form, whose encryption comes in form fields ({@code fields},
   * named as the headers) rather than headers.
   */
  SseRequest forWrite(S3Request request, Headers fields, BucketEncryptionHandler buckets) {
    SseRequest sse =
        SseRequest.parse(fields, SseRequest.Allowed.WRITE, request.secure(), customerKeysOverHttp);
    return withDefault(request, sse, buckets);
  }

  private SseRequest withDefault(
      S3Request request, SseRequest sse, BucketEncryptionHandler buckets) {
    if (!sse.serverSide()
        && sse.customerKey() == null
        && (encryptByDefault || (buckets != null && buckets.sseS3ByDefault(request.bucket())))) {
      return new SseRequest(true, null, sse.copySourceKey());
    }
    return sse;
  }

  /**
   * Adds the headers S3 answers about an object's encryption: {@code x-amz-server-side-encryption:
   * AES256} for SSE-S3; for SSE-C the algorithm and the MD5 of the key the request gave.
   *
   * @param mode the version's encryption ({@code ObjectVersion.encryption()}), or null
   */
  static void headers(S3Response response, String mode, CustomerKey customerKey) {
    if (mode == null) {
      return;
    }
    if (mode.equals("AES256")) {
      response.header("x-amz-server-side-encryption", "AES256");
    } else if (customerKey != null) {
      response.header("x-amz-server-side-encryption-customer-algorithm", CustomerKey.ALGORITHM);
      response.header("x-amz-server-side-encryption-customer-key-MD5", customerKey.keyMd5());
    }
  }
}
