package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.MemoryArray;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Proves that responses on one keep-alive connection never interleave: requests sent back to back
 * (HTTP/1.1 pipelining, or a client that sends its next request the instant the previous body's
 * last byte arrives) are answered one after the other, each head followed by exactly its body.
 * Before requests were held back until the previous response was written, a second request's head
 * could reach the encoder before the first response's end, and the client waited forever.
 */
class KeepAliveOrderingTest {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";
  private static RacsServer server;
  private static S3Presigner presigner;
  private static final byte[] SMALL = data(1, 4096);
  private static final byte[] LARGE = data(2, 1 << 20);

  @BeforeAll
  static void start() throws Exception {
    ErasureStore store = MemoryArray.open("4x2");
    server =
        RacsServer.start(
            store,
            ServerConfig.defaults().with("127.0.0.1:0", Map.of(ACCESS, SECRET)).withAdmin(null));
    URI endpoint = URI.create("http://127.0.0.1:" + server.port());
    StaticCredentialsProvider credentials =
        StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS, SECRET));
    try (S3Client s3 =
        S3Client.builder()
            .endpointOverride(endpoint)
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(credentials)
            .build()) {
      s3.createBucket(b -> b.bucket("pipe"));
      s3.putObject(b -> b.bucket("pipe").key("small"), RequestBody.fromBytes(SMALL));
      s3.putObject(b -> b.bucket("pipe").key("large"), RequestBody.fromBytes(LARGE));
    }
    presigner =
        S3Presigner.builder()
            .endpointOverride(endpoint)
            .region(Region.US_EAST_1)
            .credentialsProvider(credentials)
            .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build())
            .build();
  }

  @AfterAll
  static void stop() {
    presigner.close();
    server.close();
  }

  @Test
  void pipelinedGets_whenSentInOneWrite_answeredInOrderWithTheirOwnBodies() throws IOException {
    List<String> keys = List.of("large", "small", "large", "small", "small", "large");
    StringBuilder requests = new StringBuilder();
    for (String key : keys) {
      requests.append(getRequest(key));
    }
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(30_000);
      socket.getOutputStream().write(requests.toString().getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      for (String key : keys) {
        assertThat(digest(readResponse(in)))
            .as(key)
            .isEqualTo(digest(key.equals("large") ? LARGE : SMALL));
      }
    }
  }

  @Test
  void sequentialGets_onOneConnection_eachAnsweredCompletely() throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      byte[] request = getRequest("small").getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i < 2000; i++) {
        out.write(request);
        out.flush();
        assertThat(digest(readResponse(in))).as("response %d", i).isEqualTo(digest(SMALL));
      }
    }
  }

  @Test
  void headThenGet_backToBackOnOneConnection_eachAnsweredCompletely() throws IOException {
    // A HEAD's response has a Content-Length but no body: the next request follows at once.
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      byte[] both =
          (headRequest("small") + getRequest("small")).getBytes(StandardCharsets.US_ASCII);
      for (int i = 0; i < 500; i++) {
        out.write(both);
        out.flush();
        assertThat(readHead(in)).as("HEAD %d", i).isEqualTo((long) SMALL.length);
        assertThat(digest(readResponse(in))).as("GET %d", i).isEqualTo(digest(SMALL));
      }
    }
  }

  private static String headRequest(String key) {
    URL url =
        presigner
            .presignHeadObject(
                p ->
                    p.signatureDuration(Duration.ofMinutes(10))
                        .headObjectRequest(h -> h.bucket("pipe").key(key)))
            .url();
    return "HEAD " + url.getFile() + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n\r\n";
  }

  private static String getRequest(String key) {
    URL url =
        presigner
            .presignGetObject(
                p ->
                    p.signatureDuration(Duration.ofMinutes(10))
                        .getObjectRequest(g -> g.bucket("pipe").key(key)))
            .url();
    return "GET " + url.getFile() + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.port() + "\r\n\r\n";
  }

  /** Reads one response with a Content-Length body and returns the body; 200 only. */
  private static byte[] readResponse(InputStream in) throws IOException {
    return in.readNBytes((int) readHead(in));
  }

  /** Reads one 200 response's head and returns its Content-Length. */
  private static long readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    while (matched < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection closed in a response head: " + head);
      }
      head.write(b);
      matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
    }
    String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    assertThat(lines[0]).isEqualTo("HTTP/1.1 200 OK");
    long length =
        Arrays.stream(lines)
            .filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:"))
            .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim()))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no Content-Length in " + head));
    return length;
  }

  /** Length and SHA-256, so a mismatch prints two lines rather than a megabyte. */
  private static String digest(byte[] bytes) {
    try {
      return bytes.length
          + " bytes, sha256 "
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] data(long seed, int size) {
    return SeededBytes.bytes(seed, size);
  }
}
