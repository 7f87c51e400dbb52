package io.racs.proxy.s3.server;

import static io.racs.proxy.s3.server.WireRequests.concat;
import static io.racs.proxy.s3.server.WireServer.signedHead;
import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.server.WireServer.Response;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Proves that a signed PUT whose {@code x-amz-decoded-content-length} is no length is answered at
 * once with 400 InvalidArgument and ends like every request: the server counts it finished. Found
 * by ServerWireFuzzTest: the body decoder's refusal of the header escaped the connection handler,
 * which closed the connection without an answer and left the request counted in flight forever (a
 * graceful shutdown then always waited its whole drain timeout).
 */
class S3ConnectionLengthHeadersTest {
  private static WireServer server;

  @BeforeAll
  static void start() throws Exception {
    server = WireServer.start();
    assertThat(
            server.exchangeOne(signedHead("PUT", "/bkt", Map.of("Content-Length", "0"))).status())
        .isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Response put(String sha256Mode, String decodedLength, byte[] body)
      throws Exception {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("x-amz-content-sha256", sha256Mode);
    headers.put("x-amz-decoded-content-length", decodedLength);
    headers.put("Content-Length", Integer.toString(body.length));
    return server.exchangeOne(concat(signedHead("PUT", "/bkt/k", headers), body));
  }

  @Test
  void put_whenAwsChunkedDecodedLengthNegative_invalidArgumentAndRequestEnds() throws Exception {
    Response r =
        put(
            "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
            "-1",
            "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(r).isNotNull();
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.text()).contains("<Code>InvalidArgument</Code>");
    server.assertIdle("a negative x-amz-decoded-content-length");
  }

  @Test
  void put_whenPlainBodyDecodedLengthNotANumber_invalidArgumentAndRequestEnds() throws Exception {
    Response r = put("UNSIGNED-PAYLOAD", "12a", "hello".getBytes(StandardCharsets.US_ASCII));
    assertThat(r).isNotNull();
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.text()).contains("<Code>InvalidArgument</Code>");
    server.assertIdle("an x-amz-decoded-content-length of 12a");
  }
}
