package io.racs.proxy.s3.auth;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.QueryParams;
import io.racs.proxy.s3.http.RequestHead;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

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

  private final SigV4Verifier sigV4;
  private final SigV2Verifier sigV2;

  private S3Authenticator(Builder b) {
    SecretLookup secrets = new SecretLookup(b.credentials);
    RequestTimes times = new RequestTimes(b.clock, b.maxClockSkew);
    this.sigV4 = new SigV4Verifier(secrets, b.region, times, b.keyCache);
    this.sigV2 = new SigV2Verifier(secrets, times);
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
    boolean v4Query = v4Query(query);
    boolean v2Query = v2Query(query);
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
        return sigV4.header(head, query, AuthorizationHeader.parse(a));
      }
      if (a.startsWith("AWS ")) {
        return sigV2.header(head, virtualHostBucket, a.substring(4).strip());
      }
      throw S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Unsupported Authorization Type")
          .withDetail("ArgumentName", "Authorization");
    }
    if (v4Query) {
      return sigV4.presigned(head, query);
    }
    if (v2Query) {
      return sigV2.presigned(head, query, virtualHostBucket);
    }
    throw S3Exception.of(S3ErrorCode.ACCESS_DENIED, "Anonymous access is not allowed.");
  }

  /**
   * Whether {@code head} carries no signature of any scheme (no {@code Authorization} header, no
   * presigned query parameters): an anonymous request, which {@link #authenticate} refuses with
   * {@code AccessDenied} and the policy decision may serve.
   */
  public static boolean unsigned(RequestHead head) {
    return head.headers().get("authorization") == null
        && !v4Query(head.query())
        && !v2Query(head.query());
  }

  private static boolean v4Query(QueryParams query) {
    return query.contains("X-Amz-Algorithm") || query.contains("X-Amz-Signature");
  }

  private static boolean v2Query(QueryParams query) {
    return query.contains("AWSAccessKeyId") || query.contains("Signature");
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
    return sigV4.postPolicy(algorithm, credential, amzDate, policy, signature);
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
    return sigV2.postPolicy(accessKeyId, policy, signature);
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
