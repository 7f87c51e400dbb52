package io.racs.proxy.s3.auth;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.QueryParams;
import io.racs.proxy.s3.http.RequestHead;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Authenticates S3 requests: SigV4 in the {@code Authorization} header or in presigned query
 * parameters, and SigV2 likewise (as {@code aws s3 presign} of aws-cli v1 and s3cmd emit).
 *
 * <p>Thread-safe; pure apart from the clock and the credential store. Every failure is an {@link
 * S3Exception} with the code S3 uses: {@code AccessDenied} (no or expired credentials, unsigned
 * {@code x-amz-*} headers), {@code InvalidAccessKeyId}, {@code SignatureDoesNotMatch}, {@code
 * RequestTimeTooSkewed} (more than {@link Builder#maxClockSkew} between the request time and now),
 * {@code AuthorizationHeaderMalformed}, {@code AuthorizationQueryParametersError}, {@code
 * MissingSecurityHeader} (no {@code x-amz-content-sha256}), {@code InvalidArgument} (unknown
 * scheme, two schemes at once, bad {@code x-amz-content-sha256}).
 *
 * <p>The payload itself is not verified here: the returned {@link Authentication} says how ({@link
 * ContentSha256}) and carries the {@link SigningContext} the body decoder needs.
 */
public final class S3Authenticator {
  /** The longest a presigned SigV4 URL may be valid: seven days. */
  public static final long MAX_PRESIGNED_EXPIRES_SECONDS = 604_800;

  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

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

  private final CredentialStore credentials;
  private final Optional<String> region;
  private final Clock clock;
  private final Duration maxClockSkew;
  private final SigningKeyCache keyCache;

  private S3Authenticator(Builder b) {
    this.credentials = b.credentials;
    this.region = b.region;
    this.clock = b.clock;
    this.maxClockSkew = b.maxClockSkew;
    this.keyCache = b.keyCache;
  }

  /** A new builder. */
  public static Builder builder(CredentialStore credentials) {
    return new Builder(credentials);
  }

  /** Authenticates a path-style request. */
  public Authentication authenticate(RequestHead head) {
    return authenticate(head, null);
  }

  /**
   * Authenticates a request.
   *
   * @param head the request head
   * @param virtualHostBucket the bucket named by the {@code Host} header of a virtual-host style
   *     request, or {@code null} for path style (only SigV2 signs it)
   * @throws S3Exception when authentication fails
   */
  public Authentication authenticate(RequestHead head, String virtualHostBucket) {
    QueryParams query = head.query();
    String authorization = head.headers().get("authorization");
    boolean v4Query = query.contains("X-Amz-Algorithm") || query.contains("X-Amz-Signature");
    boolean v2Query = query.contains("AWSAccessKeyId") || query.contains("Signature");
    int schemes = (authorization != null ? 1 : 0) + (v4Query ? 1 : 0) + (v2Query ? 1 : 0);
    if (schemes > 1) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT,
          "Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, Signature"
              + " query string parameter or the Authorization header should be specified");
    }
    if (authorization != null) {
      String a = authorization.strip();
      if (a.startsWith(SigV4.ALGORITHM + " ")) {
        return v4Header(head, query, AuthorizationHeader.parse(a));
      }
      if (a.startsWith("AWS ")) {
        return v2Header(head, virtualHostBucket, a.substring(4).strip());
      }
      throw S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Unsupported Authorization Type")
          .withDetail("ArgumentName", "Authorization");
    }
    if (v4Query) {
      return v4Presigned(head, query);
    }
    if (v2Query) {
      return v2Presigned(head, query, virtualHostBucket);
    }
    throw S3Exception.of(S3ErrorCode.ACCESS_DENIED, "Anonymous access is not allowed.");
  }

  // ---- SigV4 ----

  private Authentication v4Header(RequestHead head, QueryParams query, AuthorizationHeader auth) {
    Headers headers = head.headers();
    String amzDate = headers.get("x-amz-date");
    Instant requestTime;
    if (amzDate != null) {
      requestTime = parseAmzDate(amzDate, S3ErrorCode.ACCESS_DENIED);
    } else {
      String date = headers.get("date");
      if (date == null) {
        throw S3Exception.of(
            S3ErrorCode.ACCESS_DENIED,
            "AWS authentication requires a valid Date or x-amz-date header");
      }
      requestTime = parseHttpDate(date);
      amzDate = AMZ_DATE.format(requestTime);
    }
    CredentialScope scope = auth.scope();
    checkScopeDate(scope, amzDate, S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
    checkRegion(scope, S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
    String secret = secretOf(auth.accessKeyId());
    checkSkew(requestTime);
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
    byte[] key = keyCache.signingKey(secret, scope.date(), scope.region(), scope.service());
    String computed = SigV4.sign(key, CanonicalRequest.stringToSign(amzDate, scope, canonical));
    if (!SigV4.signaturesEqual(computed, auth.signature())) {
      throw signatureMismatch();
    }
    return new Authentication(
        auth.accessKeyId(),
        AuthType.V4_HEADER,
        requestTime,
        payload,
        Optional.of(new SigningContext(key, amzDate, scope, computed)));
  }

  private Authentication v4Presigned(RequestHead head, QueryParams query) {
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
    Instant requestTime = parseAmzDate(amzDate, S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
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
    if (expiresSeconds > MAX_PRESIGNED_EXPIRES_SECONDS) {
      throw S3Exception.of(
          S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR,
          "X-Amz-Expires must be less than a week (in seconds) that is 604800");
    }
    CredentialScope scope = c.scope();
    checkScopeDate(scope, amzDate, S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    checkRegion(scope, S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    String secret = secretOf(c.accessKeyId());
    Instant now = clock.instant();
    if (requestTime.isAfter(now.plus(maxClockSkew))) {
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
    byte[] key = keyCache.signingKey(secret, scope.date(), scope.region(), scope.service());
    String computed = SigV4.sign(key, CanonicalRequest.stringToSign(amzDate, scope, canonical));
    if (!SigV4.signaturesEqual(computed, signature)) {
      throw signatureMismatch();
    }
    return new Authentication(
        c.accessKeyId(),
        AuthType.V4_PRESIGNED,
        requestTime,
        payload,
        Optional.of(new SigningContext(key, amzDate, scope, computed)));
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

  // ---- SigV2 ----

  private Authentication v2Header(RequestHead head, String bucket, String credentials) {
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
    Instant requestTime = parseHttpDate(amzDate != null ? amzDate : date);
    String secret = secretOf(accessKey);
    checkSkew(requestTime);
    if (amzDate == null) {
      checkV2(head, bucket, date, true, secret, signature);
    } else {
      // With x-amz-date, S3 documents an empty date line; botocore signs the Date header there;
      // the documentation's own DELETE example puts x-amz-date there instead. Accept all three.
      S3Exception mismatch;
      try {
        checkV2(head, bucket, "", true, secret, signature);
        mismatch = null;
      } catch (S3Exception e) {
        mismatch = e;
      }
      if (mismatch != null && date != null) {
        mismatch = tryV2(head, bucket, date, true, secret, signature);
      }
      if (mismatch != null) {
        mismatch = tryV2(head, bucket, amzDate, false, secret, signature);
      }
      if (mismatch != null) {
        throw mismatch;
      }
    }
    return new Authentication(
        accessKey, AuthType.V2_HEADER, requestTime, ContentSha256.UNSIGNED, Optional.empty());
  }

  private Authentication v2Presigned(RequestHead head, QueryParams query, String bucket) {
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
    String secret = secretOf(accessKey);
    // Any long is a valid Expires (as MinIO reads it); past Instant's range it means "never" or
    // "long ago", and Instant.ofEpochSecond would throw.
    Instant expiry =
        Instant.ofEpochSecond(
            Math.clamp(
                expiresEpochSeconds, Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()));
    Instant now = clock.instant();
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

  private static S3Exception tryV2(
      RequestHead head,
      String bucket,
      String dateLine,
      boolean signsAmzDate,
      String secret,
      String signature) {
    try {
      checkV2(head, bucket, dateLine, signsAmzDate, secret, signature);
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
      throw signatureMismatch();
    }
    if (!MessageDigest.isEqual(computed, provided)) {
      throw signatureMismatch();
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

  /**
   * Checks the SigV4 signature of a browser form POST (POST Object): {@code signature} must be the
   * HMAC-SHA256 of the base64 {@code policy} under the signing key of {@code credential}'s scope,
   * the same key derivation as every other SigV4 request. The policy's own expiration and
   * conditions are the caller's to check.
   *
   * @return the access key id that signed the policy
   * @throws S3Exception {@code InvalidArgument} (algorithm, credential or date unusable, a scope of
   *     another day or region), {@code InvalidAccessKeyId}, {@code SignatureDoesNotMatch}
   */
  public String verifyPostPolicy(
      String algorithm, String credential, String amzDate, String policy, String signature) {
    if (!SigV4.ALGORITHM.equals(algorithm)) {
      throw S3Exception.of(
              S3ErrorCode.INVALID_ARGUMENT, "Only AWS4-HMAC-SHA256 is supported for POST policies.")
          .withDetail("ArgumentName", "x-amz-algorithm")
          .withDetail("ArgumentValue", algorithm);
    }
    AuthorizationHeader.Credential c =
        AuthorizationHeader.Credential.parse(credential, S3ErrorCode.INVALID_ARGUMENT);
    parseAmzDate(amzDate, S3ErrorCode.INVALID_ARGUMENT);
    CredentialScope scope = c.scope();
    checkScopeDate(scope, amzDate, S3ErrorCode.INVALID_ARGUMENT);
    checkRegion(scope, S3ErrorCode.INVALID_ARGUMENT);
    String secret = secretOf(c.accessKeyId());
    byte[] key = keyCache.signingKey(secret, scope.date(), scope.region(), scope.service());
    if (!SigV4.signaturesEqual(SigV4.sign(key, policy), signature)) {
      throw signatureMismatch();
    }
    return c.accessKeyId();
  }

  /**
   * Checks the SigV2 signature of a browser form POST (POST Object), which S3 still accepts and the
   * forms of older SDKs (boto's {@code build_post_form_args}, the ceph s3-tests) send: {@code
   * signature} must be the base64 HMAC-SHA1 of the base64 {@code policy} under the secret of {@code
   * accessKeyId}. As with SigV4, the policy's own expiration and conditions are the caller's to
   * check.
   *
   * @return the access key id that signed the policy
   * @throws S3Exception {@code InvalidAccessKeyId}, {@code SignatureDoesNotMatch}
   */
  public String verifyPostPolicyV2(String accessKeyId, String policy, String signature) {
    checkHmacSha1(secretOf(accessKeyId), policy, signature);
    return accessKeyId;
  }

  // ---- shared ----

  private String secretOf(String accessKey) {
    return credentials
        .secretKey(accessKey)
        .orElseThrow(
            () ->
                S3Exception.of(S3ErrorCode.INVALID_ACCESS_KEY_ID)
                    .withDetail("AWSAccessKeyId", accessKey));
  }

  private void checkSkew(Instant requestTime) {
    Instant now = clock.instant();
    if (Duration.between(requestTime, now).abs().compareTo(maxClockSkew) > 0) {
      throw S3Exception.of(S3ErrorCode.REQUEST_TIME_TOO_SKEWED)
          .withDetail("RequestTime", requestTime.toString())
          .withDetail("ServerTime", now.toString())
          .withDetail("MaxAllowedSkewMilliseconds", Long.toString(maxClockSkew.toMillis()));
    }
  }

  private static S3Exception signatureMismatch() {
    return S3Exception.of(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
  }

  /** Parses {@code yyyyMMdd'T'HHmmss'Z'}. */
  static Instant parseAmzDate(String value, S3ErrorCode onError) {
    try {
      return LocalDateTime.parse(value, AMZ_DATE).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      throw S3Exception.of(
          onError,
          onError == S3ErrorCode.ACCESS_DENIED
              ? "AWS authentication requires a valid Date or x-amz-date header"
              : "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
    }
  }

  /** Parses an RFC 1123 date, falling back to the SigV4 basic format some clients put there. */
  static Instant parseHttpDate(String value) {
    try {
      return ZonedDateTime.parse(value.strip(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      return parseAmzDate(value.strip(), S3ErrorCode.ACCESS_DENIED);
    }
  }

  /** Configures an {@link S3Authenticator}. */
  public static final class Builder {
    private final CredentialStore credentials;
    private Optional<String> region = Optional.of("us-east-1");
    private Clock clock = Clock.systemUTC();
    private Duration maxClockSkew = Duration.ofMinutes(15);
    private SigningKeyCache keyCache = new SigningKeyCache();

    private Builder(CredentialStore credentials) {
      this.credentials = Objects.requireNonNull(credentials, "credentials");
    }

    /** The region requests must be signed for ({@code us-east-1} unless set). */
    public Builder region(String region) {
      this.region = Optional.of(Objects.requireNonNull(region, "region"));
      return this;
    }

    /** Accepts a SigV4 signature for any region (as MinIO does when no region is configured). */
    public Builder anyRegion() {
      this.region = Optional.empty();
      return this;
    }

    /** The clock for skew and expiry checks. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** The largest accepted difference between request time and now (15 minutes, as S3). */
    public Builder maxClockSkew(Duration maxClockSkew) {
      if (maxClockSkew.isNegative()) {
        throw new IllegalArgumentException("maxClockSkew: " + maxClockSkew + " (expected: >= 0)");
      }
      this.maxClockSkew = maxClockSkew;
      return this;
    }

    /** A shared signing-key cache. */
    public Builder keyCache(SigningKeyCache keyCache) {
      this.keyCache = Objects.requireNonNull(keyCache, "keyCache");
      return this;
    }

    /** The authenticator. */
    public S3Authenticator build() {
      return new S3Authenticator(this);
    }
  }
}
