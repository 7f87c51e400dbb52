package io.racs.proxy.s3.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.handler.S3Dispatcher;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves, through the real HTTP codec in an embedded channel, what a proxy whose array is not open
 * yet answers: a signed PUT that expects {@code 100 Continue} gets the final 503 {@code
 * ServiceUnavailable} at once, with {@code Retry-After}, and no 100 (so its body is never sent); a
 * forged signature is still refused for what it is; once the gate opens, the same request is told
 * to send its body when its handler reads it.
 */
class ServiceGateTest {
  private final S3Fixture fixture = new S3Fixture();
  private final ServiceGate gate = ServiceGate.closed();
  private final S3Server.Settings settings =
      new S3Server.Settings(
          "127.0.0.1",
          0,
          fixture.settings.router(),
          fixture.settings.authenticator(),
          gate,
          null,
          fixture.settings.maxHeaderBytes(),
          fixture.settings.idleTimeout(),
          fixture.settings.drainTimeout(),
          new ServerMetrics(),
          AccessLog.off(),
          Transport.AUTO);

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void put_whenGateClosed_answers503WithRetryAfterWithout100() {
    try (S3Fixture.Connection c = new S3Fixture.Connection(settings)) {
      c.send(WireRequests.declaring("/bucket/early", 5, false).bytes());
      c.runHandlers();

      WireResponse response = c.response();
      assertThat(response.status()).as("the first response: %s", response).isEqualTo(503);
      assertThat(response.errorCode()).isEqualTo("ServiceUnavailable");
      assertThat(response.headers()).containsKey("retry-after");
      assertThat(response.xmlText("RequestId")).isNotBlank();
      assertThat(c.pendingHandlers()).isZero();
    }
    assertThat(gate.isOpen()).isFalse();
  }

  @Test
  void put_whenGateClosedAndSignatureForged_answers403() {
    try (S3Fixture.Connection c = new S3Fixture.Connection(settings)) {
      c.send(WireRequests.forgedPut("/bucket/forged"));

      assertThat(c.response().status()).isEqualTo(403);
    }
  }

  @Test
  void put_onceGateOpens_answers100AsItsBodyIsReadAndStores() {
    gate.openTo(new S3Dispatcher(new StoreBridge(fixture.store), "us-east-1"));
    try (S3Fixture.Connection c = new S3Fixture.Connection(settings)) {
      c.send(WireRequests.declaring("/bucket/later", 5, false).bytes());
      assertThat(c.pendingHandlers()).isOne();
      // The embedded channel delivers the body before the handler asks for it (and sends the 100).
      c.send("hello").runHandlers();

      assertThat(c.response().status()).isEqualTo(100);
      assertThat(c.response().status()).isEqualTo(200);
    }
    assertThat(fixture.get("later")).isEqualTo("hello".getBytes(StandardCharsets.US_ASCII));
    assertThatThrownBy(
            () -> gate.openTo(new S3Dispatcher(new StoreBridge(fixture.store), "us-east-1")))
        .isInstanceOf(IllegalStateException.class);
  }
}
