package io.racs.repos.s3;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The {@code Content-MD5} of a buffered body: what carries a body's integrity when flexible
 * checksums are off ({@link S3Options.Checksums#WHEN_REQUIRED}). Every S3 store checks it and
 * refuses a body that does not match, whatever the payload signing mode.
 */
final class ContentMd5 {
  private ContentMd5() {}

  /** The base64 MD5 of {@code buffer[0, length)}. */
  static String of(byte[] buffer, int length) {
    MessageDigest md5;
    try {
      md5 = MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("MD5: every JDK has it", e);
    }
    md5.update(buffer, 0, length);
    return Base64.getEncoder().encodeToString(md5.digest());
  }
}
