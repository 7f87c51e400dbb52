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

  /**
   * A signed head declaring {@code bytes} for {@code target}, with {@code Expect: 100-continue}.
   */
  private static WireRequests.Head declaring(String target, long bytes, boolean awsChunked) {
    if (awsChunked) {
      return WireRequests.head(
          "PUT",
          target,
          ContentSha256.Mode.STREAMING_UNSIGNED_TRAILER.headerValue(),
          Map.of(
              "content-encoding",
              "aws-chunked",
              "x-amz-trailer",
              WireRequests.TRAILER,
              "x-amz-decoded-content-length",
              Long.toString(bytes)),
          "Content-Length: " + (bytes + 1000),
          "Expect: 100-continue");
    }
    return WireRequests.head(
        "PUT",
        target,
        "UNSIGNED-PAYLOAD",
        Map.of(),
        "Content-Length: " + bytes,
        "Expect: 100-continue");
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void put_whenDeclaring10TiBWithExpectContinue_answersEntityTooLargeWithout100(
      boolean awsChunked) {
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(declaring("/bucket/huge", 10L << 40, awsChunked).bytes());
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
            S3Fixture.BUCKET, "parts", io.racs.proxy.store.ObjectStore.PutOptions.defaults());
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(
          declaring("/bucket/parts?partNumber=1&uploadId=" + uploadId, 10L << 40, false).bytes());
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response.status()).as("the first response: %s", response).isEqualTo(400);
      assertThat(response.errorCode()).isEqualTo("EntityTooLarge");
      assertThat(c.open()).isFalse();
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void put_whenDeclaringExactly5GiBWithExpectContinue_answers100(boolean awsChunked) {
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(declaring("/bucket/big", 5L << 30, awsChunked).bytes());

      WireResponse response = c.response();
      assertThat(response.status()).as("%s", response).isEqualTo(100);
      assertThat(c.pendingHandlers()).isOne();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"10001", "0", "-1", "abc"})
  void uploadPart_whenPartNumberOutOfRange_answersInvalidArgumentWithout100(String partNumber) {
    String uploadId =
        fixture.store.createMultipartUpload(
            S3Fixture.BUCKET, "parts", io.racs.proxy.store.ObjectStore.PutOptions.defaults());
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
}
