package io.racs.proxy.s3.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The SigV4 primitives: HMAC-SHA256, SHA-256, lower-case hex, and constant-time comparison. */
public final class SigV4 {
  /** The algorithm name in headers, query parameters and strings to sign. */
  public static final String ALGORITHM = "AWS4-HMAC-SHA256";

  /** Hex SHA-256 of no bytes. */
  public static final String EMPTY_SHA256 =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  private static final HexFormat HEX = HexFormat.of();

  private SigV4() {}

  /** HMAC-SHA256 of {@code data} under {@code key}. */
  public static byte[] hmacSha256(byte[] key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is a required JDK algorithm", e);
    }
  }

  /** HMAC-SHA256 of UTF-8 {@code data} under {@code key}. */
  public static byte[] hmacSha256(byte[] key, String data) {
    return hmacSha256(key, data.getBytes(StandardCharsets.UTF_8));
  }

  /** A new SHA-256 digest. */
  public static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a required JDK algorithm", e);
    }
  }

  /** Lower-case hex SHA-256 of UTF-8 {@code s}. */
  public static String sha256Hex(String s) {
    return hex(newSha256().digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  /** Lower-case hex of {@code bytes}. */
  public static String hex(byte[] bytes) {
    return HEX.formatHex(bytes);
  }

  /**
   * The signing key {@code HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service),
   * "aws4_request")}. Prefer {@link SigningKeyCache#signingKey}, which caches it.
   */
  public static byte[] deriveSigningKey(String secretKey, String date, String region, String svc) {
    byte[] k = hmacSha256(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), date);
    k = hmacSha256(k, region);
    k = hmacSha256(k, svc);
    return hmacSha256(k, "aws4_request");
  }

  /** Lower-case hex HMAC-SHA256 of {@code stringToSign} under {@code signingKey}. */
  public static String sign(byte[] signingKey, String stringToSign) {
    return hex(hmacSha256(signingKey, stringToSign));
  }

  /**
   * Compares a computed signature with the one the client sent, in time independent of where they
   * differ. Case matters: SigV4 signatures are lower-case hex.
   */
  public static boolean signaturesEqual(String computed, String provided) {
    if (provided == null) {
      return false;
    }
    return MessageDigest.isEqual(
        computed.getBytes(StandardCharsets.US_ASCII), provided.getBytes(StandardCharsets.US_ASCII));
  }
}
