package io.racs.proxy.admin;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who is signed in to the console: a login with one of the proxy's configured credentials (access
 * key and secret key, compared in constant time) opens a session named by a random 256-bit token,
 * which the browser keeps in an HttpOnly, SameSite=Strict cookie. Sessions live in memory only (a
 * restart signs everybody out) and expire {@link #LIFETIME} after login. Thread-safe.
 */
final class ConsoleSessions {
  /** How long a session lasts after its login. */
  static final Duration LIFETIME = Duration.ofHours(12);

  /** The cookie's name. */
  static final String COOKIE = "racs_console";

  private final AdminCredentials credentials;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();

  /** A signed-in access key and when its session ends. */
  record Session(String accessKey, long expiresMillis) {}

  ConsoleSessions(AdminCredentials credentials, Clock clock) {
    this.credentials = credentials;
    this.clock = clock;
  }

  /**
   * A new session's token when {@code secretKey} is {@code accessKey}'s, else empty. The secret is
   * compared in constant time whether or not the access key exists.
   */
  Optional<String> login(String accessKey, String secretKey) {
    if (!credentials.valid(accessKey, secretKey)) {
      return Optional.empty();
    }
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    String token = HexFormat.of().formatHex(bytes);
    sessions.put(token, new Session(accessKey, clock.millis() + LIFETIME.toMillis()));
    return Optional.of(token);
  }

  /** The live session of {@code cookieHeader} (a request's Cookie header, may be null). */
  Optional<Session> session(String cookieHeader) {
    String token = token(cookieHeader);
    if (token == null) {
      return Optional.empty();
    }
    Session s = sessions.get(token);
    if (s == null) {
      return Optional.empty();
    }
    if (s.expiresMillis() <= clock.millis()) {
      sessions.remove(token);
      return Optional.empty();
    }
    return Optional.of(s);
  }

  /** Ends the session of {@code cookieHeader}, if any. */
  void logout(String cookieHeader) {
    String token = token(cookieHeader);
    if (token != null) {
      sessions.remove(token);
    }
  }

  /** The Set-Cookie value that keeps {@code token} (empty: clears the cookie). */
  static String cookie(String token) {
    return COOKIE
        + "="
        + token
        + "; Path=/console; HttpOnly; SameSite=Strict; Max-Age="
        + (token.isEmpty() ? 0 : LIFETIME.toSeconds());
  }

  private static String token(String cookieHeader) {
    if (cookieHeader == null) {
      return null;
    }
    for (String part : cookieHeader.split(";")) {
      String p = part.trim();
      if (p.startsWith(COOKIE + "=")) {
        return p.substring(COOKIE.length() + 1);
      }
    }
    return null;
  }
}
