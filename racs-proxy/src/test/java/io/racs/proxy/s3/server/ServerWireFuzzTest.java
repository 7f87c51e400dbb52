package io.racs.proxy.s3.server;

import static io.racs.proxy.s3.server.WireRequests.concat;
import static io.racs.proxy.s3.server.WireServer.signedHead;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.racs.proxy.s3.server.WireServer.Response;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
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
 *       intact or damaged in a way no decoder may accept: cut short by a client that goes away, a
 *       size line that is not hex, an overflowing size, a space inside a size, or a length header
 *       that is no length. An intact body is answered 200 and stored exactly; a damaged body that
 *       arrived whole is answered with a 4xx S3 error; the server finishes every request; and no
 *       damaged body changes the object, which a GET then checks against a model of what was
 *       acknowledged.
 * </ul>
 */
class ServerWireFuzzTest {
  private static final String BUCKET = "fuzz";
  private static WireServer server;

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
    SPACE_IN_SIZE,
    /** The body is intact, but its length header is not a length. */
    BAD_LENGTH_HEADER
  }

  /** Values of Content-Length or x-amz-decoded-content-length that are no length. */
  private static final String[] BAD_LENGTHS = {
    "-1", "1180591620717411303424", "9223372036854775808", "12a", "0x10", " "
  };

  /** Starts the server on the first input (in a fuzzing run, the class outlives every input). */
  private static void startOnce() throws Exception {
    if (server != null) {
      return;
    }
    server = WireServer.start();
    Response created =
        server.exchangeOne(signedHead("PUT", "/" + BUCKET, Map.of("Content-Length", "0")));
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
      try {
        if (data.consumeInt(0, 3) == 0) {
          raw(data.consumeRemainingAsBytes());
        } else {
          put(data);
        }
      } catch (Throwable t) {
        // A finding may leave the server in a state (a request counted in flight forever, an
        // object the model does not know) that would fail every later input: start afresh.
        server.close();
        server = null;
        MODEL.clear();
        throw t;
      }
    }
  }

  private static void raw(byte[] bytes) throws Exception {
    for (Response r : server.exchangeUntilClosed(bytes)) {
      assertThat(r.status()).as("status").isBetween(100, 499);
    }
    server.assertIdle("raw bytes");
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
    if (damage == Damage.BAD_LENGTH_HEADER) {
      String header =
          headers.containsKey("x-amz-decoded-content-length") && (where & 1) == 0
              ? "x-amz-decoded-content-length"
              : headers.containsKey("Content-Length") ? "Content-Length" : null;
      if (header != null) {
        headers.put(header, BAD_LENGTHS[(where >>> 1) % BAD_LENGTHS.length]);
        damaged = body;
      }
    }
    if (damaged == null) {
      damage = Damage.NONE; // Nothing to damage in this framing (a plain body has no size line).
      damaged = body;
    }

    byte[] request = concat(signedHead("PUT", "/" + BUCKET + "/" + key, headers), damaged);
    String what =
        framing
            + " PUT of "
            + payload.length
            + " bytes to "
            + key
            + ", body "
            + damage
            + " "
            + headers;
    if (damage == Damage.CUT_SHORT) {
      // The client goes away mid-body: nothing may be stored.
      server.sendAndClose(request);
      server.assertIdle(what);
    } else {
      Response response = server.exchangeOne(request);
      server.assertIdle(what);
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
      case BAD_LENGTH_HEADER -> {
        return null;
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

  /** The object's bytes, or null when there is none. */
  private static byte[] get(String key) throws Exception {
    Response r = server.exchangeOne(signedHead("GET", "/" + BUCKET + "/" + key, Map.of()));
    assertThat(r).as("the answer to a GET").isNotNull();
    if (r.status() == 404) {
      return null;
    }
    assertThat(r.status()).as("GET " + key).isEqualTo(200);
    return r.body();
  }
}
