package io.racs.proxy.s3.auth;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.QueryParams;
import io.racs.proxy.s3.http.RequestHead;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Verifies SigV4 (AWS4-HMAC-SHA256) signatures: in the {@code Authorization} header, in presigned
 * query parameters, and on browser form POST policies. Checks the credential scope (day and
 * region), the request time against the clock, and that every {@code x-amz-*} header is signed.
 *
 * <p>Thread-safe; pure apart from the clock, the credential store and the signing-key cache.
 */
final class SigV4Verifier {
  private final SecretLookup secrets;
  private final Optional<String> region;
  private final RequestTimes times;
  private final SigningKeyCache keyCache;

  SigV4Verifier(
      SecretLookup secrets, Optional<String> region, RequestTimes times, SigningKeyCache keyCache) {
    this.secrets = secrets;
    this.region = region;
    this.times = times;
    this.keyCache = keyCache;
  }

  /** Verifies a request signed in its {@code Authorization} header. */
  Authentication header(RequestHead head, QueryParams query, AuthorizationHeader auth) {
    Headers headers = head.headers();
    String amzDate = headers.get("x-amz-date");
    Instant requestTime;
    if (amzDate != null) {
      requestTime = RequestTimes.parseAmzDate(amzDate, S3ErrorCode.ACCESS_DENIED);
    } else {
      String date = headers.get("date");
      if (date == null) {
        throw S3Exception.of(
            S3ErrorCode.ACCESS_DENIED,
            "AWS authentication requires a valid Date or x-amz-date header");
      }
      requestTime = RequestTimes.parseHttpDate(date);
      amzDate = RequestTimes.AMZ_DATE.format(requestTime);
    }
    CredentialScope scope = auth.scope();
    checkScopeDate(scope, amzDate, S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
    checkRegion(scope, S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
    String secret = secrets.secretOf(auth.accessKeyId());
    times.checkSkew(requestTime);
    String contentSha = headers.get("x-amz-content-sha256");
    if (contentSha == null) {
      throw S3Exception.of(
          S3ErrorCode.MISSING_SECURITY_HEADER,
          "Missing required header for this request: x-amz-content-sha256");
    }
    ContentSha256 payload = ContentSha256.parse(contentSha.strip());
    checkSigned(headers, auth.signedHeaders(), false);

    String canonical =
        CanonicalRequest.build(
            head.method(),
            canonicalUri(head.rawPath()),
            CanonicalRequest.canonicalQuery(query, null),
            CanonicalRequest.canonicalHeaders(headers, auth.signedHeaders()),
            auth.signedHeadersString(),
            contentSha.strip());
    SigningContext context = verify(secret, scope, amzDate, canonical, auth.signature());
    return new Authentication(
        auth.accessKeyId(), AuthType.V4_HEADER, requestTime, payload, Optional.of(context));
  }

  /** Verifies a presigned SigV4 URL. */
  Authentication presigned(RequestHead head, QueryParams query) {
    String algorithm = query.get("X-Amz-Algorithm");
    String credential = query.get("X-Amz-Credential");
    String amzDate = query.get("X-Amz-Date");
    String expires = query.get("X-Amz-Expires");
    String signedHeaders = query.get("X-Amz-SignedHeaders");
    String signature = query.get("X-Amz-Signature");
    if (algorithm == null
        || credential == null
        || amzDate == null
        || expires == null
        || signedHeaders == null
        || signature == null) {
      throw S3Exception.of(
          S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR,
          "Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential,"
              + " X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.");
    }
    if (!SigV4.ALGORITHM.equals(algorithm)) {
      throw S3Exception.of(
          S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR,
          "X-Amz-Algorithm only supports \"AWS4-HMAC-SHA256\"");
    }
    AuthorizationHeader.Credential c =
        AuthorizationHeader.Credential.parse(
            credential, S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    Instant requestTime =
        RequestTimes.parseAmzDate(amzDate, S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    long expiresSeconds;
    try {
      expiresSeconds = Long.parseLong(expires);
    } catch (NumberFormatException e) {
      throw S3Exception.of(
          S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR, "X-Amz-Expires should be a number");
    }
    if (expiresSeconds < 0) {
      throw S3Exception.of(
          S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR, "X-Amz-Expires must be non-negative");
    }
    if (expiresSeconds > S3Authenticator.MAX_PRESIGNED_EXPIRES_SECONDS) {
      throw S3Exception.of(
          S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR,
          "X-Amz-Expires must be less than a week (in seconds) that is 604800");
    }
    CredentialScope scope = c.scope();
    checkScopeDate(scope, amzDate, S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    checkRegion(scope, S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    String secret = secrets.secretOf(c.accessKeyId());
    Instant now = times.now();
    if (requestTime.isAfter(now.plus(times.maxClockSkew()))) {
      throw S3Exception.of(S3ErrorCode.ACCESS_DENIED, "Request is not valid yet");
    }
    Instant expiry = requestTime.plusSeconds(expiresSeconds);
    if (now.isAfter(expiry)) {
      throw S3Exception.of(S3ErrorCode.ACCESS_DENIED, "Request has expired")
          .withDetail("X-Amz-Expires", expires)
          .withDetail("Expires", expiry.toString())
          .withDetail("ServerTime", now.toString());
    }
    List<String> signed =
        AuthorizationHeader.parseSignedHeaders(
            signedHeaders, S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    Headers headers = head.headers();
    checkSigned(headers, signed, true);
    String payloadHash = query.first("X-Amz-Content-Sha256").orElse("UNSIGNED-PAYLOAD");
    ContentSha256 payload = ContentSha256.parse(payloadHash);
    if (payload.mode().chunked()) {
      throw S3Exception.of(
          S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR,
          "Presigned requests cannot use aws-chunked payloads.");
    }
    String canonical =
        CanonicalRequest.build(
            head.method(),
            canonicalUri(head.rawPath()),
            CanonicalRequest.canonicalQuery(query, "X-Amz-Signature"),
            CanonicalRequest.canonicalHeaders(headers, signed),
            String.join(";", signed),
            payloadHash);
    SigningContext context = verify(secret, scope, amzDate, canonical, signature);
    return new Authentication(
        c.accessKeyId(), AuthType.V4_PRESIGNED, requestTime, payload, Optional.of(context));
  }

  /**
   * Checks that {@code signature} signs {@code canonical} under the scope's signing key.
   *
   * @return what the aws-chunked decoder needs to check the chunk signatures that follow
   * @throws S3Exception {@code SignatureDoesNotMatch} otherwise
   */
  private SigningContext verify(
      String secret, CredentialScope scope, String amzDate, String canonical, String signature) {
    byte[] key = keyCache.signingKey(secret, scope.date(), scope.region(), scope.service());
    String computed = SigV4.sign(key, CanonicalRequest.stringToSign(amzDate, scope, canonical));
    if (!SigV4.signaturesEqual(computed, signature)) {
      throw S3Exception.of(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    }
    return new SigningContext(key, amzDate, scope, computed);
  }

  private static String canonicalUri(String rawPath) {
    try {
      return CanonicalRequest.canonicalUri(rawPath);
    } catch (IllegalArgumentException e) {
      throw S3Exception.of(S3ErrorCode.INVALID_URI, null, e);
    }
  }

  /** The credential's date must be the day of {@code amzDate}, the time the request was signed. */
  private static void checkScopeDate(CredentialScope scope, String amzDate, S3ErrorCode onError) {
    if (!amzDate.startsWith(scope.date())) {
      throw S3Exception.of(
          onError,
          "Invalid credential date \""
              + scope.date()
              + "\". This date is not the same as"
              + " X-Amz-Date: \""
              + amzDate.substring(0, 8)
              + "\".");
    }
  }

  private void checkRegion(CredentialScope scope, S3ErrorCode onError) {
    if (region.isPresent() && !region.get().equals(scope.region())) {
      throw S3Exception.of(
              onError,
              "The authorization header is malformed; the region '"
                  + scope.region()
                  + "' is wrong; expecting '"
                  + region.get()
                  + "'")
          .withDetail("Region", region.get());
    }
  }

  /**
   * S3 refuses {@code x-amz-*} headers that are present but not signed: otherwise anyone holding a
   * presigned PUT could add {@code x-amz-copy-source} and turn it into a copy.
   */
  private static void checkSigned(Headers headers, List<String> signed, boolean presigned) {
    if (!signed.contains("host")) {
      throw S3Exception.of(
          presigned
              ? S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR
              : S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED,
          "SignedHeaders must include host.");
    }
    List<String> unsigned = new ArrayList<>();
    for (String name : headers.asMap().keySet()) {
      if (name.startsWith("x-amz-") && !signed.contains(name)) {
        unsigned.add(name);
      }
    }
    if (!unsigned.isEmpty()) {
      throw S3Exception.of(
              S3ErrorCode.ACCESS_DENIED,
              "There were headers present in the request which were not signed")
          .withDetail("HeadersNotSigned", String.join(", ", unsigned));
    }
  }

  /** Checks a form POST's policy signature: {@link S3Authenticator#verifyPostPolicy}. */
  String postPolicy(
      String algorithm, String credential, String amzDate, String policy, String signature) {
    if (!SigV4.ALGORITHM.equals(algorithm)) {
      throw S3Exception.of(
              S3ErrorCode.INVALID_ARGUMENT, "Only AWS4-HMAC-SHA256 is supported for POST policies.")
          .withDetail("ArgumentName", "x-amz-algorithm")
          .withDetail("ArgumentValue", algorithm);
    }
    AuthorizationHeader.Credential c =
        AuthorizationHeader.Credential.parse(credential, S3ErrorCode.INVALID_ARGUMENT);
    RequestTimes.parseAmzDate(amzDate, S3ErrorCode.INVALID_ARGUMENT);
    CredentialScope scope = c.scope();
    checkScopeDate(scope, amzDate, S3ErrorCode.INVALID_ARGUMENT);
    checkRegion(scope, S3ErrorCode.INVALID_ARGUMENT);
    String secret = secrets.secretOf(c.accessKeyId());
    byte[] key = keyCache.signingKey(secret, scope.date(), scope.region(), scope.service());
    if (!SigV4.signaturesEqual(SigV4.sign(key, policy), signature)) {
      throw S3Exception.of(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    }
    return c.accessKeyId();
  }
}
