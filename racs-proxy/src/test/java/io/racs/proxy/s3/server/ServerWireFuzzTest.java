package io.racs.proxy.s3.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.racs.proxy.codec.Geometry;
import io.racs.proxy.s3.auth.CanonicalRequest;
import io.racs.proxy.s3.auth.CredentialScope;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.auth.SigV4;
import io.racs.proxy.s3.auth.StaticCredentialStore;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.handler.S3Dispatcher;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.route.S3Router;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.StoreConfig;
import io.racs.repos.Repository;
import io.racs.repos.memory.MemoryRepository;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the S3 server on the wire (Netty's HTTP decoder, the connection's request handling, the
 * body decoders behind it) with a real server on loopback over an in-memory store. Two kinds of
 * input:
 *
 * <ul>
 *   <li>raw bytes, sent as they are, then the client half-closes: every response is a well-formed
 *       HTTP response with a status below 500, the server closes the connection and is idle again
 *       within the timeout;
 *   <li>a correctly signed PutObject whose body is framed in one of the ways clients frame it
 *       (Content-Length or {@code Transfer-Encoding: chunked}, plain or aws-chunked inside), then
 *       intact or damaged in a way no decoder may accept (cut short, a size line that is not hex,
 *       an overflowing size, a space inside a size). Intact bodies are stored exactly; a damaged
 *       body is never acknowledged and never changes the object, which a GET then checks against a
 *       model of what was acknowledged.
 * </ul>
 */
class ServerWireFuzzTest {
  private static final String AK = "RACSWIREKEY";
  private static final String SK = "wire-secret";
  private static final String BUCKET = "fuzz";
  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final int TIMEOUT_MILLIS = 10_000;

  private static ServerMetrics metrics;
  private static S3Server server;

  /** What each key holds according to the acknowledged PUTs; absent keys have no object. */
  private static final Map<String, byte[]> MODEL = new HashMap<>();

  /** How a PUT body is framed. */
  private enum Framing {
    CONTENT_LENGTH(false, false),
    HTTP_CHUNKED(true, false),
    HTTP_CHUNKED_AWS_CHUNKED(true, true),
    AWS_CHUNKED(false, true);

    final boolean httpChunked;
    final boolean awsChunked;

    Framing(boolean httpChunked, boolean awsChunked) {
      this.httpChunked = httpChunked;
      this.awsChunked = awsChunked;
    }
  }

  /** What is done to a well-framed body. */
  private enum Damage {
    NONE,
    CUT_SHORT,
    NOT_HEX,
    OVERFLOW,
    SPACE_IN_SIZE
  }

  /** One parsed response. */
  private record Response(int status, byte[] body) {}

  /** Starts the server on the first input (in a fuzzing run, the class outlives every input). */
  private static void startOnce() throws Exception {
    if (server != null) {
      return;
    }
    Geometry geometry = Geometry.parse("2x1");
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < geometry.totalShards(); i++) {
      repositories.add(MemoryRepository.create("mem" + i));
    }
    ErasureStore store = ErasureStore.open(StoreConfig.builder(geometry).build(), repositories);
    metrics = new ServerMetrics();
    server =
        S3Server.start(
            new S3Server.Settings(
                "127.0.0.1",
                0,
                S3Router.pathStyle(),
                S3Authenticator.builder(StaticCredentialStore.of(AK, SK)).build(),
                new S3Dispatcher(new StoreBridge(store), "us-east-1"),
                null,
                16 * 1024,
                Duration.ofSeconds(30),
                Duration.ofSeconds(5),
                metrics));
    Response created = exchangeOne(signedHead("PUT", "/" + BUCKET, Map.of("Content-Length", "0")));
    assertThat(created.status()).isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  @FuzzTest
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  @SuppressWarnings("try") // The resource is a scope, never used by name.
  void request(FuzzedDataProvider data) throws Exception {
    // Jazzer's SSRF detector reports every connection; this test's own, to its server, are meant.
    try (SilentCloseable loopback =
        BugDetectors.allowNetworkConnections(
            (host, port) -> host.equals("127.0.0.1") || host.equals("localhost"))) {
      startOnce();
      if (data.consumeInt(0, 3) == 0) {
        raw(data.consumeRemainingAsBytes());
      } else {
        put(data);
      }
    }
  }

  private static void raw(byte[] bytes) throws Exception {
    for (Response r : exchangeUntilClosed(bytes)) {
      assertThat(r.status()).as("status").isBetween(100, 499);
    }
    awaitIdle();
  }

  private static void put(FuzzedDataProvider data) throws Exception {
    Framing framing = data.pickValue(Framing.values());
    Damage damage = data.pickValue(Damage.values());
    String key = "k" + data.consumeInt(0, 3);
    boolean trailer = framing.awsChunked && data.consumeBoolean();
    int where = data.consumeInt(0, Integer.MAX_VALUE);
    List<Integer> httpChunks = new ArrayList<>();
    List<Integer> awsChunks = new ArrayList<>();
    for (int i = data.consumeInt(0, 3); i > 0; i--) {
      httpChunks.add(data.consumeInt(1, 600));
    }
    for (int i = data.consumeInt(0, 3); i > 0; i--) {
      awsChunks.add(data.consumeInt(1, 600));
    }
    byte[] payload = data.consumeRemainingAsBytes();

    Map<String, String> headers = new LinkedHashMap<>();
    byte[] body = payload;
    if (framing.awsChunked) {
      headers.put("x-amz-content-sha256", "STREAMING-UNSIGNED-PAYLOAD-TRAILER");
      headers.put("x-amz-decoded-content-length", Integer.toString(payload.length));
      headers.put("Content-Encoding", "aws-chunked");
      if (trailer) {
        headers.put("x-amz-trailer", "x-amz-checksum-crc32");
      }
      body = chunk(payload, awsChunks, trailer ? "x-amz-checksum-crc32:" + crc32(payload) : null);
    } else {
      headers.put("x-amz-content-sha256", "UNSIGNED-PAYLOAD");
    }
    List<int[]> httpSizeLines = new ArrayList<>();
    if (framing.httpChunked) {
      headers.put("Transfer-Encoding", "chunked");
      body = httpChunk(body, httpChunks, httpSizeLines);
    } else {
      headers.put("Content-Length", Integer.toString(body.length));
    }
    // The damage applies to the outer framing: HTTP chunk sizes, or the aws-chunked sizes.
    List<int[]> sizeLines =
        framing.httpChunked ? httpSizeLines : framing.awsChunked ? awsSizeLines(body) : List.of();
    byte[] damaged = damage(body, damage, sizeLines, where);
    if (damaged == null) {
      damage = Damage.NONE; // Nothing to damage in this framing (a plain body has no size line).
      damaged = body;
    }

    byte[] request = concat(signedHead("PUT", "/" + BUCKET + "/" + key, headers), damaged);
    String what = framing + " PUT of " + payload.length + " bytes to " + key + ", body " + damage;
    if (damage == Damage.CUT_SHORT) {
      // The client goes away mid-body: nothing may be stored.
      sendAndClose(request);
      awaitIdle();
    } else {
      Response response = exchangeOne(request);
      awaitIdle();
      assertThat(response).as("the answer to a " + what).isNotNull();
      if (damage == Damage.NONE) {
        assertThat(response.status()).as(what).isEqualTo(200);
        MODEL.put(key, payload);
      } else {
        assertThat(response.status()).as(what).isBetween(400, 499);
      }
    }
    assertThat(get(key)).as(key + " after a " + what).isEqualTo(MODEL.get(key));
  }

  // ---- bodies ----

  /** aws-chunked, unsigned, with an optional trailer line. */
  private static byte[] chunk(byte[] payload, List<Integer> sizes, String trailerLine) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int pos = 0;
    int next = 0;
    while (pos < payload.length) {
      int n = next < sizes.size() ? sizes.get(next++) : payload.length - pos;
      n = Math.max(1, Math.min(n, payload.length - pos));
      out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(payload, pos, n);
      out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
      pos += n;
    }
    out.writeBytes("0\r\n".getBytes(StandardCharsets.US_ASCII));
    if (trailerLine != null) {
      out.writeBytes((trailerLine + "\r\n").getBytes(StandardCharsets.US_ASCII));
    }
    out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  /** HTTP/1.1 chunked; records where each size line (without CRLF) starts and ends. */
  private static byte[] httpChunk(byte[] body, List<Integer> sizes, List<int[]> sizeLines) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int pos = 0;
    int next = 0;
    while (pos < body.length) {
      int n = next < sizes.size() ? sizes.get(next++) : body.length - pos;
      n = Math.max(1, Math.min(n, body.length - pos));
      String size = Integer.toHexString(n);
      sizeLines.add(new int[] {out.size(), out.size() + size.length()});
      out.writeBytes((size + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(body, pos, n);
      out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
      pos += n;
    }
    sizeLines.add(new int[] {out.size(), out.size() + 1});
    out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  /** The size lines of an aws-chunked body this test framed. */
  private static List<int[]> awsSizeLines(byte[] body) {
    List<int[]> lines = new ArrayList<>();
    int pos = 0;
    while (pos < body.length) {
      int end = pos;
      while (end < body.length && body[end] != '\r') {
        end++;
      }
      String hex = new String(body, pos, end - pos, StandardCharsets.US_ASCII);
      lines.add(new int[] {pos, end});
      int n = Integer.parseInt(hex, 16);
      if (n == 0) {
        break;
      }
      pos = end + 2 + n + 2;
    }
    return lines;
  }

  /** The damaged body, or null when this damage has nothing to apply to. */
  private static byte[] damage(byte[] body, Damage damage, List<int[]> sizeLines, int where) {
    switch (damage) {
      case NONE -> {
        return body;
      }
      case CUT_SHORT -> {
        return body.length == 0 ? null : java.util.Arrays.copyOf(body, where % body.length);
      }
      default -> {
        if (sizeLines.isEmpty()) {
          return null;
        }
        int[] line = sizeLines.get(where % sizeLines.size());
        String replacement =
            switch (damage) {
              case NOT_HEX ->
                  "z"
                      + new String(
                          body, line[0] + 1, line[1] - line[0] - 1, StandardCharsets.US_ASCII);
              case OVERFLOW -> "FFFFFFFFFFFFFFFFF";
              default -> {
                String size =
                    new String(body, line[0], line[1] - line[0], StandardCharsets.US_ASCII);
                yield size.length() < 2 ? null : size.charAt(0) + " " + size.substring(1);
              }
            };
        if (replacement == null) {
          return null;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(body, 0, line[0]);
        out.writeBytes(replacement.getBytes(StandardCharsets.US_ASCII));
        out.write(body, line[1], body.length - line[1]);
        return out.toByteArray();
      }
    }
  }

  private static String crc32(byte[] payload) {
    CRC32 crc = new CRC32();
    crc.update(payload);
    return Base64.getEncoder()
        .encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }

  // ---- requests ----

  /** A SigV4-signed request head (signing every x-amz-* header and the host). */
  private static byte[] signedHead(String method, String path, Map<String, String> extra) {
    String amzDate = AMZ_DATE.format(Instant.now());
    Headers.Builder h = Headers.builder().add("Host", "127.0.0.1").add("x-amz-date", amzDate);
    extra.forEach(h::add);
    if (!extra.containsKey("x-amz-content-sha256")) {
      h.add("x-amz-content-sha256", "UNSIGNED-PAYLOAD");
    }
    Headers headers = h.build();
    List<String> signed = new ArrayList<>();
    for (String name : headers.asMap().keySet()) {
      if (name.equals("host") || name.startsWith("x-amz-")) {
        signed.add(name);
      }
    }
    CredentialScope scope = new CredentialScope(amzDate.substring(0, 8), "us-east-1", "s3");
    String canonical =
        CanonicalRequest.build(
            method,
            CanonicalRequest.canonicalUri(path),
            "",
            CanonicalRequest.canonicalHeaders(headers, signed),
            String.join(";", signed),
            headers.get("x-amz-content-sha256"));
    byte[] key = SigV4.deriveSigningKey(SK, scope.date(), scope.region(), scope.service());
    String signature = SigV4.sign(key, CanonicalRequest.stringToSign(amzDate, scope, canonical));
    StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
    headers
        .asMap()
        .forEach((name, values) -> values.forEach(v -> head.append(name + ": " + v + "\r\n")));
    head.append("Authorization: AWS4-HMAC-SHA256 Credential=")
        .append(AK + "/" + scope + ", SignedHeaders=" + String.join(";", signed))
        .append(", Signature=" + signature + "\r\n\r\n");
    return head.toString().getBytes(StandardCharsets.ISO_8859_1);
  }

  /** The object's bytes, or null when there is none. */
  private static byte[] get(String key) throws Exception {
    Response r = exchangeOne(signedHead("GET", "/" + BUCKET + "/" + key, Map.of()));
    assertThat(r).as("the answer to a GET").isNotNull();
    if (r.status() == 404) {
      return null;
    }
    assertThat(r.status()).as("GET " + key).isEqualTo(200);
    return r.body();
  }

  /**
   * Sends {@code bytes} on a new connection, half-closes it, and reads responses until the server
   * closes. The server closes on the half-close, which may drop the answer to a request it is still
   * serving; every answer that does arrive is checked.
   */
  private static List<Response> exchangeUntilClosed(byte[] bytes) throws IOException {
    List<Response> responses = new ArrayList<>();
    try (Socket socket = connect()) {
      try {
        socket.getOutputStream().write(bytes);
        socket.shutdownOutput();
      } catch (IOException e) {
        // The server answered early and closed (a refused head): read what it said.
      }
      InputStream in = socket.getInputStream();
      try {
        Response r;
        while ((r = readResponse(in)) != null) {
          responses.add(r);
        }
      } catch (java.net.SocketException e) {
        // A reset after the server closed a connection it refused: the responses so far count.
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("no answer and no close within " + TIMEOUT_MILLIS + " ms", e);
    }
    return responses;
  }

  /** Sends one complete request and reads its answer; null if the server closed without one. */
  private static Response exchangeOne(byte[] request) throws IOException {
    try (Socket socket = connect()) {
      try {
        socket.getOutputStream().write(request);
      } catch (IOException e) {
        // The server answered early and closed (a refused head): read what it said.
      }
      return readResponse(socket.getInputStream());
    } catch (SocketTimeoutException e) {
      throw new AssertionError("no answer within " + TIMEOUT_MILLIS + " ms", e);
    } catch (java.net.SocketException e) {
      return null; // Reset without an answer.
    }
  }

  /** Sends part of a request and closes the connection, as a client that goes away. */
  private static void sendAndClose(byte[] bytes) throws IOException {
    try (Socket socket = connect()) {
      socket.getOutputStream().write(bytes);
    } catch (java.net.SocketException e) {
      // The server may refuse the head and close first; the request is gone either way.
    }
  }

  private static Socket connect() throws IOException {
    Socket socket = new Socket("127.0.0.1", server.port());
    socket.setSoTimeout(TIMEOUT_MILLIS);
    return socket;
  }

  /** One response, or null at EOF; fails on anything that is not a well-formed HTTP response. */
  private static Response readResponse(InputStream in) throws IOException {
    String status = line(in);
    if (status == null) {
      return null;
    }
    assertThat(status).as("status line").matches("HTTP/1\\.1 [1-5][0-9][0-9] .*");
    int code = Integer.parseInt(status.substring(9, 12));
    long length = -1;
    for (String h = line(in); ; h = line(in)) {
      assertThat(h).as("header line of a " + code).isNotNull();
      if (h.isEmpty()) {
        break;
      }
      int colon = h.indexOf(':');
      assertThat(colon).as("header " + h).isPositive();
      if (h.substring(0, colon).equalsIgnoreCase("content-length")) {
        length = Long.parseLong(h.substring(colon + 1).strip());
      }
    }
    if (code == 100) {
      return readResponse(in);
    }
    byte[] body = new byte[0];
    if (length > 0) {
      body = in.readNBytes((int) length);
      assertThat(body.length).as("body of a " + code).isEqualTo(length);
    }
    return new Response(code, body);
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) >= 0) {
      if (c == '\n') {
        byte[] bytes = b.toByteArray();
        assertThat(bytes.length > 0 && bytes[bytes.length - 1] == '\r').as("CRLF").isTrue();
        return new String(bytes, 0, bytes.length - 1, StandardCharsets.ISO_8859_1);
      }
      b.write(c);
    }
    assertThat(b.size()).as("a response cut inside a line").isZero();
    return null;
  }

  private static void awaitIdle() throws InterruptedException {
    assertThat(metrics.awaitIdle(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS)))
        .as("the server finished every request within " + TIMEOUT_MILLIS + " ms")
        .isTrue();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
