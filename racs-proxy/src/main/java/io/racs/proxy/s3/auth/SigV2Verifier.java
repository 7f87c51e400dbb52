package io.racs.proxy.s3.auth;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.QueryParams;
import io.racs.proxy.s3.http.RequestHead;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies SigV2 (HMAC-SHA1) signatures: in the {@code Authorization: AWS key:signature} header, in
 * presigned query parameters ({@code AWSAccessKeyId}, {@code Expires}, {@code Signature}, as {@code
 * aws s3 presign} of aws-cli v1 and s3cmd emit) and on browser form POST policies.
 *
 * <p>Thread-safe; pure apart from the clock and the credential store.
 */
final class SigV2Verifier {
  /**
   * The sub-resources that are part of a SigV2 canonicalized resource (botocore {@code
   * HmacV1Auth.QSAOfInterest}).
   */
  private static final Set<String> V2_SUB_RESOURCES =
      Set.of(
          "accelerate",
          "acl",
          "cors",
          "defaultObjectAcl",
          "location",
          "logging",
          "partNumber",
          "policy",
          "requestPayment",
          "torrent",
          "versioning",
          "versionId",
          "versions",
          "website",
          "uploads",
          "uploadId",
          "response-content-type",
          "response-content-language",
          "response-expires",
          "response-cache-control",
          "response-content-disposition",
          "response-content-encoding",
          "delete",
          "lifecycle",
          "tagging",
          "restore",
          "storageClass",
          "notification",
          "replication",
          "analytics",
          "metrics",
          "inventory",
          "select",
          "select-type",
          "object-lock");

  private final SecretLookup secrets;
  private final RequestTimes times;

  SigV2Verifier(SecretLookup secrets, RequestTimes times) {
    this.secrets = secrets;
    this.times = times;
  }

  /**
   * Verifies {@code Authorization: AWS credentials}; {@code credentials} is what follows {@code AWS
   * }.
   */
  Authentication header(RequestHead head, String bucket, String credentials) {
    int colon = credentials.lastIndexOf(':');
    if (colon <= 0 || colon == credentials.length() - 1) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT,
          "AWS authorization header is invalid.  Expected AwsAccessKeyId:signature");
    }
    String accessKey = credentials.substring(0, colon);
    String signature = credentials.substring(colon + 1);
    Headers headers = head.headers();
    String amzDate = headers.get("x-amz-date");
    String date = headers.get("date");
    if (amzDate == null && date == null) {
      throw S3Exception.of(
          S3ErrorCode.ACCESS_DENIED,
          "AWS authentication requires a valid Date or x-amz-date header");
    }
    Instant requestTime = RequestTimes.parseHttpDate(amzDate != null ? amzDate : date);
    String secret = secrets.secretOf(accessKey);
    times.checkSkew(requestTime);
    if (amzDate == null) {
      checkV2(head, bucket, date, true, secret, signature);
    } else {
      // With x-amz-date, S3 documents an empty date line; botocore signs the Date header there;
      // the documentation's own DELETE example puts x-amz-date there instead. Accept all three.
      S3Exception mismatch = failureOf(() -> checkV2(head, bucket, "", true, secret, signature));
      if (mismatch != null && date != null) {
        mismatch = failureOf(() -> checkV2(head, bucket, date, true, secret, signature));
      }
      if (mismatch != null) {
        mismatch = failureOf(() -> checkV2(head, bucket, amzDate, false, secret, signature));
      }
      if (mismatch != null) {
        throw mismatch;
      }
    }
    return new Authentication(
        accessKey, AuthType.V2_HEADER, requestTime, ContentSha256.UNSIGNED, Optional.empty());
  }

  /** Verifies a presigned SigV2 URL. */
  Authentication presigned(RequestHead head, QueryParams query, String bucket) {
    String accessKey = query.get("AWSAccessKeyId");
    String expires = query.get("Expires");
    String signature = query.get("Signature");
    if (accessKey == null || expires == null || signature == null) {
      throw S3Exception.of(
          S3ErrorCode.ACCESS_DENIED,
          "Query-string authentication requires the Signature, Expires and AWSAccessKeyId"
              + " parameters");
    }
    long expiresEpochSeconds;
    try {
      expiresEpochSeconds = Long.parseLong(expires);
    } catch (NumberFormatException e) {
      throw S3Exception.of(
              S3ErrorCode.ACCESS_DENIED, "Invalid date (should be seconds since epoch)")
          .withDetail("Expires", expires);
    }
    String secret = secrets.secretOf(accessKey);
    // Any long is a valid Expires (as MinIO reads it); past Instant's range it means "never" or
    // "long ago", and Instant.ofEpochSecond would throw.
    Instant expiry =
        Instant.ofEpochSecond(
            Math.clamp(
                expiresEpochSeconds, Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()));
    Instant now = times.now();
    if (now.isAfter(expiry)) {
      throw S3Exception.of(S3ErrorCode.ACCESS_DENIED, "Request has expired")
          .withDetail("Expires", expiry.toString())
          .withDetail("ServerTime", now.toString());
    }
    // A raw '+' of the base64 signature was read as a space by the query decoder.
    checkV2(head, bucket, expires, true, secret, signature.replace(' ', '+'));
    return new Authentication(
        accessKey, AuthType.V2_PRESIGNED, expiry, ContentSha256.UNSIGNED, Optional.empty());
  }

  /** The failure of {@code check}, or null when it passes. */
  private static S3Exception failureOf(Runnable check) {
    try {
      check.run();
      return null;
    } catch (S3Exception e) {
      return e;
    }
  }

  private static void checkV2(
      RequestHead head,
      String bucket,
      String dateLine,
      boolean signsAmzDate,
      String secret,
      String signature) {
    Headers headers = head.headers();
    String stringToSign =
        head.method()
            + '\n'
            + headers.first("content-md5").orElse("")
            + '\n'
            + headers.first("content-type").orElse("")
            + '\n'
            + dateLine
            + '\n'
            + canonicalAmzHeaders(headers, signsAmzDate)
            + canonicalResource(head, bucket);
    checkHmacSha1(secret, stringToSign, signature);
  }

  /**
   * Checks that {@code signature} is the base64 HMAC-SHA1 of {@code stringToSign} under {@code
   * secret}, SigV2's signature, in constant time.
   *
   * @throws S3Exception {@code SignatureDoesNotMatch} otherwise
   */
  private static void checkHmacSha1(String secret, String stringToSign, String signature) {
    byte[] computed;
    try {
      Mac mac = Mac.getInstance("HmacSHA1");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
      computed = mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA1 is a required JDK algorithm", e);
    }
    byte[] provided;
    try {
      provided = Base64.getDecoder().decode(signature);
    } catch (IllegalArgumentException e) {
      throw S3Exception.of(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    }
    if (!MessageDigest.isEqual(computed, provided)) {
      throw S3Exception.of(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    }
  }

  private static String canonicalAmzHeaders(Headers headers, boolean withAmzDate) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, List<String>> e : headers.asMap().entrySet()) {
      if (!e.getKey().startsWith("x-amz-") || (!withAmzDate && e.getKey().equals("x-amz-date"))) {
        continue;
      }
      out.append(e.getKey()).append(':');
      List<String> values = e.getValue();
      for (int i = 0; i < values.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        out.append(values.get(i).strip());
      }
      out.append('\n');
    }
    return out.toString();
  }

  /**
   * The raw path (as botocore signs it, already encoded), prefixed with the bucket for a
   * virtual-host request, a bucket itself always as {@code /bucket/}, then the signed sub-resources
   * sorted by name, values decoded.
   */
  private static String canonicalResource(RequestHead head, String bucket) {
    StringBuilder out = new StringBuilder();
    if (bucket != null) {
      out.append('/').append(bucket);
    }
    out.append(head.rawPath());
    if (bucket == null && head.rawPath().length() > 1 && head.rawPath().indexOf('/', 1) < 0) {
      // A path-style bucket request: the resource is "/bucket/" however the client wrote it.
      out.append('/');
    }
    TreeMap<String, String> subResources = new TreeMap<>();
    for (String part : head.rawQuery().split("&")) {
      if (part.isEmpty()) {
        continue;
      }
      int eq = part.indexOf('=');
      String name = eq < 0 ? part : part.substring(0, eq);
      if (!V2_SUB_RESOURCES.contains(name)) {
        continue;
      }
      String value;
      try {
        value =
            eq < 0
                ? null
                : io.racs.proxy.s3.http.PercentCodec.decode(part.substring(eq + 1), false);
      } catch (IllegalArgumentException e) {
        throw S3Exception.of(S3ErrorCode.INVALID_URI, null, e);
      }
      subResources.putIfAbsent(name, value);
    }
    char sep = '?';
    for (Map.Entry<String, String> e : subResources.entrySet()) {
      out.append(sep).append(e.getKey());
      if (e.getValue() != null) {
        out.append('=').append(e.getValue());
      }
      sep = '&';
    }
    return out.toString();
  }

  /** Checks a form POST's policy signature: {@link S3Authenticator#verifyPostPolicyV2}. */
  String postPolicy(String accessKeyId, String policy, String signature) {
    checkHmacSha1(secrets.secretOf(accessKeyId), policy, signature);
    return accessKeyId;
  }
}
