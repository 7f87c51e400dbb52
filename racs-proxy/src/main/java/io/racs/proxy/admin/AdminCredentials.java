package io.racs.proxy.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * Who may use the admin port's signed-in parts (the console and the admin API): the proxy's
 * configured credentials ({@code server.credentials}, the administrators), never a user stored in
 * the array. The one check of an access key and its secret for both. Immutable and thread-safe.
 */
final class AdminCredentials {
  private final Map<String, String> secrets;

  /** The administrators of {@code secrets} (access key to secret key). */
  AdminCredentials(Map<String, String> secrets) {
    this.secrets = Map.copyOf(secrets);
  }

  /**
   * Whether {@code secretKey} is the secret of administrator {@code accessKey} (either may be null:
   * false). The secret is compared in constant time whether or not the access key exists.
   */
  boolean valid(String accessKey, String secretKey) {
    if (accessKey == null || secretKey == null) {
      return false;
    }
    String expected = secrets.get(accessKey);
    boolean match =
        MessageDigest.isEqual(
            (expected == null ? "\0" : expected).getBytes(StandardCharsets.UTF_8),
            secretKey.getBytes(StandardCharsets.UTF_8));
    return expected != null && match;
  }
}
