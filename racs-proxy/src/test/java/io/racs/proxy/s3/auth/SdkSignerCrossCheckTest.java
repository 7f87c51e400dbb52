package io.racs.proxy.s3.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import io.racs.testkit.SeededBytes;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * Proves the authenticator accepts what the real AWS SDK for Java v2 signer produces, header and
 * presigned, for seeded random keys (every awkward character), query parameters and headers, and
 * refuses each request once its path, query, a signed header, its method or the secret changes.
 */
class SdkSignerCrossCheckTest {
  private static final String AK = "RACSTESTKEY";
  private static final String SK = "racs/secret+key=";
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final String KEY_CHARS =
      "abcXYZ019 !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~éü日本\u00a0\t";

  private static final S3Authenticator AUTH =
      S3Authenticator.builder(StaticCredentialStore.of(Map.of(AK, SK, "OTHERKEY", "other-secret")))
          .clock(Clock.fixed(NOW.plusSeconds(30), ZoneOffset.UTC))
          .build();

  private static String randomKey(Random r) {
    StringBuilder b = new StringBuilder();
    int n = 1 + r.nextInt(40);
    for (int i = 0; i < n; i++) {
      int cp =
          KEY_CHARS.codePointAt(
              KEY_CHARS.offsetByCodePoints(
                  0, r.nextInt(KEY_CHARS.codePointCount(0, KEY_CHARS.length()))));
      b.appendCodePoint(cp);
    }
    if (r.nextInt(5) == 0) {
      b.append("//..//x/");
    }
    return b.toString();
  }

  private record Case(
      String method,
      String path,
      List<Map.Entry<String, String>> query,
      Map<String, String> headers,
      byte[] body) {}

  private static Case randomCase(Random r) {
    String method = List.of("GET", "PUT", "HEAD", "DELETE", "POST").get(r.nextInt(5));
    String path =
        "/bucket-" + r.nextInt(10) + "/" + SdkHttpUtils.urlEncodeIgnoreSlashes(randomKey(r));
    List<Map.Entry<String, String>> query = new ArrayList<>();
    int nq = r.nextInt(4);
    for (int i = 0; i < nq; i++) {
      query.add(
          Map.entry(
              SdkHttpUtils.urlEncode(
                  List.of("prefix", "marker", "uploadId", "x y", "a+b").get(r.nextInt(5))),
              SdkHttpUtils.urlEncode(randomKey(r))));
    }
    if (r.nextBoolean()) {
      query.add(Map.entry("uploads", ""));
    }
    Map<String, String> headers = new LinkedHashMap<>();
    if (r.nextBoolean()) {
      headers.put("x-amz-meta-note", "  spaced   out  value ");
    }
    if (r.nextBoolean()) {
      headers.put("Content-Type", "text/plain; charset=utf-8");
    }
    if (r.nextBoolean()) {
      headers.put("x-amz-copy-source", "/src/" + SdkHttpUtils.urlEncode(randomKey(r)));
    }
    byte[] body = SeededBytes.bytes(r.nextLong(), r.nextInt(3) == 0 ? 0 : r.nextInt(2000));
    return new Case(method, path, query, headers, body);
  }

  private static SdkSigning.Signed signHeader(Case c, String secret) {
    return SdkSigning.sign(
        AK,
        secret,
        NOW,
        c.method(),
        c.path(),
        c.query(),
        c.headers(),
        c.body(),
        b -> b.putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, true));
  }

  private static SdkSigning.Signed signPresigned(Case c) {
    return SdkSigning.sign(
        AK,
        SK,
        NOW,
        c.method(),
        c.path(),
        c.query(),
        c.headers(),
        null,
        b ->
            // As the SDK's S3Presigner configures it: the payload is not signed.
            b.putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                .putProperty(
                    AwsV4HttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, Duration.ofMinutes(10)));
  }

  private static S3ErrorCode codeOf(RequestHead head) {
    try {
      AUTH.authenticate(head);
      return null;
    } catch (S3Exception e) {
      return e.code();
    }
  }

  @Test
  void authenticate_whenSdkSignedHeaderRequests_acceptsThemAndRefusesTampering() {
    long seed = 0x5167_4e01L;
    Random r = new Random(seed);
    for (int i = 0; i < 300; i++) {
      Case c = randomCase(r);
      RequestHead head = signHeader(c, SK).head();
      String where = "seed " + seed + " case " + i + " " + head;
      Authentication a = AUTH.authenticate(head);
      assertThat(a.accessKeyId()).as(where).isEqualTo(AK);
      assertThat(a.contentSha256().mode()).as(where).isEqualTo(ContentSha256.Mode.SHA256);

      RequestHead otherPath =
          new RequestHead(head.method(), head.rawPath() + "x", head.rawQuery(), head.headers());
      assertThat(codeOf(otherPath)).as(where).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
      RequestHead otherQuery =
          new RequestHead(
              head.method(),
              head.rawPath(),
              head.rawQuery() + (head.rawQuery().isEmpty() ? "" : "&") + "extra=1",
              head.headers());
      assertThat(codeOf(otherQuery)).as(where).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
      RequestHead otherMethod =
          new RequestHead(
              head.method().equals("GET") ? "HEAD" : "GET",
              head.rawPath(),
              head.rawQuery(),
              head.headers());
      assertThat(codeOf(otherMethod)).as(where).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
      RequestHead otherHash =
          new RequestHead(
              head.method(),
              head.rawPath(),
              head.rawQuery(),
              head.headers().toBuilder().set("x-amz-content-sha256", SigV4.sha256Hex("x")).build());
      assertThat(codeOf(otherHash)).as(where).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
      RequestHead wrongSecret = signHeader(c, SK + "x").head();
      assertThat(codeOf(wrongSecret)).as(where).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    }
  }

  @Test
  void authenticate_whenSdkPresignedRequests_acceptsThemAndRefusesTampering() {
    long seed = 0x9e5e_7a11L;
    Random r = new Random(seed);
    for (int i = 0; i < 200; i++) {
      Case c = randomCase(r);
      RequestHead head = signPresigned(c).head();
      String where = "seed " + seed + " case " + i + " " + head;
      Authentication a = AUTH.authenticate(head);
      assertThat(a.type()).as(where).isEqualTo(AuthType.V4_PRESIGNED);
      assertThat(a.contentSha256()).as(where).isEqualTo(ContentSha256.UNSIGNED);
      RequestHead otherPath =
          new RequestHead(head.method(), head.rawPath() + "x", head.rawQuery(), head.headers());
      assertThat(codeOf(otherPath)).as(where).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
      RequestHead longer =
          new RequestHead(
              head.method(),
              head.rawPath(),
              head.rawQuery().replace("X-Amz-Expires=600", "X-Amz-Expires=6000"),
              head.headers());
      assertThat(codeOf(longer)).as(where).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    }
  }

  @Test
  void authenticate_whenSdkSignsUnsignedPayload_acceptsWithUnsignedMode() {
    Case c = new Case("PUT", "/b/k", List.of(), Map.of(), "hello".getBytes(StandardCharsets.UTF_8));
    RequestHead head =
        SdkSigning.sign(
                AK,
                SK,
                NOW,
                c.method(),
                c.path(),
                c.query(),
                c.headers(),
                c.body(),
                b -> b.putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false))
            .head();
    assertThat(AUTH.authenticate(head).contentSha256()).isEqualTo(ContentSha256.UNSIGNED);
  }

  @Test
  void authenticate_whenPresignedAndUnsignedAmzHeaderAdded_accessDenied() {
    Case c = new Case("PUT", "/b/k", List.of(), Map.of(), null);
    RequestHead head = signPresigned(c).head();
    RequestHead injected =
        new RequestHead(
            head.method(),
            head.rawPath(),
            head.rawQuery(),
            head.headers().toBuilder().add("x-amz-copy-source", "/other/secret").build());
    assertThatThrownBy(() -> AUTH.authenticate(injected))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> {
              assertThat(e.code()).isEqualTo(S3ErrorCode.ACCESS_DENIED);
              assertThat(e.details()).containsEntry("HeadersNotSigned", "x-amz-copy-source");
            });
  }

  @Test
  void authenticate_whenSdkHeaderRewrittenWithBareCommas_stillAccepts() {
    RequestHead head =
        signHeader(new Case("GET", "/b/k", List.of(), Map.of(), new byte[0]), SK).head();
    String authz = head.headers().get("authorization").replace(", ", ",");
    RequestHead bare =
        new RequestHead(
            head.method(),
            head.rawPath(),
            head.rawQuery(),
            head.headers().toBuilder().set("Authorization", authz).build());
    assertThat(AUTH.authenticate(bare).accessKeyId()).isEqualTo(AK);
    assertThat(Headers.of("Authorization", authz).get("AUTHORIZATION")).isEqualTo(authz);
  }
}
