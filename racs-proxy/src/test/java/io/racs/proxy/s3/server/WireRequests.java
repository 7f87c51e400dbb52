package io.racs.proxy.s3.server;

import io.racs.proxy.s3.auth.CanonicalRequest;
import io.racs.proxy.s3.auth.ContentSha256;
import io.racs.proxy.s3.auth.CredentialScope;
import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.auth.SigV4;
import io.racs.proxy.s3.auth.StaticCredentialStore;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.RequestHead;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * Requests as a client puts them on the wire, byte for byte: heads signed with SigV4 in the {@code
 * Authorization} header, and bodies framed as aws-chunked (with chunk and trailer signatures) and
 * as HTTP chunks. The tests need framings no SDK produces (a header set without {@code
 * Content-Length} around signed aws-chunked bodies, broken HTTP chunks), so this signs with the
 * proxy's own SigV4 primitives; those are checked against the AWS SDK's signer in the auth tests.
 */
final class WireRequests {
  static final String ACCESS_KEY = "RACSWIRETEST";
  static final String SECRET_KEY = "wire-test-secret";
  static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  static final String HOST = "127.0.0.1";
  private static final String AMZ_DATE = "20260101T120000Z";
  private static final CredentialScope SCOPE = new CredentialScope("20260101", "us-east-1", "s3");
  private static final byte[] SIGNING_KEY =
      SigV4.deriveSigningKey(SECRET_KEY, SCOPE.date(), SCOPE.region(), SCOPE.service());
  static final String TRAILER = "x-amz-checksum-crc32c";

  private WireRequests() {}

  /** An authenticator that knows the test key, with its clock at {@link #NOW}. */
  static S3Authenticator authenticator() {
    return S3Authenticator.builder(StaticCredentialStore.of(ACCESS_KEY, SECRET_KEY))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .build();
  }

  /** A signed request head, and its signature (the seed of aws-chunked chunk signatures). */
  record Head(String text, String signature) {
    byte[] bytes() {
      return text.getBytes(StandardCharsets.ISO_8859_1);
    }
  }

  /**
   * A PUT head of 5 bytes expecting {@code 100 Continue}, with its signature forged (one hex digit
   * changed): refused for its signature whatever else holds.
   */
  static String forgedPut(String target) {
    return head(
            "PUT",
            target,
            "UNSIGNED-PAYLOAD",
            Map.of(),
            "Content-Length: 5",
            "Expect: 100-continue")
        .text()
        .replaceFirst("Signature=[0-9a-f]", "Signature=x");
  }

  /**
   * A head signed in the {@code Authorization} header. {@code host}, {@code x-amz-date}, {@code
   * x-amz-content-sha256} and {@code signed} are signed; {@code unsignedLines} (such as {@code
   * Transfer-Encoding: chunked}, {@code Content-Length: 5} or {@code Expect: 100-continue}) follow
   * unsigned, as real clients send them.
   */
  static Head head(
      String method,
      String target,
      String payloadHash,
      Map<String, String> signed,
      String... unsignedLines) {
    Map<String, String> all = new LinkedHashMap<>();
    all.put("host", HOST);
    all.put("x-amz-date", AMZ_DATE);
    all.put("x-amz-content-sha256", payloadHash);
    signed.forEach((name, value) -> all.put(name.toLowerCase(Locale.ROOT), value));
    Headers.Builder headers = Headers.builder();
    all.forEach(headers::add);
    List<String> names = new ArrayList<>(all.keySet());
    names.sort(null);
    RequestHead request = RequestHead.of(method, target, headers.build());
    String canonical =
        CanonicalRequest.build(
            method,
            CanonicalRequest.canonicalUri(request.rawPath()),
            CanonicalRequest.canonicalQuery(request.query(), null),
            CanonicalRequest.canonicalHeaders(request.headers(), names),
            String.join(";", names),
            payloadHash);
    String signature =
        SigV4.sign(SIGNING_KEY, CanonicalRequest.stringToSign(AMZ_DATE, SCOPE, canonical));
    StringBuilder text = new StringBuilder();
    text.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    all.forEach((name, value) -> text.append(name).append(": ").append(value).append("\r\n"));
    text.append("Authorization: ")
        .append(SigV4.ALGORITHM)
        .append(" Credential=")
        .append(ACCESS_KEY)
        .append('/')
        .append(SCOPE)
        .append(", SignedHeaders=")
        .append(String.join(";", names))
        .append(", Signature=")
        .append(signature)
        .append("\r\n");
    for (String line : unsignedLines) {
      text.append(line).append("\r\n");
    }
    text.append("\r\n");
    return new Head(text.toString(), signature);
  }

  /**
   * A signed PUT head declaring {@code bytes} for {@code target} (in {@code Content-Length}, or in
   * {@code x-amz-decoded-content-length} of an aws-chunked body), with {@code Expect:
   * 100-continue}: what a client sends before a body it will not send unless the server agrees.
   */
  static Head declaring(String target, long bytes, boolean awsChunked) {
    if (awsChunked) {
      return head(
          "PUT",
          target,
          ContentSha256.Mode.STREAMING_UNSIGNED_TRAILER.headerValue(),
          Map.of(
              "content-encoding",
              "aws-chunked",
              "x-amz-trailer",
              TRAILER,
              "x-amz-decoded-content-length",
              Long.toString(bytes)),
          "Content-Length: " + (bytes + 1000),
          "Expect: 100-continue");
    }
    return head(
        "PUT",
        target,
        "UNSIGNED-PAYLOAD",
        Map.of(),
        "Content-Length: " + bytes,
        "Expect: 100-continue");
  }

  /** A PUT of {@code payload} in {@code mode}: the signed head and the body it announces. */
  record Put(Head head, byte[] body) {}

  /**
   * A PUT of {@code payload} to {@code target} in any {@code x-amz-content-sha256} mode, the body
   * framed as the mode requires (aws-chunked for the streaming modes, with a CRC32C trailer for the
   * trailer modes), and {@code unsignedLines} added to the head.
   */
  static Put put(String target, ContentSha256.Mode mode, byte[] payload, String... unsignedLines) {
    Map<String, String> signed = new LinkedHashMap<>();
    String hash =
        switch (mode) {
          case SHA256 -> SigV4.hex(sha256(payload));
          default -> mode.headerValue();
        };
    if (mode.chunked()) {
      signed.put("content-encoding", "aws-chunked");
      signed.put("x-amz-decoded-content-length", Integer.toString(payload.length));
      if (mode.trailer()) {
        signed.put("x-amz-trailer", TRAILER);
      }
    }
    Head head = head("PUT", target, hash, signed, unsignedLines);
    byte[] body = mode.chunked() ? awsChunked(mode, payload, head.signature()) : payload;
    return new Put(head, body);
  }

  /** {@code payload} as aws-chunked: one data chunk, the final chunk, the trailer if any. */
  static byte[] awsChunked(ContentSha256.Mode mode, byte[] payload, String seedSignature) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    String previous = seedSignature;
    List<byte[]> chunks = payload.length == 0 ? List.of() : List.of(payload);
    List<byte[]> all = new ArrayList<>(chunks);
    all.add(new byte[0]);
    for (byte[] chunk : all) {
      out.writeBytes(ascii(Integer.toHexString(chunk.length)));
      if (mode.signedChunks()) {
        String stringToSign =
            "AWS4-HMAC-SHA256-PAYLOAD\n"
                + AMZ_DATE
                + '\n'
                + SCOPE
                + '\n'
                + previous
                + '\n'
                + SigV4.EMPTY_SHA256
                + '\n'
                + SigV4.hex(sha256(chunk));
        previous = SigV4.sign(SIGNING_KEY, stringToSign);
        out.writeBytes(ascii(";chunk-signature=" + previous));
      }
      out.writeBytes(ascii("\r\n"));
      if (chunk.length > 0) {
        out.writeBytes(chunk);
        out.writeBytes(ascii("\r\n"));
      }
    }
    if (mode.trailer()) {
      String trailer = TRAILER + ":" + crc32c(payload);
      out.writeBytes(ascii(trailer + "\r\n"));
      if (mode.signedChunks()) {
        String stringToSign =
            "AWS4-HMAC-SHA256-TRAILER\n"
                + AMZ_DATE
                + '\n'
                + SCOPE
                + '\n'
                + previous
                + '\n'
                + SigV4.sha256Hex(trailer + "\n");
        out.writeBytes(
            ascii("x-amz-trailer-signature:" + SigV4.sign(SIGNING_KEY, stringToSign) + "\r\n"));
      }
    }
    out.writeBytes(ascii("\r\n"));
    return out.toByteArray();
  }

  /** {@code data} as one HTTP chunk: size line, data, CRLF (no final chunk). */
  static byte[] httpChunk(byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(ascii(Integer.toHexString(data.length) + "\r\n"));
    out.writeBytes(data);
    out.writeBytes(ascii("\r\n"));
    return out.toByteArray();
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  static String crc32c(byte[] data) {
    CRC32C crc = new CRC32C();
    crc.update(data);
    return Base64.getEncoder()
        .encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }

  static byte[] sha256(byte[] data) {
    MessageDigest digest = SigV4.newSha256();
    return digest.digest(data);
  }
}
