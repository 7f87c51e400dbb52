package io.racs.proxy.s3.server;

import static io.racs.proxy.s3.server.WireRequests.ascii;
import static io.racs.proxy.s3.server.WireRequests.concat;
import static io.racs.proxy.s3.server.WireRequests.httpChunk;
import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.auth.ContentSha256;
import io.racs.proxy.s3.auth.SigV4;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves, through the real HTTP codec in an {@link io.netty.channel.embedded.EmbeddedChannel} and a
 * real erasure-coded store, how {@link S3Connection} treats each request: a body whose HTTP or
 * aws-chunked framing breaks is never stored, whatever arrived before the break.
 */
class S3ConnectionTest {
  private static final byte[] HELLO = "hello".getBytes(StandardCharsets.US_ASCII);
  private final S3Fixture fixture = new S3Fixture();

  @AfterEach
  void close() {
    fixture.close();
  }

  private byte[] victim() {
    byte[] earlier = S3Fixture.random(16, 100_000);
    fixture.put("victim", earlier);
    return earlier;
  }

  @ParameterizedTest
  @ValueSource(strings = {"1 0", "zz", "FFFFFFFFFFFFFFFFF", "-1", ""})
  void put_whenHttpChunkSizeLineMalformed_answersIncompleteBodyAndKeepsObject(String sizeLine) {
    byte[] earlier = victim();
    try (S3Fixture.Connection c = fixture.connect()) {
      WireRequests.Head head =
          WireRequests.head(
              "PUT", "/bucket/victim", "UNSIGNED-PAYLOAD", Map.of(), "Transfer-Encoding: chunked");
      c.send(concat(head.bytes(), ascii("5\r\nhello\r\n" + sizeLine + "\r\nworld\r\n0\r\n\r\n")));
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response.status()).as("%s", response).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("IncompleteBody");
      assertThat(c.open()).isFalse();
      assertThat(c.allReleased()).isTrue();
    }
    assertThat(fixture.get("victim")).isEqualTo(earlier);
  }

  @ParameterizedTest
  @EnumSource(ContentSha256.Mode.class)
  void put_whenHttpChunkingBreaksAfterACompletePayload_answersIncompleteBodyAndKeepsObject(
      ContentSha256.Mode mode) {
    byte[] earlier = victim();
    WireRequests.Put put =
        WireRequests.put("/bucket/victim", mode, HELLO, "Transfer-Encoding: chunked");
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(concat(put.head().bytes(), httpChunk(put.body()), ascii("zz\r\n")));
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response.status()).as("%s", response).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("IncompleteBody");
      assertThat(c.open()).isFalse();
      assertThat(c.allReleased()).isTrue();
    }
    assertThat(fixture.get("victim")).isEqualTo(earlier);
  }

  @ParameterizedTest
  @EnumSource(ContentSha256.Mode.class)
  void put_whenHttpChunkedInAnyMode_storesPayloadAndKeepsConnection(ContentSha256.Mode mode) {
    victim();
    WireRequests.Put put =
        WireRequests.put("/bucket/victim", mode, HELLO, "Transfer-Encoding: chunked");
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(concat(put.head().bytes(), httpChunk(put.body()), ascii("0\r\n\r\n")));
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response.status()).as("%s", response).isEqualTo(200);
      assertThat(c.open()).isTrue();
    }
    assertThat(fixture.get("victim")).isEqualTo(HELLO);
  }

  @ParameterizedTest
  @EnumSource(
      value = ContentSha256.Mode.class,
      names = {"STREAMING_SIGNED", "STREAMING_SIGNED_TRAILER", "STREAMING_UNSIGNED_TRAILER"})
  void put_whenAwsChunkSizeLineMalformed_answersInvalidRequestAndKeepsObject(
      ContentSha256.Mode mode) {
    byte[] earlier = victim();
    int length = WireRequests.put("/bucket/victim", mode, HELLO).body().length;
    WireRequests.Put put =
        WireRequests.put("/bucket/victim", mode, HELLO, "Content-Length: " + length);
    byte[] body = put.body().clone();
    body[0] = 'z'; // the size line "5..." of the first chunk
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(concat(put.head().bytes(), body));
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response.status()).as("%s", response).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("InvalidRequest");
      assertThat(c.allReleased()).isTrue();
    }
    assertThat(fixture.get("victim")).isEqualTo(earlier);
  }

  @Test
  void get_whenKeyHasNul_answersErrorAsParseableXml() {
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(WireRequests.head("GET", "/bucket/a%00b", SigV4.EMPTY_SHA256, Map.of()).bytes());
      c.runHandlers();

      WireResponse response = c.response();
      // The store refuses NUL in keys today (InvalidArgument); whatever the error, it must parse.
      assertThat(response.status()).as("%s", response).isGreaterThanOrEqualTo(400);
      assertThat(response.xmlText("Resource")).isEqualTo("/bucket/a\uFFFDb");
      assertThat(c.open()).isTrue();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"1180591620717411303424", "-1", "abc", "0x10", "5, 6"})
  void put_whenContentLengthInvalid_answersInvalidArgumentThenCloses(String contentLength) {
    byte[] earlier = victim();
    try (S3Fixture.Connection c = fixture.connect()) {
      WireRequests.Head head =
          WireRequests.head(
              "PUT",
              "/bucket/victim",
              "UNSIGNED-PAYLOAD",
              Map.of(),
              "Content-Length: " + contentLength);
      c.send(concat(head.bytes(), HELLO));
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response).as("a response before the connection closes").isNotNull();
      assertThat(response.status()).as("%s", response).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("InvalidArgument");
      assertThat(response.xmlText("ArgumentName")).isEqualTo("Content-Length");
      assertThat(c.pendingHandlers()).isZero();
      assertThat(c.open()).isFalse();
      assertThat(c.allReleased()).isTrue();
    }
    assertThat(fixture.get("victim")).isEqualTo(earlier);
  }

  @ParameterizedTest
  @ValueSource(strings = {"x-amz-decoded-content-length: abc", "x-amz-decoded-content-length: -5"})
  void put_whenDecodedContentLengthInvalid_answersInvalidArgumentWithoutContinue(String header) {
    byte[] earlier = victim();
    try (S3Fixture.Connection c = fixture.connect()) {
      String[] nameValue = header.split(": ");
      WireRequests.Head head =
          WireRequests.head(
              "PUT",
              "/bucket/victim",
              ContentSha256.Mode.STREAMING_UNSIGNED_TRAILER.headerValue(),
              Map.of(
                  "content-encoding",
                  "aws-chunked",
                  "x-amz-trailer",
                  WireRequests.TRAILER,
                  nameValue[0],
                  nameValue[1]),
              "Content-Length: 100",
              "Expect: 100-continue");
      c.send(head.bytes());
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response).as("a response before the connection closes").isNotNull();
      assertThat(response.status()).as("%s", response).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("InvalidArgument");
      assertThat(c.pendingHandlers()).isZero();
      assertThat(c.open()).isFalse();
    }
    assertThat(fixture.get("victim")).isEqualTo(earlier);
  }

  @Test
  void put_whenAwsChunkedWithoutDecodedLength_answersMissingContentLengthWithoutContinue() {
    try (S3Fixture.Connection c = fixture.connect()) {
      WireRequests.Head head =
          WireRequests.head(
              "PUT",
              "/bucket/victim",
              ContentSha256.Mode.STREAMING_UNSIGNED_TRAILER.headerValue(),
              Map.of("content-encoding", "aws-chunked", "x-amz-trailer", WireRequests.TRAILER),
              "Content-Length: 100",
              "Expect: 100-continue");
      c.send(head.bytes());
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response).as("a response before the connection closes").isNotNull();
      assertThat(response.status()).as("%s", response).isEqualTo(411);
      assertThat(response.errorCode()).isEqualTo("MissingContentLength");
      assertThat(c.open()).isFalse();
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void put_whenDeclaring10TiBWithExpectContinue_answersEntityTooLargeWithout100(
      boolean awsChunked) {
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(WireRequests.declaring("/bucket/huge", 10L << 40, awsChunked).bytes());
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response.status()).as("the first response: %s", response).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("EntityTooLarge");
      assertThat(response.xmlText("MaxSizeAllowed")).isEqualTo(Long.toString(5L << 30));
      assertThat(c.pendingHandlers()).isZero();
      assertThat(c.open()).isFalse();
    }
  }

  @Test
  void uploadPart_whenDeclaring10TiBWithExpectContinue_answersEntityTooLargeWithout100() {
    String uploadId =
        fixture.store.createMultipartUpload(
            S3Fixture.BUCKET, "parts", io.racs.proxy.store.api.ObjectStore.PutOptions.defaults());
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(
          WireRequests.declaring(
                  "/bucket/parts?partNumber=1&uploadId=" + uploadId, 10L << 40, false)
              .bytes());
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response.status()).as("the first response: %s", response).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("EntityTooLarge");
      assertThat(c.open()).isFalse();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"10001", "0", "-1", "abc"})
  void uploadPart_whenPartNumberOutOfRange_answersInvalidArgumentWithout100(String partNumber) {
    String uploadId =
        fixture.store.createMultipartUpload(
            S3Fixture.BUCKET, "parts", io.racs.proxy.store.api.ObjectStore.PutOptions.defaults());
    try (S3Fixture.Connection c = fixture.connect()) {
      WireRequests.Head head =
          WireRequests.head(
              "PUT",
              "/bucket/parts?partNumber=" + partNumber + "&uploadId=" + uploadId,
              "UNSIGNED-PAYLOAD",
              Map.of(),
              "Content-Length: 5",
              "Expect: 100-continue");
      c.send(head.bytes());
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response.status()).as("the first response: %s", response).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("InvalidArgument");
      assertThat(c.pendingHandlers()).isZero();
      assertThat(c.open()).isFalse();
    }
    assertThat(fixture.store.listParts(S3Fixture.BUCKET, "parts", uploadId)).isEmpty();
  }

  @Test
  void expect100_whenSignatureWrong_answers403WithoutContinueAndCloses() {
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(WireRequests.forgedPut("/bucket/forged"));

      WireResponse response = c.response();
      assertThat(response.status()).as("the first response: %s", response).isEqualTo(403);
      assertThat(response.errorCode()).isEqualTo("SignatureDoesNotMatch");
      assertThat(c.pendingHandlers()).isZero();
      assertThat(c.open()).isFalse();
    }
  }

  @Test
  void request_whenHeadTooLong_answersInvalidRequestAndCloses() {
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send("GET /bucket/k HTTP/1.1\r\nHost: h\r\nx-long: " + "a".repeat(20_000) + "\r\n\r\n");

      WireResponse response = c.response();
      assertThat(response.status()).as("%s", response).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("InvalidRequest");
      assertThat(c.open()).isFalse();
      assertThat(c.allReleased()).isTrue();
    }
  }

  @Test
  void keepAlive_whenErrorAfterWholeBody_servesTheNextRequest() {
    byte[] stored = S3Fixture.random(4, 3000);
    fixture.put("kept", stored);
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(
          concat(
              WireRequests.head(
                      "PUT", "/nobucket/k", "UNSIGNED-PAYLOAD", Map.of(), "Content-Length: 5")
                  .bytes(),
              HELLO));
      c.runHandlers();
      WireResponse error = c.response();
      assertThat(error.status()).as("%s", error).isEqualTo(404);
      assertThat(error.errorCode()).isEqualTo("NoSuchBucket");
      assertThat(c.open()).isTrue();

      c.send(WireRequests.head("GET", "/bucket/missing", SigV4.EMPTY_SHA256, Map.of()).bytes());
      c.runHandlers();
      WireResponse missing = c.response();
      assertThat(missing.status()).as("%s", missing).isEqualTo(404);
      assertThat(missing.errorCode()).isEqualTo("NoSuchKey");
      assertThat(c.open()).isTrue();

      c.send(WireRequests.head("GET", "/bucket/kept", SigV4.EMPTY_SHA256, Map.of()).bytes());
      c.runHandlers();
      WireResponse found = c.response();
      assertThat(found.status()).as("%s", found).isEqualTo(200);
      assertThat(found.body()).isEqualTo(stored);
      assertThat(c.open()).isTrue();
      assertThat(c.allReleased()).isTrue();
    }
  }

  @Test
  void put_whenRefusedBeforeItsBodyArrived_readsTheRestOfTheBodyBeforeClosing() {
    // A client that sends its whole body before reading (most do) must get to read the answer: a
    // close with body bytes unread resets the connection under it (a broken pipe, no 404).
    byte[] payload = S3Fixture.random(8, 300_000);
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(
          concat(
              WireRequests.head(
                      "PUT",
                      "/nobucket/k",
                      "UNSIGNED-PAYLOAD",
                      Map.of(),
                      "Content-Length: " + payload.length)
                  .bytes(),
              java.util.Arrays.copyOf(payload, 1000)));
      c.runHandlers();
      WireResponse error = c.response();
      assertThat(error.status()).as("%s", error).isEqualTo(404);
      assertThat(error.errorCode()).isEqualTo("NoSuchBucket");
      assertThat(error.headers().get("connection")).isEqualToIgnoringCase("close");
      assertThat(c.open()).as("open while the body still arrives").isTrue();

      c.send(java.util.Arrays.copyOfRange(payload, 1000, 200_000));
      assertThat(c.open()).isTrue();
      c.send(java.util.Arrays.copyOfRange(payload, 200_000, payload.length));
      assertThat(c.open()).as("closed once the body has ended").isFalse();
      assertThat(c.allReleased()).isTrue();
    }
  }

  @Test
  void put_whenRefusedWithMoreBodyToComeThanTheConnectionLingersFor_closes() {
    int piece = 1 << 20;
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(
          concat(
              WireRequests.head(
                      "PUT",
                      "/nobucket/k",
                      "UNSIGNED-PAYLOAD",
                      Map.of(),
                      "Content-Length: " + (1L << 30))
                  .bytes(),
              new byte[1000]));
      c.runHandlers();
      assertThat(c.response().status()).isEqualTo(404);
      long sent = 0;
      while (c.open() && sent <= S3Connection.LINGER_BYTES) {
        c.send(new byte[piece]);
        sent += piece;
      }
      assertThat(c.open()).isFalse();
      assertThat(sent).isGreaterThan(S3Connection.LINGER_BYTES);
      assertThat(c.allReleased()).isTrue();
    }
  }

  @Test
  void pipelining_whenTwoRequestsInOneRead_answersEachInOrder() {
    byte[] first = S3Fixture.random(5, 1000);
    byte[] second = S3Fixture.random(6, 2000);
    fixture.put("first", first);
    fixture.put("second", second);
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(
          concat(
              WireRequests.head("GET", "/bucket/first", SigV4.EMPTY_SHA256, Map.of()).bytes(),
              WireRequests.head("GET", "/bucket/second", SigV4.EMPTY_SHA256, Map.of()).bytes()));
      assertThat(c.pendingHandlers()).as("the second waits for the first").isOne();
      c.runHandlers();

      assertThat(c.response().body()).isEqualTo(first);
      assertThat(c.response().body()).isEqualTo(second);
      assertThat(c.open()).isTrue();
      assertThat(c.allReleased()).isTrue();
    }
  }

  @Test
  void backpressure_whenBodyOutrunsTheHandler_stopsReadingUntilItDrains() {
    int piece = 64 * 1024;
    int pieces = 2 * RequestBody.HIGH_WATER_BYTES / piece;
    byte[] payload = S3Fixture.random(7, pieces * piece);
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(
          WireRequests.head(
                  "PUT",
                  "/bucket/pressed",
                  "UNSIGNED-PAYLOAD",
                  Map.of(),
                  "Content-Length: " + payload.length)
              .bytes());
      int[] readsAfter = new int[pieces + 1];
      readsAfter[0] = c.reads;
      for (int i = 0; i < pieces; i++) {
        c.send(java.util.Arrays.copyOfRange(payload, i * piece, (i + 1) * piece));
        readsAfter[i + 1] = c.reads;
      }
      int highWater = RequestBody.HIGH_WATER_BYTES / piece;
      // Below the high-water mark each piece asks for the next; from there on, none does.
      assertThat(readsAfter[highWater - 1]).isEqualTo(readsAfter[0] + highWater - 1);
      assertThat(readsAfter[pieces]).isEqualTo(readsAfter[highWater - 1]);

      c.runHandlers();

      assertThat(c.reads)
          .as("reads resume once the handler drained the body")
          .isGreaterThan(readsAfter[pieces]);
      WireResponse response = c.response();
      assertThat(response.status()).as("%s", response).isEqualTo(200);
      assertThat(c.allReleased()).isTrue();
    }
    assertThat(fixture.get("pressed")).isEqualTo(payload);
  }
}
