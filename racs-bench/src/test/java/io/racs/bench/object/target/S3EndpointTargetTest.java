package io.racs.bench.object.target;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import io.racs.bench.object.target.S3EndpointTarget.Payload;
import io.racs.bench.object.workload.Content;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves what each {@link Payload} puts on the wire for a PUT, recorded by a plain HTTP server:
 * signed aws-chunked in 64 KiB chunks without a checksum or {@code Expect}, UNSIGNED-PAYLOAD with
 * the body as it is, and the SDK's defaults with a CRC32 trailer and {@code Expect: 100-continue}.
 * (That MinIO accepts the signatures of each is proved by {@code ObjectMinioIT}.)
 */
class S3EndpointTargetTest {
  /** Above the SDK's 1 MiB threshold for {@code Expect: 100-continue}, not a whole chunk. */
  private static final int SIZE = 1_100_000;

  private static final long SEED = Content.seed(5, "k", 1);

  private record Recorded(String method, String path, Headers headers, byte[] body) {}

  private final List<Recorded> requests = new ArrayList<>();
  private HttpServer server;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext(
        "/",
        exchange -> {
          try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            synchronized (requests) {
              requests.add(
                  new Recorded(
                      exchange.getRequestMethod(),
                      exchange.getRequestURI().getPath(),
                      exchange.getRequestHeaders(),
                      body));
            }
            exchange.getResponseHeaders().set("ETag", "\"0\"");
            exchange.sendResponseHeaders(200, -1);
          }
        });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private Recorded put(Payload payload) {
    URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    try (S3EndpointTarget target =
            S3EndpointTarget.of(
                new S3EndpointTarget.Endpoint(
                    "fake", uri, "AKID", "SECRET", "us-east-1", "b", payload));
        Target.Client client = target.client(0)) {
      client.put("k", Content.stream(SEED, SIZE), SIZE);
    }
    synchronized (requests) {
      return requests.stream().filter(r -> r.method().equals("PUT")).findFirst().orElseThrow();
    }
  }

  private static byte[] content() throws Exception {
    try (InputStream in = Content.stream(SEED, SIZE)) {
      return in.readAllBytes();
    }
  }

  /** The data of an aws-chunked body: each chunk is {@code hex-size;ext CRLF data CRLF}. */
  private static byte[] unchunk(byte[] body) {
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    int i = 0;
    while (true) {
      int eol = indexOfCrlf(body, i);
      String header = new String(body, i, eol - i, StandardCharsets.US_ASCII);
      int size = Integer.parseInt(header.split(";", 2)[0], 16);
      if (size == 0) {
        return data.toByteArray();
      }
      data.write(body, eol + 2, size);
      i = eol + 2 + size + 2;
    }
  }

  private static int indexOfCrlf(byte[] b, int from) {
    for (int i = from; i + 1 < b.length; i++) {
      if (b[i] == '\r' && b[i + 1] == '\n') {
        return i;
      }
    }
    throw new AssertionError("no CRLF after " + from);
  }

  @Test
  void put_whenSigned_sendsSignedChunksWithoutChecksumOrExpect() throws Exception {
    Recorded r = put(Payload.SIGNED);
    assertThat(r.path()).isEqualTo("/b/k");
    Headers h = r.headers();
    assertThat(h.getFirst("x-amz-content-sha256")).isEqualTo("STREAMING-AWS4-HMAC-SHA256-PAYLOAD");
    assertThat(h.getFirst("Content-Encoding")).isEqualTo("aws-chunked");
    assertThat(h.getFirst("x-amz-decoded-content-length")).isEqualTo(Integer.toString(SIZE));
    assertThat(h.containsKey("x-amz-trailer")).isFalse();
    assertThat(h.containsKey("Expect")).isFalse();
    assertThat(new String(r.body(), 0, 100, StandardCharsets.US_ASCII))
        .matches("(?s)10000;chunk-signature=[0-9a-f]{64}\r\n.*");
    assertThat(unchunk(r.body())).isEqualTo(content());
  }

  @Test
  void put_whenUnsigned_sendsTheBodyAsItIs() throws Exception {
    Recorded r = put(Payload.UNSIGNED);
    Headers h = r.headers();
    assertThat(h.getFirst("x-amz-content-sha256")).isEqualTo("UNSIGNED-PAYLOAD");
    assertThat(h.getFirst("Content-Length")).isEqualTo(Integer.toString(SIZE));
    assertThat(h.getFirst("Authorization"))
        .startsWith("AWS4-HMAC-SHA256 Credential=AKID/")
        .contains("x-amz-content-sha256");
    assertThat(h.containsKey("Content-Encoding")).isFalse();
    assertThat(h.containsKey("x-amz-trailer")).isFalse();
    assertThat(h.containsKey("Expect")).isFalse();
    assertThat(h.keySet().stream().map(String::toLowerCase))
        .noneMatch(k -> k.startsWith("x-amz-checksum") || k.startsWith("x-amz-sdk-checksum"));
    assertThat(r.body()).isEqualTo(content());
  }

  @Test
  void put_whenSdk_sendsTheSdkDefaults() throws Exception {
    Recorded r = put(Payload.SDK);
    Headers h = r.headers();
    assertThat(h.getFirst("x-amz-content-sha256"))
        .isEqualTo("STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER");
    assertThat(h.getFirst("x-amz-trailer")).isEqualTo("x-amz-checksum-crc32");
    assertThat(h.getFirst("Expect")).isEqualToIgnoringCase("100-continue");
    assertThat(unchunk(r.body())).isEqualTo(content());
  }

  @Test
  void parse_whenUnknown_failsWithTheChoices() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Payload.parse("chunked"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--payload: chunked (expected: signed, unsigned or sdk)");
  }
}
