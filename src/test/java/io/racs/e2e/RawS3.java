package io.racs.e2e;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * S3 requests written byte by byte on a plain socket, signed with SigV4 computed here (HMAC-SHA256
 * from javax.crypto), so a test can send what no SDK would: a tampered aws-chunked body, a head
 * with {@code Expect: 100-continue} and no body yet. Only for plain HTTP on loopback; paths and
 * query values must be unreserved characters (no encoding is done).
 */
final class RawS3 {
  static final String EMPTY_SHA256 =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final String REGION = "us-east-1";

  private final URI endpoint;
  private final String secret;
  private final Instant time;

  RawS3(URI endpoint, String secret, Instant time) {
    this.endpoint = endpoint;
    this.secret = secret;
    this.time = time;
  }

  /** A response as read off the socket; header names are lower case. */
  record Response(int status, Map<String, String> headers, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /** A signed request head: its lines (without the blank line) and its seed signature. */
  record SignedHead(String text, String signature) {}

  String amzDate() {
    return AMZ_DATE.format(time);
  }

  String scope() {
    return amzDate().substring(0, 8) + "/" + REGION + "/s3/aws4_request";
  }

  /**
   * Signs {@code method path?query} with {@code headers} (all signed, plus host, x-amz-date and
   * x-amz-content-sha256); {@code unsigned} headers are sent but not signed.
   */
  SignedHead sign(
      String method,
      String path,
      String query,
      Map<String, String> headers,
      String payloadHash,
      Map<String, String> unsigned) {
    Map<String, String> signed = new TreeMap<>();
    headers.forEach((k, v) -> signed.put(k.toLowerCase(Locale.ROOT), v));
    signed.put("host", endpoint.getHost() + ":" + endpoint.getPort());
    signed.put("x-amz-date", amzDate());
    signed.put("x-amz-content-sha256", payloadHash);
    StringBuilder canonicalHeaders = new StringBuilder();
    signed.forEach((k, v) -> canonicalHeaders.append(k).append(':').append(v.strip()).append('\n'));
    String signedNames = String.join(";", signed.keySet());
    String canonical =
        method
            + "\n"
            + path
            + "\n"
            + canonicalQuery(query)
            + "\n"
            + canonicalHeaders
            + "\n"
            + signedNames
            + "\n"
            + payloadHash;
    String stringToSign =
        "AWS4-HMAC-SHA256\n" + amzDate() + "\n" + scope() + "\n" + sha256Hex(bytes(canonical));
    String signature = HexFormat.of().formatHex(hmac(signingKey(), stringToSign));
    StringBuilder head = new StringBuilder();
    head.append(method)
        .append(' ')
        .append(path)
        .append(query.isEmpty() ? "" : "?" + query)
        .append(" HTTP/1.1\r\n");
    signed.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
    unsigned.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
    head.append("authorization: AWS4-HMAC-SHA256 Credential=")
        .append(ProxyProcess.ACCESS_KEY)
        .append('/')
        .append(scope())
        .append(", SignedHeaders=")
        .append(signedNames)
        .append(", Signature=")
        .append(signature)
        .append("\r\n");
    return new SignedHead(head.toString(), signature);
  }

  /** Sorts {@code a=b&c} into SigV4's canonical query (values are taken as already encoded). */
  private static String canonicalQuery(String query) {
    if (query.isEmpty()) {
      return "";
    }
    TreeMap<String, String> params = new TreeMap<>();
    for (String part : query.split("&")) {
      int eq = part.indexOf('=');
      params.put(eq < 0 ? part : part.substring(0, eq), eq < 0 ? "" : part.substring(eq + 1));
    }
    StringBuilder out = new StringBuilder();
    params.forEach((k, v) -> out.append(out.isEmpty() ? "" : "&").append(k).append('=').append(v));
    return out.toString();
  }

  /** The signature of one aws-chunked chunk, chained from {@code previous}. */
  String chunkSignature(String previous, byte[] chunk) {
    String stringToSign =
        "AWS4-HMAC-SHA256-PAYLOAD\n"
            + amzDate()
            + "\n"
            + scope()
            + "\n"
            + previous
            + "\n"
            + EMPTY_SHA256
            + "\n"
            + sha256Hex(chunk);
    return HexFormat.of().formatHex(hmac(signingKey(), stringToSign));
  }

  /** Sends {@code head}, a blank line and {@code body} on a new connection; reads one response. */
  Response send(SignedHead head, byte[] body) throws IOException {
    try (Socket socket = open()) {
      OutputStream out = socket.getOutputStream();
      out.write(bytes(head.text() + "\r\n"));
      out.write(body);
      out.flush();
      return read(new BufferedInputStream(socket.getInputStream()));
    }
  }

  /** A connection to the proxy that fails a test rather than hang it. */
  Socket open() throws IOException {
    Socket socket = new Socket(endpoint.getHost(), endpoint.getPort());
    socket.setSoTimeout(30_000);
    return socket;
  }

  /** Reads one HTTP/1.1 response (a 1xx has no body). */
  static Response read(InputStream in) throws IOException {
    String status = line(in);
    if (status == null) {
      throw new IOException("connection closed before a response");
    }
    int code = Integer.parseInt(status.split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (String line; (line = line(in)) != null && !line.isEmpty(); ) {
      int colon = line.indexOf(':');
      headers.put(
          line.substring(0, colon).strip().toLowerCase(Locale.ROOT),
          line.substring(colon + 1).strip());
    }
    byte[] body = new byte[0];
    if (code >= 200 && headers.containsKey("content-length")) {
      body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
    }
    return new Response(code, headers, body);
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int c; (c = in.read()) != -1; ) {
      if (c == '\n') {
        String s = line.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
      }
      line.write(c);
    }
    return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
  }

  private byte[] signingKey() {
    byte[] key = hmac(bytes("AWS4" + secret), amzDate().substring(0, 8));
    key = hmac(key, REGION);
    key = hmac(key, "s3");
    return hmac(key, "aws4_request");
  }

  static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(bytes(data));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static String sha256Hex(byte[] data) {
    return HexFormat.of().formatHex(Clients.digest("SHA-256").digest(data));
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
