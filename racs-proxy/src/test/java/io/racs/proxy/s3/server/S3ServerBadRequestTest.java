package io.racs.proxy.s3.server;

import static io.racs.proxy.s3.server.WireRequests.ascii;
import static io.racs.proxy.s3.server.WireRequests.concat;
import static io.racs.proxy.s3.server.WireRequests.httpChunk;
import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.auth.ContentSha256;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves, through a real server on a random 127.0.0.1 port and raw sockets, that malformed requests
 * end in the right S3 error and change nothing: an earlier object under the same key is intact
 * afterwards.
 */
class S3ServerBadRequestTest {
  private static final byte[] HELLO = "hello".getBytes(StandardCharsets.US_ASCII);
  private static S3Fixture fixture;
  private static S3Server server;

  @BeforeAll
  static void start() throws InterruptedException {
    fixture = new S3Fixture();
    server = S3Server.start(fixture.settings);
  }

  @AfterAll
  static void stop() {
    server.close();
    fixture.close();
  }

  private static byte[] victim(String key) {
    byte[] earlier = S3Fixture.random(key.hashCode(), 100_000);
    fixture.put(key, earlier);
    return earlier;
  }

  /** Sends {@code request} on a new connection; returns the response, then checks the close. */
  private static WireResponse exchangeThenClosed(byte[] request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request);
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      WireResponse response = WireResponse.read(in);
      assertThat(response).as("a response before the connection closes").isNotNull();
      assertThat(in.read()).as("the connection closes after %s", response).isEqualTo(-1);
      return response;
    }
  }

  /** Sends {@code request} on a new connection and returns the first response. */
  private static WireResponse exchange(byte[] request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request);
      socket.getOutputStream().flush();
      WireResponse response = WireResponse.read(socket.getInputStream());
      assertThat(response).as("a response").isNotNull();
      return response;
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"1 0", "zz", "FFFFFFFFFFFFFFFFF"})
  void put_whenHttpChunkSizeLineMalformed_answersIncompleteBodyAndKeepsObject(String sizeLine)
      throws IOException {
    byte[] earlier = victim("chunk-line");
    WireRequests.Head head =
        WireRequests.head(
            "PUT",
            "/bucket/chunk-line",
            "UNSIGNED-PAYLOAD",
            Map.of(),
            "Transfer-Encoding: chunked");

    WireResponse response =
        exchangeThenClosed(
            concat(head.bytes(), ascii("5\r\nhello\r\n" + sizeLine + "\r\nworld\r\n0\r\n\r\n")));

    assertThat(response.status()).as("%s", response).isEqualTo(400);
    assertThat(response.errorCode()).isEqualTo("IncompleteBody");
    assertThat(fixture.get("chunk-line")).isEqualTo(earlier);
  }

  @ParameterizedTest
  @EnumSource(ContentSha256.Mode.class)
  void put_whenHttpChunkingBreaksAfterACompletePayload_answersIncompleteBodyAndKeepsObject(
      ContentSha256.Mode mode) throws IOException {
    byte[] earlier = victim("nested-" + mode);
    WireRequests.Put put =
        WireRequests.put("/bucket/nested-" + mode, mode, HELLO, "Transfer-Encoding: chunked");

    WireResponse response =
        exchangeThenClosed(concat(put.head().bytes(), httpChunk(put.body()), ascii("zz\r\n")));

    assertThat(response.status()).as("%s", response).isEqualTo(400);
    assertThat(response.errorCode()).isEqualTo("IncompleteBody");
    assertThat(fixture.get("nested-" + mode)).isEqualTo(earlier);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1180591620717411303424", "-1", "abc"})
  void put_whenContentLengthInvalid_answersInvalidArgumentThenCloses(String contentLength)
      throws IOException {
    byte[] earlier = victim("bad-length");
    WireRequests.Head head =
        WireRequests.head(
            "PUT",
            "/bucket/bad-length",
            "UNSIGNED-PAYLOAD",
            Map.of(),
            "Content-Length: " + contentLength);

    WireResponse response = exchangeThenClosed(concat(head.bytes(), HELLO));

    assertThat(response.status()).as("%s", response).isEqualTo(400);
    assertThat(response.errorCode()).isEqualTo("InvalidArgument");
    assertThat(fixture.get("bad-length")).isEqualTo(earlier);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void put_whenDeclaring10TiBWithExpectContinue_answersEntityTooLargeWithout100(boolean awsChunked)
      throws IOException {
    WireRequests.Head head = WireRequests.declaring("/bucket/huge", 10L << 40, awsChunked);

    WireResponse response = exchangeThenClosed(head.bytes());

    assertThat(response.status()).as("the first response: %s", response).isEqualTo(400);
    assertThat(response.errorCode()).isEqualTo("EntityTooLarge");
  }

  @ParameterizedTest
  @ValueSource(strings = {"10001", "0", "-1", "abc"})
  void uploadPart_whenPartNumberOutOfRange_answersInvalidArgumentAndStoresNothing(String partNumber)
      throws IOException {
    String uploadId =
        fixture.store.createMultipartUpload(
            S3Fixture.BUCKET, "parts", io.racs.proxy.store.api.ObjectStore.PutOptions.defaults());
    WireRequests.Head head =
        WireRequests.head(
            "PUT",
            "/bucket/parts?partNumber=" + partNumber + "&uploadId=" + uploadId,
            "UNSIGNED-PAYLOAD",
            Map.of(),
            "Content-Length: 5");

    WireResponse response = exchange(concat(head.bytes(), HELLO));

    assertThat(response.status()).as("%s", response).isEqualTo(400);
    assertThat(response.errorCode()).isEqualTo("InvalidArgument");
    assertThat(fixture.store.listParts(S3Fixture.BUCKET, "parts", uploadId)).isEmpty();
  }

  /**
   * The s3-tests finding: a head refused before any body is read, from a client that sends its body
   * without waiting for 100 Continue. The connection drains the body before it closes, so the whole
   * body is written without a reset and the client reads the error, then the close.
   */
  @Test
  void put_whenRefusedAtItsHeadWithABodyOnTheWay_drainsItAndTheClientReadsTheError()
      throws Exception {
    byte[] earlier = victim("forged");
    int length = 4 << 20; // far more than the socket buffers hold: the writer blocks on the server
    WireRequests.Head head =
        WireRequests.head(
            "PUT", "/bucket/forged", "UNSIGNED-PAYLOAD", Map.of(), "Content-Length: " + length);
    byte[] forged =
        head.text()
            .replaceFirst("Signature=[0-9a-f]", "Signature=x")
            .getBytes(StandardCharsets.US_ASCII);
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      java.util.concurrent.CompletableFuture<Void> sent =
          java.util.concurrent.CompletableFuture.runAsync(
              () -> {
                try {
                  socket.getOutputStream().write(forged);
                  socket.getOutputStream().write(new byte[length]);
                  socket.getOutputStream().flush();
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
      InputStream in = socket.getInputStream();
      WireResponse response = WireResponse.read(in);
      assertThat(response).as("the error, before the close").isNotNull();
      assertThat(response.status()).as("%s", response).isEqualTo(403);
      assertThat(response.errorCode()).isEqualTo("SignatureDoesNotMatch");
      assertThat(response.headers().get("connection")).isEqualToIgnoringCase("close");
      sent.get(10, java.util.concurrent.TimeUnit.SECONDS); // no reset under the body
      assertThat(in.read()).as("the close, once the body was drained").isEqualTo(-1);
    }
    assertThat(fixture.get("forged")).isEqualTo(earlier);
  }
}
