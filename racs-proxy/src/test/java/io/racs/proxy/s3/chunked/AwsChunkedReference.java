package io.racs.proxy.s3.chunked;

import io.racs.proxy.s3.auth.ContentSha256;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A second, deliberately different implementation of aws-chunked for the fuzz tests: it reads a
 * whole body at once (the production decoder is a streaming state machine), written from the AWS
 * documentation of the three modes and the leniencies the production decoder documents (a body may
 * end after its last trailer line without the closing empty line). It also encodes: the framing a
 * well-behaved SDK sends, with the chunk and trailer signature chain.
 *
 * <p>Grammar, lines ending in CRLF and at most {@code maxLineBytes} long with it:
 *
 * <pre>
 * signed:    (hex ";chunk-signature=" sig CRLF data CRLF)* "0;chunk-signature=" sig CRLF CRLF
 * signed with trailer: ... "0;chunk-signature=" sig CRLF (name ":" value CRLF)*
 *            "x-amz-trailer-signature:" sig CRLF [CRLF]
 * unsigned trailer: (hex [";" ext] CRLF data CRLF)* "0" [";" ext] CRLF (name ":" value CRLF)* [CRLF]
 * </pre>
 *
 * where hex is 1 to 16 hex digits and the data sizes add up to the declared decoded length.
 */
final class AwsChunkedReference {
  private static final HexFormat HEX = HexFormat.of();
  private static final String EMPTY_SHA256 =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  /** The signing inputs of the signed modes. */
  record Signing(byte[] key, String amzDate, String scope, String seedSignature) {}

  /** What a valid body decodes to. */
  record Decoded(byte[] payload, Map<String, String> trailers) {}

  private AwsChunkedReference() {}

  /**
   * Decodes {@code body}, or returns {@code null} when it is not a valid body of {@code mode} with
   * exactly {@code decodedLength} payload bytes and exactly the {@code declared} trailers.
   */
  static Decoded decode(
      byte[] body,
      ContentSha256.Mode mode,
      long decodedLength,
      Set<String> declared,
      Signing signing,
      ChunkedLimits limits) {
    Reader in = new Reader(body, limits.maxLineBytes());
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    String previous = signing == null ? null : signing.seedSignature();
    while (true) {
      String line = in.line();
      if (line == null) {
        return null;
      }
      String hex;
      String signature = null;
      if (mode.signedChunks()) {
        int semi = line.indexOf(';');
        if (semi < 0 || !line.startsWith(";chunk-signature=", semi)) {
          return null;
        }
        hex = line.substring(0, semi);
        signature = line.substring(semi + ";chunk-signature=".length());
      } else {
        int semi = line.indexOf(';');
        hex = semi < 0 ? line : line.substring(0, semi);
      }
      if (hex.isEmpty() || hex.length() > 16 || !hex.chars().allMatch(AwsChunkedReference::isHex)) {
        return null;
      }
      BigInteger size = new BigInteger(hex, 16);
      long left = decodedLength - payload.size();
      if (size.compareTo(BigInteger.valueOf(left)) > 0) {
        return null;
      }
      int n = size.intValueExact();
      if (n == 0) {
        if (left != 0) {
          return null;
        }
        if (signature != null) {
          previous = chunkSignature(signing, previous, new byte[0]);
          if (!previous.equals(signature)) {
            return null;
          }
        }
        break;
      }
      byte[] data = in.bytes(n);
      if (data == null || !in.crlf()) {
        return null;
      }
      if (signature != null) {
        previous = chunkSignature(signing, previous, data);
        if (!previous.equals(signature)) {
          return null;
        }
      }
      payload.writeBytes(data);
    }
    Map<String, String> trailers = new LinkedHashMap<>();
    if (!mode.trailer()) {
      String end = in.line();
      return end != null && end.isEmpty() && in.atEnd()
          ? new Decoded(payload.toByteArray(), trailers)
          : null;
    }
    StringBuilder canonical = new StringBuilder();
    String trailerSignature = null;
    int trailerBytes = 0;
    while (true) {
      if (in.atEnd() && !trailers.isEmpty()) {
        break; // the documented leniency: no closing empty line after the last trailer
      }
      int before = in.position();
      String line = in.line();
      if (line == null) {
        return null;
      }
      if (line.isEmpty()) {
        if (!in.atEnd()) {
          return null;
        }
        break;
      }
      if (trailerSignature != null) {
        return null;
      }
      // Every line of the trailer section counts against the byte limit; only trailers (not the
      // signature) against the count limit.
      trailerBytes += in.position() - before;
      if (trailerBytes > limits.maxTrailerBytes()) {
        return null;
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        return null;
      }
      // Java's strip(), as the production decoder trims names and values.
      String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).strip();
      if (name.equals("x-amz-trailer-signature")) {
        if (!mode.signedChunks()) {
          return null;
        }
        trailerSignature = value;
        continue;
      }
      if (trailers.size() >= limits.maxTrailers()
          || !declared.contains(name)
          || trailers.containsKey(name)) {
        return null;
      }
      trailers.put(name, value);
      canonical.append(name).append(':').append(value).append('\n');
    }
    if (!trailers.keySet().equals(declared)) {
      return null;
    }
    if (mode.signedChunks()) {
      String expected =
          hmacHex(
              signing.key(),
              "AWS4-HMAC-SHA256-TRAILER\n"
                  + signing.amzDate()
                  + '\n'
                  + signing.scope()
                  + '\n'
                  + previous
                  + '\n'
                  + sha256Hex(canonical.toString().getBytes(StandardCharsets.UTF_8)));
      if (!expected.equals(trailerSignature)) {
        return null;
      }
    }
    return new Decoded(payload.toByteArray(), trailers);
  }

  /**
   * Frames {@code payload} as a client would: chunks of the given sizes (the rest in one last chunk
   * if they do not add up; sizes beyond the payload are cut), upper- or lower-case hex, the final
   * chunk, the trailers in order and, when asked, the closing empty line.
   */
  static byte[] encode(
      byte[] payload,
      List<Integer> chunkSizes,
      boolean upperHex,
      ContentSha256.Mode mode,
      Signing signing,
      Map<String, String> trailers,
      boolean closingLine) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String previous = signing == null ? null : signing.seedSignature();
    int pos = 0;
    int next = 0;
    while (pos < payload.length) {
      int n = next < chunkSizes.size() ? chunkSizes.get(next++) : payload.length - pos;
      n = Math.max(1, Math.min(n, payload.length - pos));
      byte[] data = java.util.Arrays.copyOfRange(payload, pos, pos + n);
      pos += n;
      String hex = Integer.toHexString(n);
      ascii(out, upperHex ? hex.toUpperCase(Locale.ROOT) : hex);
      if (mode.signedChunks()) {
        previous = chunkSignature(signing, previous, data);
        ascii(out, ";chunk-signature=" + previous);
      }
      ascii(out, "\r\n");
      out.writeBytes(data);
      ascii(out, "\r\n");
    }
    ascii(out, "0");
    if (mode.signedChunks()) {
      previous = chunkSignature(signing, previous, new byte[0]);
      ascii(out, ";chunk-signature=" + previous);
    }
    ascii(out, "\r\n");
    if (mode.trailer()) {
      StringBuilder canonical = new StringBuilder();
      for (Map.Entry<String, String> t : trailers.entrySet()) {
        ascii(out, t.getKey() + ":" + t.getValue() + "\r\n");
        canonical.append(t.getKey()).append(':').append(t.getValue()).append('\n');
      }
      if (mode.signedChunks()) {
        String signature =
            hmacHex(
                signing.key(),
                "AWS4-HMAC-SHA256-TRAILER\n"
                    + signing.amzDate()
                    + '\n'
                    + signing.scope()
                    + '\n'
                    + previous
                    + '\n'
                    + sha256Hex(canonical.toString().getBytes(StandardCharsets.UTF_8)));
        ascii(out, "x-amz-trailer-signature:" + signature + "\r\n");
      }
      if (closingLine || trailers.isEmpty()) {
        ascii(out, "\r\n");
      }
    } else {
      ascii(out, "\r\n");
    }
    return out.toByteArray();
  }

  private static String chunkSignature(Signing signing, String previous, byte[] data) {
    return hmacHex(
        signing.key(),
        "AWS4-HMAC-SHA256-PAYLOAD\n"
            + signing.amzDate()
            + '\n'
            + signing.scope()
            + '\n'
            + previous
            + '\n'
            + EMPTY_SHA256
            + '\n'
            + sha256Hex(data));
  }

  private static String hmacHex(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return HEX.formatHex(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String sha256Hex(byte[] data) {
    try {
      return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(data));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean isHex(int c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static void ascii(ByteArrayOutputStream out, String s) {
    out.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
  }

  /** Lines and runs of bytes from a whole body. */
  private static final class Reader {
    private final byte[] body;
    private final int maxLineBytes;
    private int pos;

    Reader(byte[] body, int maxLineBytes) {
      this.body = body;
      this.maxLineBytes = maxLineBytes;
    }

    int position() {
      return pos;
    }

    boolean atEnd() {
      return pos == body.length;
    }

    /** The next line without its CRLF, or null if there is no complete, short enough line. */
    String line() {
      for (int i = pos; i < body.length; i++) {
        if (body[i] == '\n') {
          int length = i + 1 - pos;
          if (length > maxLineBytes || i == pos || body[i - 1] != '\r') {
            return null;
          }
          String line = new String(body, pos, length - 2, StandardCharsets.ISO_8859_1);
          pos = i + 1;
          return line;
        }
      }
      return null;
    }

    byte[] bytes(int n) {
      if (body.length - pos < n) {
        return null;
      }
      byte[] b = java.util.Arrays.copyOfRange(body, pos, pos + n);
      pos += n;
      return b;
    }

    boolean crlf() {
      if (body.length - pos < 2 || body[pos] != '\r' || body[pos + 1] != '\n') {
        return false;
      }
      pos += 2;
      return true;
    }
  }
}
