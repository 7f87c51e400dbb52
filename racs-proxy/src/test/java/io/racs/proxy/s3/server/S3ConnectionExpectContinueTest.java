package io.racs.proxy.s3.server;

import static io.racs.proxy.s3.server.WireRequests.concat;
import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.auth.SigV4;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves, through the real HTTP codec in an {@link io.netty.channel.embedded.EmbeddedChannel}, that
 * {@link S3Connection} sends {@code 100 Continue} and asks the socket for a body only once the
 * handler reads that body: a request the handler refuses first (the bucket's policy, a failed
 * precondition) is answered with its final status and no 100, never hangs, and closes the
 * connection, and body bytes a client sends anyway are thrown away, never read as a request.
 */
class S3ConnectionExpectContinueTest {
  private static final String DENY_PUTS =
      """
      {"Version": "2012-10-17", "Statement": [{"Effect": "Deny", "Principal": "*",
        "Action": "s3:PutObject", "Resource": "arn:aws:s3:::bucket/denied/*"}]}
      """;

  private final S3Fixture fixture = new S3Fixture();

  @AfterEach
  void close() {
    fixture.close();
  }

  private static WireRequests.Head expecting(String target, int length, String... more) {
    String[] lines = new String[more.length + 2];
    lines[0] = "Content-Length: " + length;
    lines[1] = "Expect: 100-continue";
    System.arraycopy(more, 0, lines, 2, more.length);
    return WireRequests.head("PUT", target, "UNSIGNED-PAYLOAD", Map.of(), lines);
  }

  @Test
  void expect100_whenHandlerReadsTheBody_sends100OnlyThenAndStores() {
    byte[] payload = S3Fixture.random(3, 70_000);
    try (S3Fixture.Connection c = fixture.connect()) {
      int reads = c.reads;
      c.send(expecting("/bucket/continued", payload.length).bytes());
      assertThat(c.response()).as("no 100 before the handler asks for the body").isNull();
      assertThat(c.reads).as("no socket read for a body not asked for").isEqualTo(reads);

      // The embedded channel delivers bytes whether or not they were asked for: the body is there
      // when the handler first reads, which is when the 100 goes out.
      c.send(payload).runHandlers();

      WireResponse first = c.response();
      assertThat(first.status()).as("%s", first).isEqualTo(100);
      WireResponse stored = c.response();
      assertThat(stored.status()).as("%s", stored).isEqualTo(200);
      assertThat(c.open()).isTrue();
      assertThat(c.allReleased()).isTrue();
    }
    assertThat(fixture.get("continued")).isEqualTo(payload);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void put_whenDeclaringExactly5GiBWithExpectContinue_isAdmitted(boolean awsChunked) {
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(WireRequests.declaring("/bucket/big", 5L << 30, awsChunked).bytes());

      assertThat(c.response()).as("not refused at its head").isNull();
      assertThat(c.pendingHandlers()).isOne();
      assertThat(c.open()).isTrue();
    }
  }

  @Test
  void expect100_whenDeniedByBucketPolicy_answers403Without100AndNeverReadsABodySentAnyway() {
    fixture.store.policies().put(S3Fixture.BUCKET, DENY_PUTS);
    // The body a client whose wait for the 100 ran out sends anyway: were it read as the next
    // request, it would store an object.
    byte[] smuggled =
        WireRequests.head(
                "PUT", "/bucket/smuggled", "UNSIGNED-PAYLOAD", Map.of(), "Content-Length: 0")
            .bytes();
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(expecting("/bucket/denied/k", smuggled.length).bytes());
      c.runHandlers();

      WireResponse denied = c.response();
      assertThat(denied.status()).as("the first response: %s", denied).isEqualTo(403);
      assertThat(denied.errorCode()).isEqualTo("AccessDenied");
      assertThat(denied.headers().get("connection")).isEqualToIgnoringCase("close");
      assertThat(c.open()).as("open while a body may still come").isTrue();

      c.send(smuggled).runHandlers();

      assertThat(c.response()).as("no answer to bytes of the body").isNull();
      assertThat(c.pendingHandlers()).isZero();
      assertThat(c.open()).as("closed once the declared body has ended").isFalse();
      assertThat(c.allReleased()).isTrue();
    }
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(WireRequests.head("GET", "/bucket/smuggled", SigV4.EMPTY_SHA256, Map.of()).bytes());
      c.runHandlers();
      assertThat(c.response().status()).isEqualTo(404);
    }
  }

  @Test
  void expect100_whenHandlerRefusesBeforeReading_answersWithout100AndDoesNotHang() {
    byte[] earlier = S3Fixture.random(9, 1000);
    fixture.put("kept", earlier);
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(expecting("/bucket/kept", 1 << 20, "If-None-Match: *").bytes());
      c.runHandlers(); // fails the test if the handler waits for the body

      WireResponse refused = c.response();
      assertThat(refused.status()).as("the first response: %s", refused).isEqualTo(412);
      assertThat(refused.errorCode()).isEqualTo("PreconditionFailed");
      assertThat(refused.headers().get("connection")).isEqualToIgnoringCase("close");
      assertThat(c.response()).as("nothing after the answer").isNull();
    }
    assertThat(fixture.get("kept")).isEqualTo(earlier);
  }

  @Test
  void expect100_whenWholeBodyCameWithTheHead_answersWithout100AndKeepsTheConnection() {
    // A client that does not wait for the 100 sends its body at once; framed in full, the
    // connection stays usable even though the handler never asked for the body.
    byte[] earlier = S3Fixture.random(10, 1000);
    fixture.put("kept", earlier);
    try (S3Fixture.Connection c = fixture.connect()) {
      c.send(concat(expecting("/bucket/kept", 5, "If-None-Match: *").bytes(), new byte[5]));
      c.runHandlers();
      assertThat(c.response().status()).isEqualTo(412);

      c.send(WireRequests.head("GET", "/bucket/kept", SigV4.EMPTY_SHA256, Map.of()).bytes());
      c.runHandlers();
      WireResponse found = c.response();
      assertThat(found.status()).as("%s", found).isEqualTo(200);
      assertThat(found.body()).isEqualTo(earlier);
      assertThat(c.allReleased()).isTrue();
    }
  }
}
