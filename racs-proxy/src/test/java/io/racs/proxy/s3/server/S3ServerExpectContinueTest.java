package io.racs.proxy.s3.server;

import static io.racs.proxy.s3.server.WireServer.signedHead;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Proves on a real server's socket that {@code Expect: 100-continue} is answered as S3 and MinIO
 * answer it: a PUT refused before its handler wants the body (denied by the bucket's policy, or to
 * a bucket that does not exist) gets its final error as the first response on the wire, with no
 * 100, while the client has sent none of its body, and the connection closes; an allowed PUT gets
 * the 100, then its 200, and is stored; and a client that sends the body anyway after a refusal
 * (its wait for the 100 ran out) cannot have it read as a request.
 */
class S3ServerExpectContinueTest {
  private static final String BUCKET = "bkt";
  private static final String DENY_PUTS =
      """
      {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": "*",
        "Action": "s3:PutObject", "Resource": "arn:aws:s3:::bkt/denied/*"}]}
      """;
  private static WireServer server;

  @BeforeAll
  static void start() throws Exception {
    server = WireServer.start();
    server.store().createBucket(BUCKET);
    server.store().policies().put(BUCKET, DENY_PUTS);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static byte[] expecting(String path, int length) {
    return signedHead(
        "PUT", path, Map.of("Content-Length", Integer.toString(length), "Expect", "100-continue"));
  }

  private static int statusOf(String method, String path) throws Exception {
    return server.exchangeOne(signedHead(method, path, Map.of())).status();
  }

  /** Sends a PUT head expecting 100 and checks the first response, the body still unsent. */
  private static void refusedHead(
      Socket socket, InputStream in, String path, int length, int status, String code)
      throws Exception {
    socket.getOutputStream().write(expecting(path, length));
    WireResponse first = WireResponse.read(in);
    assertThat(first).as("an answer to the head alone").isNotNull();
    assertThat(first.status()).as("the first response: %s", first).isEqualTo(status);
    assertThat(first.errorCode()).isEqualTo(code);
    assertThat(first.headers().get("connection")).isEqualToIgnoringCase("close");
  }

  @Test
  void put_whenDeniedByBucketPolicy_answers403AccessDeniedWithout100() throws Exception {
    try (Socket socket = server.connect()) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      refusedHead(socket, in, "/bkt/denied/k", 1 << 20, 403, "AccessDenied");
      socket.shutdownOutput(); // a client that honours the expectation sends no body
      assertThat(WireResponse.read(in)).as("nothing after the answer").isNull();
    }
    server.assertIdle("a denied PUT expecting 100");
    assertThat(statusOf("GET", "/bkt/denied/k")).as("nothing stored").isEqualTo(404);
  }

  @Test
  void put_whenBucketMissing_answers404NoSuchBucketWithout100() throws Exception {
    try (Socket socket = server.connect()) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      refusedHead(socket, in, "/nobucket/k", 1 << 20, 404, "NoSuchBucket");
      socket.shutdownOutput();
      assertThat(WireResponse.read(in)).as("nothing after the answer").isNull();
    }
    server.assertIdle("a PUT expecting 100 to a missing bucket");
  }

  @Test
  void put_whenAllowed_answers100ThenStoresAndKeepsTheConnection() throws Exception {
    byte[] body = S3Fixture.random(41, 300_000);
    try (Socket socket = server.connect()) {
      OutputStream out = socket.getOutputStream();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      out.write(expecting("/bkt/allowed/k", body.length));
      WireResponse first = WireResponse.read(in);
      assertThat(first.status()).as("%s", first).isEqualTo(100);

      out.write(body);
      WireResponse stored = WireResponse.read(in);
      assertThat(stored.status()).as("%s", stored).isEqualTo(200);

      out.write(signedHead("GET", "/bkt/allowed/k", Map.of()));
      WireResponse got = WireResponse.read(in);
      assertThat(got.status()).as("%s", got).isEqualTo(200);
      assertThat(got.body()).isEqualTo(body);
    }
  }

  @Test
  void put_whenClientSendsTheBodyAnywayAfterARefusal_neverReadsItAsARequest() throws Exception {
    // Were the body read as the next request, this PUT would store an object.
    byte[] smuggled = signedHead("PUT", "/bkt/allowed/smuggled", Map.of("Content-Length", "0"));
    try (Socket socket = server.connect()) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      refusedHead(socket, in, "/bkt/denied/k2", smuggled.length, 403, "AccessDenied");
      socket.getOutputStream().write(smuggled);
      assertThat(WireResponse.read(in)).as("no answer to bytes of the body").isNull();
    }
    server.assertIdle("a body sent after its refusal");
    assertThat(statusOf("GET", "/bkt/allowed/smuggled")).as("nothing stored").isEqualTo(404);
  }
}
