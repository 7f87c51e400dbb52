package io.racs.proxy.s3.cors;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One {@code CORSRule}: which origins may use which methods with which request headers, which
 * response headers the browser may expose, and how long it may cache a preflight answer.
 *
 * @param id the rule's {@code ID}, or {@code null}
 * @param allowedOrigins origins, each with at most one {@code *} wildcard
 * @param allowedMethods among {@code GET, PUT, POST, DELETE, HEAD}
 * @param allowedHeaders request header names (any case), each with at most one {@code *}
 * @param exposeHeaders response header names a browser script may read
 * @param maxAgeSeconds how long a preflight answer may be cached, or {@code null}
 */
public record CorsRule(
    String id,
    List<String> allowedOrigins,
    List<String> allowedMethods,
    List<String> allowedHeaders,
    List<String> exposeHeaders,
    Integer maxAgeSeconds) {
  /** The methods a rule may allow, as in S3. */
  public static final Set<String> METHODS = Set.of("GET", "PUT", "POST", "DELETE", "HEAD");

  /** The longest rule {@code ID} S3 accepts. */
  public static final int MAX_ID_LENGTH = 255;

  /** Copies the lists. */
  public CorsRule {
    allowedOrigins = List.copyOf(allowedOrigins);
    allowedMethods = List.copyOf(allowedMethods);
    allowedHeaders = List.copyOf(allowedHeaders);
    exposeHeaders = List.copyOf(exposeHeaders);
  }

  /**
   * Checks the rule as S3 does.
   *
   * @throws S3Exception {@code MalformedXML} without an origin or a method, {@code InvalidRequest}
   *     for an unsupported method, a second wildcard, a negative max age or a too long ID
   */
  public void validate() {
    if (allowedOrigins.isEmpty() || allowedMethods.isEmpty()) {
      throw S3Exception.of(S3ErrorCode.MALFORMED_XML);
    }
    for (String method : allowedMethods) {
      if (!METHODS.contains(method)) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST,
            "Found unsupported HTTP method in CORS config. Unsupported method is " + method);
      }
    }
    for (String origin : allowedOrigins) {
      if (origin.indexOf('*') != origin.lastIndexOf('*')) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST,
            "AllowedOrigin \"" + origin + "\" can not have more than one wildcard.");
      }
    }
    for (String header : allowedHeaders) {
      if (header.indexOf('*') != header.lastIndexOf('*')) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST,
            "AllowedHeader \"" + header + "\" can not have more than one wildcard.");
      }
    }
    if (maxAgeSeconds != null && maxAgeSeconds < 0) {
      throw S3Exception.of(S3ErrorCode.MALFORMED_XML);
    }
    if (id != null && id.length() > MAX_ID_LENGTH) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST,
          "ID length should not exceed allowed limit of " + MAX_ID_LENGTH);
    }
  }

  /**
   * Whether this rule lets {@code origin} use {@code method} with the request headers {@code
   * requestHeaders} (lower-case or not).
   */
  public boolean matches(String origin, String method, List<String> requestHeaders) {
    if (!allowedMethods.contains(method)) {
      return false;
    }
    if (allowedOrigins.stream().noneMatch(o -> wildcardMatch(o, origin))) {
      return false;
    }
    for (String header : requestHeaders) {
      String h = header.toLowerCase(Locale.ROOT);
      if (allowedHeaders.stream().noneMatch(a -> wildcardMatch(a.toLowerCase(Locale.ROOT), h))) {
        return false;
      }
    }
    return true;
  }

  /** True when the rule allows every origin ({@code *}), so answers need not name the origin. */
  public boolean anyOrigin() {
    return allowedOrigins.contains("*");
  }

  /** Matches {@code value} against {@code pattern}, where one {@code *} stands for any text. */
  static boolean wildcardMatch(String pattern, String value) {
    int star = pattern.indexOf('*');
    if (star < 0) {
      return pattern.equals(value);
    }
    String head = pattern.substring(0, star);
    String tail = pattern.substring(star + 1);
    return value.length() >= head.length() + tail.length()
        && value.startsWith(head)
        && value.endsWith(tail);
  }
}
