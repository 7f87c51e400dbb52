package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * The proxy process (over local directories, 4x2) answers bad requests the way S3 clients expect
 * and changes nothing: a wrong secret is SignatureDoesNotMatch, an expired presigned URL is
 * AccessDenied, an aws-chunked body with one flipped payload byte or chunk signature is
 * SignatureDoesNotMatch, a wrong checksum header is BadDigest, {@code Expect: 100-continue} with a
 * bad signature gets the final 403 without a 100 first, an unknown sub-resource is NotImplemented;
 * every error is S3 error XML with Code, Message and RequestId, and the RequestId is the {@code
 * x-amz-request-id} header. Requests are written on raw sockets and signed here, so each can be
 * exactly as wrong as the test needs.
 */
class NegativeIT {
  private static final String BUCKET = "negative";
  private static final Pattern REQUEST_ID = Pattern.compile("<RequestId>([^<]+)</RequestId>");
  @TempDir static Path dir;
  private static ProxyProcess proxy;
  private static S3Client s3;

  @BeforeAll
  static void start() throws Exception {
    proxy = ProxyProcess.start(dir, ProxyProcess.fsConfig(dir.resolve("repos"), "4x2", null));
    s3 =
        S3Client.builder()
            .endpointOverride(proxy.endpoint())
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(ProxyProcess.ACCESS_KEY, ProxyProcess.SECRET_KEY)))
            .httpClientBuilder(Apache5HttpClient.builder())
            .build();
    s3.createBucket(b -> b.bucket(BUCKET));
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
    if (proxy != null) {
      proxy.close();
    }
  }

  private static RawS3 raw(String secret) {
    return new RawS3(proxy.endpoint(), secret, Instant.now());
  }

  /** Asserts an S3 error: status, code, a message, and a request id equal to the header's. */
  private static void assertS3Error(RawS3.Response response, int status, String code) {
    String body = response.text();
    assertThat(response.status()).as(body).isEqualTo(status);
    assertThat(response.headers()).containsEntry("content-type", "application/xml");
    assertThat(body)
        .contains("<Error>", "<Code>" + code + "</Code>")
        .containsPattern("<Message>[^<]+</Message>");
    Matcher id = REQUEST_ID.matcher(body);
    assertThat(id.find()).as(body).isTrue();
    assertThat(response.headers()).containsEntry("x-amz-request-id", id.group(1));
  }

  private static void assertAbsent(String key) {
    assertThatThrownBy(() -> s3.headObject(b -> b.bucket(BUCKET).key(key)))
        .isInstanceOf(NoSuchKeyException.class);
    assertThat(s3.listObjectsV2(b -> b.bucket(BUCKET).prefix(key)).keyCount()).isZero();
  }

  private static RawS3.Response put(RawS3 raw, String key, byte[] body, Map<String, String> extra)
      throws Exception {
    RawS3.SignedHead head =
        raw.sign(
            "PUT",
            "/" + BUCKET + "/" + key,
            "",
            extra,
            RawS3.sha256Hex(body),
            Map.of("content-length", Integer.toString(body.length)));
    return raw.send(head, body);
  }

  @Test
  void put_whenSecretIsWrong_isSignatureDoesNotMatchAndStoresNothing() throws Exception {
    byte[] body = Clients.seededBytes(1, 1000);
    assertS3Error(
        put(raw("wrong-secret"), "wrong-secret", body, Map.of()), 403, "SignatureDoesNotMatch");
    assertAbsent("wrong-secret");
    // The same request with the right secret is stored: only the secret was wrong.
    assertThat(put(raw(ProxyProcess.SECRET_KEY), "right-secret", body, Map.of()).status())
        .isEqualTo(200);
    assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key("right-secret")).asByteArray())
        .isEqualTo(body);
  }

  @Test
  void presignedGet_whenExpired_isAccessDeniedAndReturnsNoObject() throws Exception {
    byte[] body = Clients.seededBytes(2, 4096);
    s3.putObject(
        b -> b.bucket(BUCKET).key("presigned"),
        software.amazon.awssdk.core.sync.RequestBody.fromBytes(body));
    HttpClient client = HttpClient.newHttpClient();
    // Signed an hour ago for ten seconds: expired whatever the clocks do during the test.
    URI expired =
        Clients.presignGet(
            proxy.endpoint(),
            BUCKET,
            "presigned",
            ProxyProcess.SECRET_KEY,
            Instant.now().minus(Duration.ofHours(1)),
            Duration.ofSeconds(10));
    HttpResponse<byte[]> response =
        client.send(
            HttpRequest.newBuilder(expired).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertS3Error(
        new RawS3.Response(
            response.statusCode(),
            Map.of(
                "content-type", response.headers().firstValue("content-type").orElse(""),
                "x-amz-request-id", response.headers().firstValue("x-amz-request-id").orElse("")),
            response.body()),
        403,
        "AccessDenied");
    assertThat(new String(response.body(), java.nio.charset.StandardCharsets.ISO_8859_1))
        .doesNotContain(new String(body, 0, 64, java.nio.charset.StandardCharsets.ISO_8859_1));
  }

  /** Where an aws-chunked body is made wrong. */
  enum Tamper {
    NONE,
    PAYLOAD_FIRST_CHUNK,
    PAYLOAD_LAST_DATA_CHUNK,
    SIGNATURE_MIDDLE_CHUNK,
    SIGNATURE_FINAL_EMPTY_CHUNK
  }

  /**
   * A signed aws-chunked body of three data chunks (64 KiB, 64 KiB, 1000 B) and the final empty
   * chunk, with correct framing; {@code tamper} flips one payload byte or one signature digit after
   * signing.
   */
  private static byte[] chunkedBody(RawS3 raw, String seed, List<byte[]> chunks, Tamper tamper) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String previous = seed;
    for (int i = 0; i < chunks.size(); i++) {
      byte[] data = chunks.get(i).clone();
      String signature = raw.chunkSignature(previous, data);
      previous = signature;
      boolean last = data.length == 0;
      if ((tamper == Tamper.PAYLOAD_FIRST_CHUNK && i == 0)
          || (tamper == Tamper.PAYLOAD_LAST_DATA_CHUNK && i == chunks.size() - 2)) {
        data[data.length / 2] ^= 0x01;
      }
      if ((tamper == Tamper.SIGNATURE_MIDDLE_CHUNK && i == 1)
          || (tamper == Tamper.SIGNATURE_FINAL_EMPTY_CHUNK && last)) {
        char c = signature.charAt(10);
        signature = signature.substring(0, 10) + (c == '0' ? '1' : '0') + signature.substring(11);
      }
      out.writeBytes(
          RawS3.bytes(Integer.toHexString(data.length) + ";chunk-signature=" + signature + "\r\n"));
      out.writeBytes(data);
      out.writeBytes(RawS3.bytes("\r\n"));
    }
    return out.toByteArray();
  }

  @ParameterizedTest
  @EnumSource(Tamper.class)
  void awsChunkedPut_whenOneByteIsFlipped_isSignatureDoesNotMatchAndStoresNothing(Tamper tamper)
      throws Exception {
    RawS3 raw = raw(ProxyProcess.SECRET_KEY);
    String key = "chunked-" + tamper.name().toLowerCase(java.util.Locale.ROOT);
    List<byte[]> chunks =
        List.of(
            Clients.seededBytes(10, 65536),
            Clients.seededBytes(11, 65536),
            Clients.seededBytes(12, 1000),
            new byte[0]);
    int decoded = chunks.stream().mapToInt(c -> c.length).sum();
    // The seed signature is the header signature, so the head is signed before the body is made.
    RawS3.SignedHead head =
        raw.sign(
            "PUT",
            "/" + BUCKET + "/" + key,
            "",
            Map.of("x-amz-decoded-content-length", Integer.toString(decoded)),
            "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
            Map.of());
    byte[] body = chunkedBody(raw, head.signature(), chunks, tamper);
    RawS3.SignedHead withLength =
        new RawS3.SignedHead(
            head.text() + "content-length: " + body.length + "\r\n", head.signature());
    RawS3.Response response = raw.send(withLength, body);
    if (tamper == Tamper.NONE) {
      assertThat(response.status()).as(response.text()).isEqualTo(200);
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      chunks.forEach(expected::writeBytes);
      assertThat(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray())
          .isEqualTo(expected.toByteArray());
    } else {
      assertS3Error(response, 403, "SignatureDoesNotMatch");
      assertAbsent(key);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"x-amz-checksum-crc32", "x-amz-checksum-sha256", "content-md5"})
  void put_whenChecksumHeaderIsWrong_isBadDigestAndStoresNothing(String header) throws Exception {
    byte[] body = Clients.seededBytes(3, 20_000);
    byte[] wrong = Clients.seededBytes(4, 20_000);
    String value =
        switch (header) {
          case "x-amz-checksum-crc32" -> {
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(wrong);
            yield Base64.getEncoder()
                .encodeToString(
                    java.nio.ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
          }
          case "x-amz-checksum-sha256" ->
              Base64.getEncoder().encodeToString(Clients.digest("SHA-256").digest(wrong));
          default -> Base64.getEncoder().encodeToString(Clients.digest("MD5").digest(wrong));
        };
    String key = "bad-digest-" + header;
    RawS3.Response response = put(raw(ProxyProcess.SECRET_KEY), key, body, Map.of(header, value));
    assertS3Error(response, 400, "BadDigest");
    assertAbsent(key);
  }

  @Test
  void expect100Continue_whenSignatureIsBad_finalStatusComesWithoutContinue() throws Exception {
    byte[] body = Clients.seededBytes(5, 10_000);
    for (boolean good : new boolean[] {false, true}) {
      RawS3 raw = raw(good ? ProxyProcess.SECRET_KEY : "wrong-secret");
      String key = "expect-" + good;
      RawS3.SignedHead head =
          raw.sign(
              "PUT",
              "/" + BUCKET + "/" + key,
              "",
              Map.of(),
              RawS3.sha256Hex(body),
              Map.of(
                  "content-length",
                  Integer.toString(body.length),
                  "Expect",
                  // Any capitalisation counts: the good case uses one SDKs do not.
                  good ? "100-Continue" : "100-continue"));
      try (Socket socket = raw.open()) {
        OutputStream out = socket.getOutputStream();
        out.write(RawS3.bytes(head.text() + "\r\n"));
        out.flush();
        InputStream in = new BufferedInputStream(socket.getInputStream());
        // Nothing of the body has been sent: the server must answer on the head alone.
        RawS3.Response first = RawS3.read(in);
        if (good) {
          assertThat(first.status()).isEqualTo(100);
          out.write(body);
          out.flush();
          assertThat(RawS3.read(in).status()).isEqualTo(200);
        } else {
          assertS3Error(first, 403, "SignatureDoesNotMatch");
        }
      }
      if (!good) {
        assertAbsent(key);
      }
    }
  }

  @Test
  void get_whenSubResourceIsUnknown_isNotImplementedXml() throws Exception {
    s3.putObject(
        b -> b.bucket(BUCKET).key("with-sub-resource"),
        software.amazon.awssdk.core.sync.RequestBody.fromString("x"));
    RawS3 raw = raw(ProxyProcess.SECRET_KEY);
    for (String path : List.of("/" + BUCKET + "/with-sub-resource", "/" + BUCKET)) {
      RawS3.SignedHead head =
          raw.sign("GET", path, "website", Map.of(), RawS3.EMPTY_SHA256, Map.of());
      assertS3Error(raw.send(head, new byte[0]), 501, "NotImplemented");
    }
  }
}
