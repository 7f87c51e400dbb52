package io.racs.proxy.s3.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.racs.proxy.s3.chunked.PlainBodyDecoder;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Proves the request body's own guarantees: a body whose length no header declares still stops at
 * its limit with {@code EntityTooLarge}, a failure wakes the reader instead of ending the body, and
 * the event loop is asked for more only below the high-water mark.
 */
class RequestBodyTest {
  private static RequestBody body(long maxBytes, AtomicInteger requested) {
    return new RequestBody(
        sink -> PlainBodyDecoder.unsigned(-1, sink), null, requested::incrementAndGet, maxBytes);
  }

  private static ByteBuf bytes(int n) {
    return Unpooled.wrappedBuffer(new byte[n]);
  }

  @Test
  void read_whenUndeclaredBodyExceedsLimit_failsWithEntityTooLarge() throws IOException {
    RequestBody body = body(10, new AtomicInteger());
    body.offer(bytes(6), false);
    body.offer(bytes(6), true);

    assertThat(body.readNBytes(6)).hasSize(6);
    assertThatThrownBy(body::read)
        .isInstanceOf(IOException.class)
        .cause()
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.ENTITY_TOO_LARGE));
    body.close();
  }

  @Test
  void read_whenBodyAtLimit_endsNormally() throws IOException {
    RequestBody body = body(10, new AtomicInteger());
    body.offer(bytes(4), false);
    body.offer(bytes(6), true);

    assertThat(body.readAllBytes()).hasSize(10);
    body.close();
  }

  @Test
  void read_whenFailedAfterSomeBytes_throwsInsteadOfEnding() throws IOException {
    RequestBody body = body(Long.MAX_VALUE, new AtomicInteger());
    ByteBuf first = bytes(5);
    body.offer(first, false);
    body.fail(S3Exception.of(S3ErrorCode.INCOMPLETE_BODY));

    assertThatThrownBy(body::readAllBytes)
        .isInstanceOf(IOException.class)
        .cause()
        .isInstanceOfSatisfying(
            S3Exception.class, e -> assertThat(e.code()).isEqualTo(S3ErrorCode.INCOMPLETE_BODY));
    assertThat(first.refCnt()).isZero();
  }

  @Test
  void offer_whenQueuedReachesHighWater_asksForMoreOnlyAfterDraining() throws IOException {
    AtomicInteger requested = new AtomicInteger();
    RequestBody body = body(Long.MAX_VALUE, requested);
    int piece = 64 * 1024;
    int pieces = 0;
    while (body.offer(bytes(piece), false)) {
      pieces++;
    }
    pieces++;
    assertThat((long) pieces * piece).isEqualTo(RequestBody.HIGH_WATER_BYTES);
    assertThat(requested).hasValue(0);

    body.readNBytes(RequestBody.HIGH_WATER_BYTES / 2 - piece);
    assertThat(requested).hasValue(0);
    body.readNBytes(2 * piece);
    assertThat(requested).hasValue(1);
    body.close();
  }
}
