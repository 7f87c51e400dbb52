package io.racs.proxy.s3.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;

/**
 * Proves each way a request can fail authentication gets its own S3 error code (malformed header or
 * query parameters, unknown key, skew, expiry, region, unsigned headers, two schemes, none), and
 * that several access keys work side by side.
 */
class S3AuthenticatorTest {
  private static final String AK = "AKTEST";
  private static final String SK = "secret-test";
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final String CRED = "AKTEST/20260101/us-east-1/s3/aws4_request";

  private static S3Authenticator at(Instant now) {
    return S3Authenticator.builder(
            StaticCredentialStore.of(Map.of(AK, SK, "AKSECOND", "second-secret")))
        .clock(Clock.fixed(now, ZoneOffset.UTC))
        .build();
  }

  private static final S3Authenticator AUTH = at(NOW);

  private static void assertCode(ThrowingCallable call, S3ErrorCode code) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(S3Exception.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  private static RequestHead withAuthorization(String authorization) {
    return RequestHead.of(
        "GET",
        "/b/k",
        Headers.of(
            "Host",
            "h",
            "x-amz-date",
            "20260101T120000Z",
            "x-amz-content-sha256",
            SigV4.EMPTY_SHA256,
            "Authorization",
            authorization));
  }

  private static SdkSigning.Signed sdk(String ak, String sk, Instant at, String method) {
    return SdkSigning.sign(ak, sk, at, method, "/b/k", List.of(), Map.of(), new byte[0], b -> {});
  }

  private static RequestHead presigned(Instant at, Duration expires) {
    return SdkSigning.sign(
            AK,
            SK,
            at,
            "GET",
            "/b/k",
            List.of(),
            Map.of(),
            null,
            b ->
                b.putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                    .putProperty(
                        AwsV4HttpSigner.AUTH_LOCATION,
                        AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                    .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, expires))
        .head();
  }

  private static RequestHead replaceQuery(RequestHead h, String from, String to) {
    return new RequestHead(h.method(), h.rawPath(), h.rawQuery().replace(from, to), h.headers());
  }

  @Test
  void authenticate_whenNoCredentials_accessDenied() {
    assertCode(
        () -> AUTH.authenticate(RequestHead.of("GET", "/b/k", Headers.of("Host", "h"))),
        S3ErrorCode.ACCESS_DENIED);
  }

  @Test
  void authenticate_whenHeaderAndQueryBothPresent_invalidArgument() {
    RequestHead h = presigned(NOW, Duration.ofMinutes(5));
    RequestHead both =
        new RequestHead(
            h.method(),
            h.rawPath(),
            h.rawQuery(),
            h.headers().toBuilder().add("Authorization", "AWS4-HMAC-SHA256 x").build());
    assertCode(() -> AUTH.authenticate(both), S3ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void authenticate_whenUnknownScheme_invalidArgument() {
    assertCode(
        () -> AUTH.authenticate(withAuthorization("Bearer token")), S3ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void authenticate_whenHeaderPartsMalformed_authorizationHeaderMalformed() {
    String sig = "Signature=" + "0".repeat(64);
    for (String bad :
        List.of(
            "AWS4-HMAC-SHA256 Credential=" + CRED + ", SignedHeaders=host",
            "AWS4-HMAC-SHA256 SignedHeaders=host, " + sig,
            "AWS4-HMAC-SHA256 Credential=" + CRED + ", SignedHeaders=host, " + sig + ", " + sig,
            "AWS4-HMAC-SHA256 Credential=" + CRED + ", SignedHeaders=host, Foo=bar, " + sig,
            "AWS4-HMAC-SHA256 Credential=" + CRED + ", SignedHeaders=host;;x-amz-date, " + sig,
            "AWS4-HMAC-SHA256 Credential=" + CRED + " SignedHeaders=host " + sig,
            "AWS4-HMAC-SHA256 Credential=AKTEST/20260101/us-east-1/s3, SignedHeaders=host, " + sig,
            "AWS4-HMAC-SHA256 Credential=AKTEST/2026011/us-east-1/s3/aws4_request,"
                + " SignedHeaders=host, "
                + sig,
            "AWS4-HMAC-SHA256 Credential=AKTEST/20260101/us-east-1/s3/aws5_request,"
                + " SignedHeaders=host, "
                + sig,
            "AWS4-HMAC-SHA256 Credential=AKTEST/20260101/us-east-1/ec2/aws4_request,"
                + " SignedHeaders=host, "
                + sig,
            "AWS4-HMAC-SHA256 Credential=/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, "
                + sig,
            "AWS4-HMAC-SHA256 Credential=" + CRED + ", SignedHeaders=x-amz-date, " + sig)) {
      assertThatThrownBy(() -> AUTH.authenticate(withAuthorization(bad)))
          .as(bad)
          .isInstanceOfSatisfying(
              S3Exception.class,
              e -> assertThat(e.code()).isEqualTo(S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED));
    }
  }

  @Test
  void authenticate_whenCredentialDateDiffersFromAmzDate_authorizationHeaderMalformed() {
    assertCode(
        () ->
            AUTH.authenticate(
                withAuthorization(
                    "AWS4-HMAC-SHA256 Credential=AKTEST/20251231/us-east-1/s3/aws4_request,"
                        + " SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature="
                        + "0".repeat(64))),
        S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
  }

  @Test
  void authenticate_whenWrongRegion_authorizationHeaderMalformedNamingRegion() {
    assertThatThrownBy(
            () ->
                AUTH.authenticate(
                    withAuthorization(
                        "AWS4-HMAC-SHA256 Credential=AKTEST/20260101/eu-west-1/s3/aws4_request,"
                            + " SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature="
                            + "0".repeat(64))))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.code()).isEqualTo(S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
              assertThat(e.details()).containsEntry("Region", "us-east-1");
            });
  }

  @Test
  void authenticate_whenAnyRegionConfigured_acceptsOtherRegion() {
    RequestHead h =
        SdkSigning.sign(
                AK,
                SK,
                NOW,
                "GET",
                "/b/k",
                List.of(),
                Map.of(),
                new byte[0],
                b -> b.putProperty(AwsV4HttpSigner.REGION_NAME, "eu-central-1"))
            .head();
    assertCode(() -> AUTH.authenticate(h), S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
    S3Authenticator any =
        S3Authenticator.builder(StaticCredentialStore.of(AK, SK))
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .anyRegion()
            .build();
    assertThat(any.authenticate(h).signingContext().orElseThrow().scope().region())
        .isEqualTo("eu-central-1");
  }

  @Test
  void authenticate_whenUnknownAccessKey_invalidAccessKeyId() {
    assertCode(
        () -> AUTH.authenticate(sdk("NOBODY", SK, NOW, "GET").head()),
        S3ErrorCode.INVALID_ACCESS_KEY_ID);
  }

  @Test
  void authenticate_whenSecondAccessKey_acceptsWithItsOwnSecret() {
    assertThat(AUTH.authenticate(sdk("AKSECOND", "second-secret", NOW, "GET").head()).accessKeyId())
        .isEqualTo("AKSECOND");
    assertCode(
        () -> AUTH.authenticate(sdk("AKSECOND", SK, NOW, "GET").head()),
        S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
  }

  @Test
  void authenticate_whenClockSkewBeyondFifteenMinutes_requestTimeTooSkewed() {
    RequestHead h = sdk(AK, SK, NOW, "GET").head();
    assertThat(at(NOW.plus(Duration.ofMinutes(15))).authenticate(h).accessKeyId()).isEqualTo(AK);
    assertThat(at(NOW.minus(Duration.ofMinutes(15))).authenticate(h).accessKeyId()).isEqualTo(AK);
    assertThatThrownBy(() -> at(NOW.plus(Duration.ofMinutes(15)).plusSeconds(1)).authenticate(h))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.code()).isEqualTo(S3ErrorCode.REQUEST_TIME_TOO_SKEWED);
              assertThat(e.httpStatus()).isEqualTo(403);
              assertThat(e.details()).containsEntry("MaxAllowedSkewMilliseconds", "900000");
            });
    assertCode(
        () -> at(NOW.minus(Duration.ofMinutes(16))).authenticate(h),
        S3ErrorCode.REQUEST_TIME_TOO_SKEWED);
  }

  @Test
  void authenticate_whenNoDateHeader_accessDenied() {
    RequestHead h = sdk(AK, SK, NOW, "GET").head();
    RequestHead noDate =
        new RequestHead(
            h.method(),
            h.rawPath(),
            h.rawQuery(),
            h.headers().toBuilder().remove("x-amz-date").build());
    assertCode(() -> AUTH.authenticate(noDate), S3ErrorCode.ACCESS_DENIED);
  }

  @Test
  void authenticate_whenNoContentSha256_missingSecurityHeader() {
    RequestHead h = sdk(AK, SK, NOW, "GET").head();
    RequestHead noHash =
        new RequestHead(
            h.method(),
            h.rawPath(),
            h.rawQuery(),
            h.headers().toBuilder().remove("x-amz-content-sha256").build());
    assertCode(() -> AUTH.authenticate(noHash), S3ErrorCode.MISSING_SECURITY_HEADER);
  }

  @Test
  void authenticate_whenContentSha256NotAHash_invalidArgument() {
    RequestHead h = sdk(AK, SK, NOW, "GET").head();
    RequestHead bad =
        new RequestHead(
            h.method(),
            h.rawPath(),
            h.rawQuery(),
            h.headers().toBuilder().set("x-amz-content-sha256", "abc").build());
    assertCode(() -> AUTH.authenticate(bad), S3ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void authenticate_whenUnsignedAmzHeaderPresent_accessDenied() {
    RequestHead h = sdk(AK, SK, NOW, "PUT").head();
    RequestHead injected =
        new RequestHead(
            h.method(),
            h.rawPath(),
            h.rawQuery(),
            h.headers().toBuilder().add("x-amz-copy-source", "/b/secret").build());
    assertCode(() -> AUTH.authenticate(injected), S3ErrorCode.ACCESS_DENIED);
  }

  @Test
  void authenticate_whenPresignedExpiresBeyondAWeek_queryParametersError() {
    RequestHead week = presigned(NOW, Duration.ofSeconds(604_800));
    assertThat(AUTH.authenticate(week).type()).isEqualTo(AuthType.V4_PRESIGNED);
    RequestHead longer = replaceQuery(week, "X-Amz-Expires=604800", "X-Amz-Expires=604801");
    assertCode(() -> AUTH.authenticate(longer), S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    RequestHead negative = replaceQuery(week, "X-Amz-Expires=604800", "X-Amz-Expires=-1");
    assertCode(() -> AUTH.authenticate(negative), S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    RequestHead nan = replaceQuery(week, "X-Amz-Expires=604800", "X-Amz-Expires=soon");
    assertCode(() -> AUTH.authenticate(nan), S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
  }

  @Test
  void authenticate_whenPresignedExpired_accessDeniedRequestHasExpired() {
    RequestHead h = presigned(NOW, Duration.ofSeconds(60));
    assertThat(at(NOW.plusSeconds(60)).authenticate(h).accessKeyId()).isEqualTo(AK);
    assertThatThrownBy(() -> at(NOW.plusSeconds(61)).authenticate(h))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.code()).isEqualTo(S3ErrorCode.ACCESS_DENIED);
              assertThat(e.getMessage()).isEqualTo("Request has expired");
            });
  }

  @Test
  void authenticate_whenPresignedFromTheFuture_accessDenied() {
    RequestHead h = presigned(NOW.plus(Duration.ofMinutes(20)), Duration.ofHours(1));
    assertCode(() -> AUTH.authenticate(h), S3ErrorCode.ACCESS_DENIED);
  }

  @Test
  void authenticate_whenPresignedParameterMissingOrWrong_queryParametersError() {
    RequestHead h = presigned(NOW, Duration.ofMinutes(5));
    assertCode(
        () -> AUTH.authenticate(replaceQuery(h, "X-Amz-SignedHeaders=", "X-Amz-Signed=")),
        S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    assertCode(
        () ->
            AUTH.authenticate(
                replaceQuery(h, "X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Algorithm=AWS4-HMAC")),
        S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    assertCode(
        () -> AUTH.authenticate(replaceQuery(h, "X-Amz-Date=20260101T", "X-Amz-Date=2026-01-01T")),
        S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
    assertCode(
        () -> AUTH.authenticate(replaceQuery(h, "%2Faws4_request", "%2Faws4")),
        S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR);
  }

  @Test
  void authenticate_whenPathHasMalformedEscape_invalidUri() {
    RequestHead h = sdk(AK, SK, NOW, "GET").head();
    RequestHead bad = new RequestHead(h.method(), "/b/%zz", h.rawQuery(), h.headers());
    assertCode(() -> AUTH.authenticate(bad), S3ErrorCode.INVALID_URI);
  }

  @Test
  void authenticate_whenV2HeaderMalformed_invalidArgument() {
    RequestHead h =
        RequestHead.of(
            "GET",
            "/b/k",
            Headers.of(
                "Host",
                "h",
                "Date",
                "Thu, 01 Jan 2026 12:00:00 GMT",
                "Authorization",
                "AWS AKTEST"));
    assertCode(() -> AUTH.authenticate(h), S3ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void authenticate_whenV2PresignedIncomplete_accessDenied() {
    assertCode(
        () ->
            AUTH.authenticate(
                RequestHead.of(
                    "GET", "/b/k?AWSAccessKeyId=AKTEST&Expires=1", Headers.of("Host", "h"))),
        S3ErrorCode.ACCESS_DENIED);
  }

  @Test
  void authenticate_whenV2PresignedExpiresBeyondInstantRange_neverOrLongExpired() throws Exception {
    // Found by SigV4AuthFuzzTest: an Expires past Instant's range threw DateTimeException.
    String never = Long.toString(Long.MAX_VALUE);
    Authentication a = AUTH.authenticate(v2Presigned(never, v2Signature(never)));
    assertThat(a.type()).isEqualTo(AuthType.V2_PRESIGNED);
    assertThat(a.requestTime()).isEqualTo(Instant.ofEpochSecond(Instant.MAX.getEpochSecond()));
    assertCode(
        () -> AUTH.authenticate(v2Presigned(never, v2Signature(never + "0"))),
        S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    String longAgo = Long.toString(Long.MIN_VALUE);
    assertCode(
        () -> AUTH.authenticate(v2Presigned(longAgo, v2Signature(longAgo))),
        S3ErrorCode.ACCESS_DENIED);
  }

  private static RequestHead v2Presigned(String expires, String signature) {
    return RequestHead.of(
        "GET",
        "/b/k?AWSAccessKeyId=AKTEST&Expires="
            + expires
            + "&Signature="
            + URLEncoder.encode(signature, StandardCharsets.UTF_8),
        Headers.of("Host", "h"));
  }

  /** The SigV2 query signature of a GET of /b/k expiring at {@code expires}. */
  private static String v2Signature(String expires) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA1");
    mac.init(new SecretKeySpec(SK.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
    byte[] sig = mac.doFinal(("GET\n\n\n" + expires + "\n/b/k").getBytes(StandardCharsets.UTF_8));
    return Base64.getEncoder().encodeToString(sig);
  }

  @Test
  void signingKeyCache_whenSameScope_derivesOnce() {
    SigningKeyCache cache = new SigningKeyCache(2);
    byte[] k1 = cache.signingKey(SK, "20260101", "us-east-1", "s3");
    assertThat(cache.signingKey(SK, "20260101", "us-east-1", "s3")).isSameAs(k1);
    assertThat(k1).isEqualTo(SigV4.deriveSigningKey(SK, "20260101", "us-east-1", "s3"));
    cache.signingKey(SK, "20260102", "us-east-1", "s3");
    cache.signingKey(SK, "20260103", "us-east-1", "s3");
    assertThat(cache.size()).isLessThanOrEqualTo(2);
    assertThatThrownBy(() -> new SigningKeyCache(0)).hasMessage("maxEntries: 0 (expected: >= 1)");
  }

  @Test
  void canonicalUri_whenClientEscapesDiffer_encodesOnceKeepingEscapedSlash() {
    assertThat(CanonicalRequest.canonicalUri("/b/a b!$")).isEqualTo("/b/a%20b%21%24");
    assertThat(CanonicalRequest.canonicalUri("/b/a%20b%21%24")).isEqualTo("/b/a%20b%21%24");
    assertThat(CanonicalRequest.canonicalUri("/b/%7e%2fx//..")).isEqualTo("/b/~%2Fx//..");
    assertThat(CanonicalRequest.canonicalUri("/b/%25")).isEqualTo("/b/%25");
    assertThat(CanonicalRequest.canonicalUri("/b/a+b")).isEqualTo("/b/a%2Bb");
  }
}
