package io.racs.proxy.s3.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * Fuzzes authentication: the SigV4 {@code Authorization} header parser, and the authenticator's
 * entry point on requests whose {@code Authorization} header, presigned SigV4 or SigV2 query
 * parameters and date headers are assembled from fuzzed parts (so that the fuzzer reaches past the
 * first check). Whatever the values, the only failure is an S3 error of the kinds the authenticator
 * documents, and nothing fuzzed is ever accepted without the secret. Requests that the real AWS SDK
 * v2 signer signed, header or presigned, with fuzzed keys, query parameters and header values, are
 * always accepted, and refused once their signature changes.
 */
class SigV4AuthFuzzTest {
  private static final String AK = "RACSFUZZKEY";
  private static final String SK = "fuzz/secret+key=";
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final S3Authenticator AUTH =
      S3Authenticator.builder(StaticCredentialStore.of(Map.of(AK, SK)))
          .clock(Clock.fixed(NOW.plusSeconds(30), ZoneOffset.UTC))
          .build();

  /** The S3 errors of the authenticator (its class comment), the query decoder and SigV4a. */
  private static final Set<S3ErrorCode> AUTH_ERRORS =
      Set.of(
          S3ErrorCode.ACCESS_DENIED,
          S3ErrorCode.INVALID_ACCESS_KEY_ID,
          S3ErrorCode.SIGNATURE_DOES_NOT_MATCH,
          S3ErrorCode.REQUEST_TIME_TOO_SKEWED,
          S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED,
          S3ErrorCode.AUTHORIZATION_QUERY_PARAMETERS_ERROR,
          S3ErrorCode.MISSING_SECURITY_HEADER,
          S3ErrorCode.INVALID_ARGUMENT,
          S3ErrorCode.INVALID_URI,
          S3ErrorCode.NOT_IMPLEMENTED);

  private static final String[] DATES = {"20260101", "20251231", "2026010", "20260101T"};
  private static final String[] AMZ_DATES = {
    "20260101T120000Z",
    "20260101T235959Z",
    "20250101T120000Z",
    "20260101T120000",
    "20261301T000000Z"
  };
  private static final String[] SHAS = {
    "UNSIGNED-PAYLOAD",
    "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
    "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
    "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
  };
  private static final String[] SIGNED_HEADERS = {
    "host;x-amz-content-sha256;x-amz-date", "host", "host;x-amz-date", ";", "Host;X-Amz-Date"
  };

  @FuzzTest
  @Timeout(value = 10, unit = TimeUnit.SECONDS)
  void authenticate(FuzzedDataProvider data) {
    switch (data.consumeInt(0, 4)) {
      case 0 -> parseHeader(data.consumeRemainingAsString());
      case 1 -> headerAuth(data);
      case 2 -> presignedV4(data);
      case 3 -> v2(data);
      default -> sdkSigned(data);
    }
  }

  private static void parseHeader(String value) {
    AuthorizationHeader parsed;
    try {
      parsed = AuthorizationHeader.parse(value);
    } catch (S3Exception e) {
      assertThat(e.code()).isEqualTo(S3ErrorCode.AUTHORIZATION_HEADER_MALFORMED);
      return;
    }
    assertThat(parsed.accessKeyId()).isNotEmpty();
    assertThat(parsed.scope().date()).matches("[0-9]{8}");
    assertThat(parsed.scope().region()).isNotEmpty();
    assertThat(parsed.scope().service()).isEqualTo("s3");
    assertThat(parsed.signedHeaders())
        .isNotEmpty()
        .allSatisfy(n -> assertThat(n).isNotEmpty().isEqualTo(n.toLowerCase(Locale.ROOT)));
  }

  private static void headerAuth(FuzzedDataProvider data) {
    String credential =
        (data.consumeBoolean() ? AK : data.consumeString(20))
            + "/"
            + (data.consumeBoolean() ? data.pickValue(DATES) : data.consumeString(10))
            + "/"
            + (data.consumeBoolean() ? "us-east-1" : data.consumeString(12))
            + "/"
            + (data.consumeBoolean() ? "s3" : data.consumeString(4))
            + "/aws4_request";
    String separator = data.consumeBoolean() ? ", " : ",";
    String authorization =
        SigV4.ALGORITHM
            + " Credential="
            + credential
            + separator
            + "SignedHeaders="
            + (data.consumeBoolean() ? data.pickValue(SIGNED_HEADERS) : data.consumeString(40))
            + separator
            + "Signature="
            + data.consumeString(70)
            + (data.consumeBoolean() ? "" : data.consumeString(20));
    Headers.Builder h = Headers.builder().add("Host", "127.0.0.1:9000");
    h.add("Authorization", authorization);
    addDates(data, h);
    if (data.consumeBoolean()) {
      h.add(
          "x-amz-content-sha256",
          data.consumeBoolean() ? data.pickValue(SHAS) : data.consumeString(70));
    }
    if (data.consumeBoolean()) {
      h.add(
          "x-amz-" + data.consumeAsciiString(10).toLowerCase(Locale.ROOT), data.consumeString(20));
    }
    expectRefused(head(data, h, ""));
  }

  private static void presignedV4(FuzzedDataProvider data) {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("X-Amz-Algorithm", data.consumeBoolean() ? SigV4.ALGORITHM : data.consumeString(20));
    q.put(
        "X-Amz-Credential",
        (data.consumeBoolean() ? AK : data.consumeString(20))
            + "/"
            + (data.consumeBoolean() ? data.pickValue(DATES) : data.consumeString(10))
            + "/us-east-1/s3/aws4_request");
    q.put("X-Amz-Date", data.consumeBoolean() ? data.pickValue(AMZ_DATES) : data.consumeString(20));
    q.put(
        "X-Amz-Expires",
        data.consumeBoolean() ? Long.toString(data.consumeLong()) : data.consumeString(12));
    q.put(
        "X-Amz-SignedHeaders",
        data.consumeBoolean() ? data.pickValue(SIGNED_HEADERS) : data.consumeString(30));
    q.put("X-Amz-Signature", data.consumeString(70));
    if (data.consumeBoolean()) {
      q.put(
          "X-Amz-Content-Sha256",
          data.consumeBoolean() ? data.pickValue(SHAS) : data.consumeString(70));
    }
    for (int drop = data.consumeInt(0, 2); drop > 0 && !q.isEmpty(); drop--) {
      q.remove(new ArrayList<>(q.keySet()).get(data.consumeInt(0, q.size() - 1)));
    }
    StringBuilder query = new StringBuilder();
    q.forEach(
        (name, value) ->
            query
                .append(query.isEmpty() ? "" : "&")
                .append(name)
                .append('=')
                .append(
                    data.consumeBoolean()
                        ? SdkHttpUtils.urlEncode(value)
                        : value.replace("&", "%26")));
    Headers.Builder h = Headers.builder().add("Host", "127.0.0.1:9000");
    if (data.consumeBoolean()) {
      h.add(
          "x-amz-" + data.consumeAsciiString(10).toLowerCase(Locale.ROOT), data.consumeString(20));
    }
    expectRefused(head(data, h, query.toString()));
  }

  private static void v2(FuzzedDataProvider data) {
    Headers.Builder h = Headers.builder().add("Host", "127.0.0.1:9000");
    String query = "";
    if (data.consumeBoolean()) {
      h.add(
          "Authorization",
          "AWS "
              + (data.consumeBoolean() ? AK : data.consumeString(20))
              + ":"
              + data.consumeString(40));
      addDates(data, h);
    } else {
      query =
          "AWSAccessKeyId="
              + (data.consumeBoolean() ? AK : SdkHttpUtils.urlEncode(data.consumeString(20)))
              + "&Expires="
              + (data.consumeBoolean()
                  ? Long.toString(data.consumeLong())
                  : SdkHttpUtils.urlEncode(data.consumeString(20)))
              + "&Signature="
              + SdkHttpUtils.urlEncode(data.consumeString(40));
    }
    expectRefused(head(data, h, query));
  }

  private static void addDates(FuzzedDataProvider data, Headers.Builder h) {
    if (data.consumeBoolean()) {
      h.add(
          "x-amz-date", data.consumeBoolean() ? data.pickValue(AMZ_DATES) : data.consumeString(30));
    }
    if (data.consumeBoolean()) {
      h.add(
          "Date", data.consumeBoolean() ? "Thu, 01 Jan 2026 12:00:00 GMT" : data.consumeString(40));
    }
  }

  private static RequestHead head(FuzzedDataProvider data, Headers.Builder h, String query) {
    String method = data.pickValue(new String[] {"GET", "PUT", "HEAD", "POST", "DELETE"});
    String path = "/" + data.consumeRemainingAsString().replace("?", "%3F").replace("#", "%23");
    return new RequestHead(method, path, query, h.build());
  }

  /** Without the secret, nothing fuzzed can be signed correctly: every request is refused. */
  private static void expectRefused(RequestHead head) {
    try {
      Authentication a = AUTH.authenticate(head);
      throw new AssertionError("accepted without a valid signature: " + a + " for " + head);
    } catch (S3Exception e) {
      assertThat(e.code()).as(e.toString()).isIn(AUTH_ERRORS);
    }
  }

  /**
   * The SDK signer's output with fuzzed names and values is accepted; a changed signature is not.
   */
  private static void sdkSigned(FuzzedDataProvider data) {
    String method = data.pickValue(new String[] {"GET", "PUT", "HEAD", "POST", "DELETE"});
    boolean presigned = data.consumeBoolean();
    List<Map.Entry<String, String>> query = new ArrayList<>();
    for (int i = data.consumeInt(0, 3); i > 0; i--) {
      String name = data.consumeString(12);
      if (name.isEmpty()
          || name.startsWith("X-Amz-")
          || name.equals("AWSAccessKeyId")
          || name.equals("Signature")) {
        continue; // Parameters of another auth mechanism.
      }
      query.add(
          Map.entry(SdkHttpUtils.urlEncode(name), SdkHttpUtils.urlEncode(data.consumeString(30))));
    }
    Map<String, String> headers = new LinkedHashMap<>();
    if (data.consumeBoolean()) {
      headers.put("x-amz-meta-note", data.consumeAsciiString(40));
    }
    if (data.consumeBoolean()) {
      headers.put("Content-Type", data.consumeAsciiString(40));
    }
    int tamper = data.consumeInt(0, 63);
    String key = data.consumeRemainingAsString();
    if (key.isEmpty() || !java.nio.charset.StandardCharsets.UTF_8.newEncoder().canEncode(key)) {
      return; // S3 keys are non-empty UTF-8.
    }
    for (String value : headers.values()) {
      if (value.strip().isEmpty() || value.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
        return; // Not a header value a client can send.
      }
    }
    String path = "/bucket/" + SdkHttpUtils.urlEncodeIgnoreSlashes(key);
    SdkSigning.Signed signed =
        SdkSigning.sign(
            AK,
            SK,
            NOW,
            method,
            path,
            query,
            headers,
            presigned ? null : new byte[0],
            b -> {
              b.putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, !presigned);
              if (presigned) {
                b.putProperty(
                        AwsV4HttpSigner.AUTH_LOCATION,
                        AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                    .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, Duration.ofMinutes(10));
              }
            });
    RequestHead head = signed.head();
    Authentication a = AUTH.authenticate(head);
    assertThat(a.accessKeyId()).isEqualTo(AK);
    assertThat(a.type()).isEqualTo(presigned ? AuthType.V4_PRESIGNED : AuthType.V4_HEADER);

    RequestHead tampered;
    if (presigned) {
      String raw = head.rawQuery();
      int at = raw.indexOf("X-Amz-Signature=") + "X-Amz-Signature=".length() + tamper;
      char c = raw.charAt(at);
      tampered =
          new RequestHead(
              head.method(),
              head.rawPath(),
              raw.substring(0, at) + (c == '0' ? '1' : '0') + raw.substring(at + 1),
              head.headers());
    } else {
      String authorization = head.headers().get("authorization");
      int at = authorization.indexOf("Signature=") + "Signature=".length() + tamper;
      char c = authorization.charAt(at);
      tampered =
          new RequestHead(
              head.method(),
              head.rawPath(),
              head.rawQuery(),
              head.headers().toBuilder()
                  .set(
                      "Authorization",
                      authorization.substring(0, at)
                          + (c == '0' ? '1' : '0')
                          + authorization.substring(at + 1))
                  .build());
    }
    try {
      AUTH.authenticate(tampered);
      throw new AssertionError("a changed signature was accepted: " + tampered);
    } catch (S3Exception e) {
      assertThat(e.code()).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH);
    }
  }
}
