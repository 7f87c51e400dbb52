package io.racs.proxy.s3.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.auth.CanonicalRequest;
import io.racs.proxy.s3.auth.CredentialScope;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.auth.SigV4;
import io.racs.proxy.s3.auth.StaticCredentialStore;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.store.ErasureStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real S3 server on a loopback port over memory repositories (2x1, set up by {@link S3Fixture}),
 * spoken to with raw bytes: requests signed here with SigV4, answers parsed strictly, and the
 * server's own count of requests in flight to tell when it has finished with every request.
 */
final class WireServer implements AutoCloseable {
  static final String AK = "RACSWIREKEY";
  static final String SK = "wire-secret";
  static final int TIMEOUT_MILLIS = 10_000;
  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** One parsed response. */
  record Response(int status, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private final S3Fixture fixture;
  private final S3Server server;

  private WireServer(S3Fixture fixture, S3Server server) {
    this.fixture = fixture;
    this.server = server;
  }

  /** Starts a server over an empty 2x1 array with one access key ({@link #AK}, {@link #SK}). */
  static WireServer start() throws InterruptedException {
    return start(Transport.AUTO);
  }

  /** {@link #start()} with the event loops on {@code transport}. */
  static WireServer start(Transport transport) throws InterruptedException {
    S3Fixture fixture =
        new S3Fixture("2x1", S3Authenticator.builder(StaticCredentialStore.of(AK, SK)).build());
    try {
      return new WireServer(fixture, S3Server.start(fixture.settings.withTransport(transport)));
    } catch (InterruptedException | RuntimeException e) {
      fixture.close();
      throw e;
    }
  }

  /** The running server. */
  S3Server server() {
    return server;
  }

  /** A SigV4-signed request head (signing every x-amz-* header and the host). */
  static byte[] signedHead(String method, String path, Map<String, String> extra) {
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

  /**
   * Sends {@code bytes} on a new connection, half-closes it, and reads responses until the server
   * closes. The server closes on the half-close, which may drop the answer to a request it is still
   * serving; every answer that does arrive is checked.
   */
  List<Response> exchangeUntilClosed(byte[] bytes) throws IOException {
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
  Response exchangeOne(byte[] request) throws IOException {
    return exchangeOne(request, TIMEOUT_MILLIS);
  }

  /** {@link #exchangeOne(byte[])}, waiting up to {@code timeoutMillis} for each read. */
  Response exchangeOne(byte[] request, int timeoutMillis) throws IOException {
    try (Socket socket = connect()) {
      socket.setSoTimeout(timeoutMillis);
      try {
        socket.getOutputStream().write(request);
      } catch (IOException e) {
        // The server answered early and closed (a refused head): read what it said.
      }
      return readResponse(socket.getInputStream());
    } catch (SocketTimeoutException e) {
      throw new AssertionError("no answer within " + timeoutMillis + " ms", e);
    } catch (java.net.SocketException e) {
      return null; // Reset without an answer.
    }
  }

  /** Sends part of a request and closes the connection, as a client that goes away. */
  void sendAndClose(byte[] bytes) throws IOException {
    try (Socket socket = connect()) {
      socket.getOutputStream().write(bytes);
    } catch (java.net.SocketException e) {
      // The server may refuse the head and close first; the request is gone either way.
    }
  }

  /** A new connection to the server, with reads timing out after {@link #TIMEOUT_MILLIS}. */
  Socket connect() throws IOException {
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

  /** The array behind the server, to set up buckets and policies without a request. */
  ErasureStore store() {
    return fixture.store;
  }

  /** Fails unless the server has finished every request within the timeout. */
  void assertIdle(String after) throws InterruptedException {
    ServerMetrics metrics = fixture.settings.metrics();
    assertThat(metrics.awaitIdle(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS)))
        .as("the server finished every request within " + TIMEOUT_MILLIS + " ms after " + after)
        .isTrue();
  }

  @Override
  public void close() {
    server.close();
    fixture.close();
  }
}
