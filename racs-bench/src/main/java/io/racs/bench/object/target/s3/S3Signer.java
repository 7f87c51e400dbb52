package io.racs.bench.object.target.s3;

import io.racs.proxy.s3.auth.SigV4;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 for the S3 service on the client side: the Authorization header of a
 * request and the chunk signatures of a {@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD} body. The
 * signing key is derived once per day. Not thread-safe: each benchmark client owns one, so the
 * digest and MAC instances are reused without locks.
 */
public final class S3Signer {
  private static final HexFormat HEX = HexFormat.of();
  private static final String SERVICE = "s3";

  private final String accessKey;
  private final String secretKey;
  private final String region;
  private final MessageDigest sha256 = SigV4.newSha256();
  private final Mac mac;
  private String keyDate = "";
  private String scope = "";

  /** A signer for {@code accessKey}/{@code secretKey} in {@code region}. */
  public S3Signer(String accessKey, String secretKey, String region) {
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    this.region = region;
    try {
      this.mac = Mac.getInstance("HmacSHA256");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is a required JDK algorithm", e);
    }
  }

  /**
   * A signed request head: the Authorization header's value and the bare signature, which seeds the
   * chunk signatures of a streaming body.
   */
  public record Signature(String authorization, String signature) {}

  /**
   * Signs a request.
   *
   * @param method the HTTP method
   * @param canonicalUri the URI-encoded path, as sent
   * @param canonicalQuery the canonical query string (sorted, encoded), empty when none
   * @param signedHeaders the headers to sign: lower-case names to values, {@code host}, {@code
   *     x-amz-content-sha256} and {@code x-amz-date} among them
   * @param amzDate the request's {@code x-amz-date} ({@code yyyyMMdd'T'HHmmss'Z'})
   */
  public Signature sign(
      String method,
      String canonicalUri,
      String canonicalQuery,
      SortedMap<String, String> signedHeaders,
      String amzDate) {
    StringBuilder canonical = new StringBuilder(256);
    canonical.append(method).append('\n').append(canonicalUri).append('\n');
    canonical.append(canonicalQuery).append('\n');
    for (Map.Entry<String, String> h : signedHeaders.entrySet()) {
      canonical.append(h.getKey()).append(':').append(h.getValue().strip()).append('\n');
    }
    canonical.append('\n');
    String names = String.join(";", signedHeaders.keySet());
    canonical.append(names).append('\n').append(signedHeaders.get("x-amz-content-sha256"));
    String stringToSign =
        SigV4.ALGORITHM
            + "\n"
            + amzDate
            + "\n"
            + scope(amzDate)
            + "\n"
            + HEX.formatHex(sha256.digest(canonical.toString().getBytes(StandardCharsets.UTF_8)));
    String signature = hmacHex(stringToSign);
    return new Signature(
        SigV4.ALGORITHM
            + " Credential="
            + accessKey
            + "/"
            + scope
            + ",SignedHeaders="
            + names
            + ",Signature="
            + signature,
        signature);
  }

  /**
   * The signature of one chunk of a signed streaming body.
   *
   * @param amzDate the request's {@code x-amz-date}
   * @param previousSignature the previous chunk's signature, or the request's for the first chunk
   * @param chunk the chunk's bytes ({@code length} 0 for the final chunk)
   */
  public String chunkSignature(
      String amzDate, String previousSignature, byte[] chunk, int offset, int length) {
    sha256.update(chunk, offset, length);
    String chunkHash = HEX.formatHex(sha256.digest());
    return hmacHex(
        "AWS4-HMAC-SHA256-PAYLOAD\n"
            + amzDate
            + "\n"
            + scope(amzDate)
            + "\n"
            + previousSignature
            + "\n"
            + SigV4.EMPTY_SHA256
            + "\n"
            + chunkHash);
  }

  private String scope(String amzDate) {
    String date = amzDate.substring(0, 8);
    if (!date.equals(keyDate)) {
      try {
        mac.init(
            new SecretKeySpec(
                SigV4.deriveSigningKey(secretKey, date, region, SERVICE), "HmacSHA256"));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("HmacSHA256 refused its key", e);
      }
      keyDate = date;
      scope = date + "/" + region + "/" + SERVICE + "/aws4_request";
    }
    return scope;
  }

  private String hmacHex(String stringToSign) {
    return HEX.formatHex(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
  }
}
