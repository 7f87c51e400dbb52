package io.racs.bench.object.target.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.racs.bench.object.target.ErrorKinds;
import io.racs.bench.object.workload.Content;
import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.auth.StaticCredentialStore;
import io.racs.proxy.s3.chunked.BodyDecoder;
import io.racs.proxy.s3.chunked.BodyDecoders;
import io.racs.proxy.s3.chunked.ChunkedLimits;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves the bench's S3 client against a scripted HTTP server: signed bodies framed in 64 KiB
 * chunks whose request and chunk signatures the proxy's own verifier ({@link S3Authenticator} and
 * the aws-chunked decoder) accepts, and refuses once a byte changes; unsigned bodies sent as they
 * are, one connection reused across requests, ranged GETs with chunked answers, error answers named
 * by status and S3 code, HEAD's 404 as "missing", LIST's KeyCount, a new connection after a body is
 * abandoned, and a refused connection named as a request without an answer.
 */
class S3HttpClientTest {
  private static final long SEED = Content.seed(9, "k", 1);

  private record Seen(String method, String uri, int remotePort, String range, byte[] body) {}

  private final List<Seen> seen = new ArrayList<>();
  private final List<HttpExchange> exchanges = new ArrayList<>();
  private HttpServer server;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", this::answer);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void answer(HttpExchange e) throws IOException {
    try (e) {
      byte[] body = e.getRequestBody().readAllBytes();
      String path = e.getRequestURI().getRawPath();
      synchronized (seen) {
        seen.add(
            new Seen(
                e.getRequestMethod(),
                e.getRequestURI().toString(),
                e.getRemoteAddress().getPort(),
                e.getRequestHeaders().getFirst("Range"),
                body));
        exchanges.add(e);
      }
      String method = e.getRequestMethod();
      if (path.endsWith("/missing")) {
        byte[] xml =
            "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code><Message>gone</Message></Error>"
                .getBytes(StandardCharsets.UTF_8);
        e.sendResponseHeaders(404, method.equals("HEAD") ? -1 : xml.length);
        if (!method.equals("HEAD")) {
          e.getResponseBody().write(xml);
        }
      } else if (method.equals("GET") && e.getRequestURI().getRawQuery() != null) {
        byte[] xml =
            "<ListBucketResult><KeyCount>3</KeyCount><Contents><Key>a</Key></Contents>"
                .getBytes(StandardCharsets.UTF_8);
        e.sendResponseHeaders(200, xml.length);
        e.getResponseBody().write(xml);
      } else if (method.equals("GET")) {
        // 100,000 bytes of the object from the requested offset, in chunked transfer coding.
        String range = e.getRequestHeaders().getFirst("Range");
        long offset = range == null ? 0 : Long.parseLong(range.replaceAll("bytes=(\\d+)-.*", "$1"));
        byte[] data = new byte[100_000];
        Content.fill(SEED, offset, data, 0, data.length);
        e.sendResponseHeaders(range == null ? 200 : 206, 0);
        try (OutputStream out = e.getResponseBody()) {
          out.write(data);
        }
      } else if (method.equals("DELETE")) {
        e.sendResponseHeaders(204, -1);
      } else {
        e.sendResponseHeaders(200, -1);
      }
    }
  }

  private URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  private S3HttpClient client(boolean signed) {
    return new S3HttpClient(uri(), "b", "AKID", "SECRET", "us-east-1", signed);
  }

  private static byte[] content(long offset, int length) {
    byte[] b = new byte[length];
    Content.fill(SEED, offset, b, 0, length);
    return b;
  }

  private Seen last(String method) {
    synchronized (seen) {
      for (int i = seen.size() - 1; i >= 0; i--) {
        if (seen.get(i).method().equals(method)) {
          return seen.get(i);
        }
      }
    }
    throw new AssertionError("no " + method);
  }

  private String header(String method, String name) {
    synchronized (seen) {
      for (int i = seen.size() - 1; i >= 0; i--) {
        if (seen.get(i).method().equals(method)) {
          return exchanges.get(i).getRequestHeaders().getFirst(name);
        }
      }
    }
    throw new AssertionError("no " + method);
  }

  @Test
  void put_whenSigned_sendsSixtyFourKiBChunksThatTheProxysVerifierAccepts() {
    int size = 150_000;
    try (S3HttpClient c = client(true)) {
      c.put("k", Content.stream(SEED, size), size);
    }
    byte[] body = last("PUT").body();
    assertThat((long) body.length).isEqualTo(S3HttpClient.encodedLength(size));
    assertThat(header("PUT", "Content-Length")).isEqualTo(Integer.toString(body.length));
    assertThat(header("PUT", "x-amz-decoded-content-length")).isEqualTo("150000");
    assertThat(header("PUT", "x-amz-content-sha256"))
        .isEqualTo("STREAMING-AWS4-HMAC-SHA256-PAYLOAD");
    assertThat(chunkSizes(body)).containsExactly(65_536, 65_536, 18_928, 0);
    // The proxy's own authenticator and aws-chunked decoder check the request signature and every
    // chunk signature, so a fault in S3Signer cannot hide behind a check that shares its code.
    assertThat(decodeAsTheProxyDoes("PUT", body)).isEqualTo(content(0, size));
  }

  @Test
  void put_whenSignedBodyIsAlteredInTransit_theProxysVerifierRefusesIt() {
    int size = 70_000;
    try (S3HttpClient c = client(true)) {
      c.put("k", Content.stream(SEED, size), size);
    }
    byte[] body = last("PUT").body().clone();
    // One data byte of the second chunk: its signature, not the framing, must catch it.
    int secondChunkData = indexOf(body, indexOf(body, 0) + 2 + 65_536 + 2) + 2;
    body[secondChunkData] ^= 1;
    assertThatThrownBy(() -> decodeAsTheProxyDoes("PUT", body))
        .isInstanceOfSatisfying(
            S3Exception.class,
            e -> assertThat(e.code()).isEqualTo(S3ErrorCode.SIGNATURE_DOES_NOT_MATCH));
  }

  /**
   * Authenticates the last {@code method} request with the proxy's {@link S3Authenticator} and
   * decodes {@code body} with the decoder the proxy would choose for it; returns the payload.
   */
  private byte[] decodeAsTheProxyDoes(String method, byte[] body) {
    Headers.Builder headers = Headers.builder();
    String uri;
    synchronized (seen) {
      int i = seen.size() - 1;
      while (!seen.get(i).method().equals(method)) {
        i--;
      }
      uri = seen.get(i).uri();
      exchanges.get(i).getRequestHeaders().forEach((n, vs) -> vs.forEach(v -> headers.add(n, v)));
    }
    RequestHead head = RequestHead.of(method, uri, headers.build());
    Authentication auth =
        S3Authenticator.builder(StaticCredentialStore.of("AKID", "SECRET"))
            .region("us-east-1")
            .build()
            .authenticate(head);
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    BodyDecoder decoder =
        BodyDecoders.forRequest(
            head.headers(),
            auth,
            b -> {
              byte[] bytes = new byte[b.remaining()];
              b.get(bytes);
              payload.writeBytes(bytes);
            },
            ChunkedLimits.DEFAULT);
    decoder.feed(ByteBuffer.wrap(body));
    decoder.finish();
    return payload.toByteArray();
  }

  /** The data sizes of an aws-chunked body's frames, in order. */
  private static List<Integer> chunkSizes(byte[] body) {
    List<Integer> sizes = new ArrayList<>();
    int i = 0;
    while (true) {
      int eol = indexOf(body, i);
      String sizeField = new String(body, i, eol - i, StandardCharsets.US_ASCII).split(";")[0];
      int n = Integer.parseInt(sizeField, 16);
      sizes.add(n);
      i = eol + 2 + n + 2;
      if (n == 0) {
        assertThat(i).isEqualTo(body.length);
        return sizes;
      }
    }
  }

  private static int indexOf(byte[] b, int from) {
    for (int i = from; i + 1 < b.length; i++) {
      if (b[i] == '\r' && b[i + 1] == '\n') {
        return i;
      }
    }
    throw new AssertionError("no CRLF after " + from);
  }

  @Test
  void put_whenUnsigned_sendsTheBodyAsItIs() {
    try (S3HttpClient c = client(false)) {
      c.put("dir/k ü", Content.stream(SEED, 70_000), 70_000);
    }
    assertThat(last("PUT").uri()).isEqualTo("/b/dir/k%20%C3%BC");
    assertThat(last("PUT").body()).isEqualTo(content(0, 70_000));
    assertThat(header("PUT", "x-amz-content-sha256")).isEqualTo("UNSIGNED-PAYLOAD");
    assertThat(header("PUT", "Content-Length")).isEqualTo("70000");
    assertThat(header("PUT", "Expect")).isNull();
  }

  @Test
  void requests_whenOneAfterAnother_shareOneConnection() throws IOException {
    try (S3HttpClient c = client(true)) {
      c.put("k", Content.stream(SEED, 10), 10);
      try (InputStream in = c.get("k", 0, -1)) {
        assertThat(in.readAllBytes()).isEqualTo(content(0, 100_000));
      }
      assertThat(c.head("k")).isTrue();
      assertThat(c.list("p/", 10)).isEqualTo(3);
      c.delete("k");
    }
    synchronized (seen) {
      assertThat(seen).hasSize(5);
      assertThat(seen.stream().map(Seen::remotePort).distinct()).hasSize(1);
    }
    assertThat(last("GET").uri()).isEqualTo("/b?list-type=2&max-keys=10&prefix=p%2F");
  }

  @Test
  void get_whenRange_asksForItAndReadsTheChunkedAnswer() throws IOException {
    try (S3HttpClient c = client(false);
        InputStream in = c.get("k", 1000, 100_000)) {
      assertThat(in.readAllBytes()).isEqualTo(content(1000, 100_000));
    }
    assertThat(last("GET").range()).isEqualTo("bytes=1000-100999");
  }

  @Test
  void get_whenErrorAnswer_throwsItsStatusAndCodeAndTheConnectionGoesOn() {
    try (S3HttpClient c = client(true)) {
      assertThatThrownBy(() -> c.get("missing", 0, -1))
          .isInstanceOfSatisfying(
              S3ErrorException.class,
              e -> {
                assertThat(e.status()).isEqualTo(404);
                assertThat(e.code()).isEqualTo("NoSuchKey");
                assertThat(ErrorKinds.of(e)).isEqualTo("S3_404_NoSuchKey");
              });
      assertThat(c.head("missing")).isFalse();
      assertThat(c.head("k")).isTrue();
    }
    synchronized (seen) {
      assertThat(seen.stream().map(Seen::remotePort).distinct()).hasSize(1);
    }
  }

  @Test
  void get_whenBodyIsAbandoned_theNextRequestOpensANewConnection() throws IOException {
    try (S3HttpClient c = client(true)) {
      try (InputStream in = c.get("k", 0, -1)) {
        assertThat(in.read(new byte[10])).isEqualTo(10);
      }
      assertThat(c.head("k")).isTrue();
    }
    synchronized (seen) {
      assertThat(seen.stream().map(Seen::remotePort).distinct()).hasSize(2);
    }
  }

  @Test
  void put_whenNothingListens_isARequestWithoutAnAnswer() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    try (S3HttpClient c =
        new S3HttpClient(
            URI.create("http://127.0.0.1:" + port), "b", "AKID", "SECRET", "us-east-1", true)) {
      assertThatThrownBy(() -> c.put("k", Content.stream(SEED, 10), 10))
          .isInstanceOfSatisfying(
              S3TransportException.class, e -> assertThat(ErrorKinds.of(e)).isEqualTo("S3_CLIENT"));
    }
  }
}
