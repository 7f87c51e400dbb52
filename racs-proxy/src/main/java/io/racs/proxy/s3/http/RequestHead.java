package io.racs.proxy.s3.http;

import java.util.Locale;
import java.util.Objects;

/**
 * The head of one HTTP request as the S3 layer needs it: the method, the path and query exactly as
 * they came on the wire (still percent-encoded; SigV2 signs the raw path, SigV4 and routing decode
 * it once), and the headers.
 *
 * @param method the method, upper-cased
 * @param rawPath the request target's path, starting with {@code /}, still encoded
 * @param rawQuery the query without {@code ?}, still encoded; empty when there is none
 * @param headers the headers
 */
public record RequestHead(String method, String rawPath, String rawQuery, Headers headers) {
  /** Checks the arguments and normalises the method's case. */
  public RequestHead {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(rawPath, "rawPath");
    Objects.requireNonNull(headers, "headers");
    method = method.toUpperCase(Locale.ROOT);
    rawQuery = rawQuery == null ? "" : rawQuery;
    if (!rawPath.startsWith("/")) {
      throw new IllegalArgumentException("rawPath: " + rawPath + " (expected: starts with /)");
    }
  }

  /**
   * A request head from a request target such as {@code /bucket/key?uploadId=1}. An absolute form
   * ({@code http://host/path}) is reduced to its path and query.
   */
  public static RequestHead of(String method, String requestTarget, Headers headers) {
    String target = requestTarget;
    int scheme = target.indexOf("://");
    if (!target.startsWith("/") && scheme > 0) {
      int slash = target.indexOf('/', scheme + 3);
      target = slash < 0 ? "/" : target.substring(slash);
    }
    int hash = target.indexOf('#');
    if (hash >= 0) {
      target = target.substring(0, hash);
    }
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String query = q < 0 ? "" : target.substring(q + 1);
    return new RequestHead(method, path.isEmpty() ? "/" : path, query, headers);
  }

  /** The decoded query parameters (parsed on each call; cache the result if needed often). */
  public QueryParams query() {
    return QueryParams.parse(rawQuery);
  }

  @Override
  public String toString() {
    // Neither the query (a presigned signature) nor header values are printed.
    return "RequestHead{" + method + " " + rawPath + "}";
  }
}
