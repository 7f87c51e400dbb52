package io.racs.proxy.s3.route;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.nio.charset.StandardCharsets;

/** The S3 naming rules for buckets and keys. */
public final class BucketNames {
  /** The longest key, in UTF-8 bytes. */
  public static final int MAX_KEY_BYTES = 1024;

  private BucketNames() {}

  /**
   * Whether {@code name} is a valid general-purpose bucket name: 3 to 63 characters of lower-case
   * letters, digits, dots and hyphens, starting and ending with a letter or digit, no two adjacent
   * dots, not an IPv4 address, none of the reserved prefixes and suffixes.
   */
  public static boolean isValid(String name) {
    int n = name.length();
    if (n < 3 || n > 63) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      char c = name.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
      if (!ok) {
        return false;
      }
    }
    if (!isAlnum(name.charAt(0)) || !isAlnum(name.charAt(n - 1))) {
      return false;
    }
    if (name.contains("..") || name.contains(".-") || name.contains("-.")) {
      return false;
    }
    if (name.startsWith("xn--")
        || name.startsWith("sthree-")
        || name.endsWith("-s3alias")
        || name.endsWith("--ol-s3")) {
      return false;
    }
    return !looksLikeIpv4(name);
  }

  /**
   * Checks a bucket name.
   *
   * @throws S3Exception {@code InvalidBucketName} naming it
   */
  public static void validate(String name) {
    if (!isValid(name)) {
      throw S3Exception.of(S3ErrorCode.INVALID_BUCKET_NAME).withDetail("BucketName", name);
    }
  }

  /**
   * Checks a key's length.
   *
   * @throws S3Exception {@code KeyTooLongError} over 1,024 UTF-8 bytes
   */
  public static void validateKey(String key) {
    if (key.length() > MAX_KEY_BYTES / 3
        && key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
      throw S3Exception.of(S3ErrorCode.KEY_TOO_LONG_ERROR)
          .withDetail("MaxSizeAllowed", Integer.toString(MAX_KEY_BYTES))
          .withDetail("Size", Integer.toString(key.getBytes(StandardCharsets.UTF_8).length));
    }
  }

  private static boolean isAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }

  private static boolean looksLikeIpv4(String name) {
    String[] parts = name.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 3) {
        return false;
      }
      for (int i = 0; i < p.length(); i++) {
        if (p.charAt(i) < '0' || p.charAt(i) > '9') {
          return false;
        }
      }
    }
    return true;
  }
}
