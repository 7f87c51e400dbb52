package io.racs.proxy.s3.auth;

import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.PercentCodec;
import io.racs.proxy.s3.http.QueryParams;
import java.util.ArrayList;
import java.util.List;

/**
 * The SigV4 canonical request and string to sign, built the way S3 builds them: the path is not
 * normalised (no {@code .} or {@code //} collapsing) and not double-encoded.
 */
public final class CanonicalRequest {
  private CanonicalRequest() {}

  /**
   * The canonical URI of a raw (as sent) path: each {@code %XX} escape is decoded and each byte
   * re-encoded with {@link PercentCodec#uriEncodeComponent}, except that an escaped {@code /} stays
   * escaped (it is part of a key, not a separator). Clients that escape more or fewer characters
   * than SigV4 requires thus still match, while the path is encoded exactly once.
   *
   * @throws IllegalArgumentException for a malformed escape
   */
  public static String canonicalUri(String rawPath) {
    if (rawPath.isEmpty()) {
      return "/";
    }
    StringBuilder out = new StringBuilder(rawPath.length() + 16);
    StringBuilder run = new StringBuilder();
    for (int i = 0; i < rawPath.length(); i++) {
      char c = rawPath.charAt(i);
      if (c == '/') {
        out.append(PercentCodec.uriEncodeComponent(PercentCodec.decode(run.toString(), false)));
        run.setLength(0);
        out.append('/');
      } else if (c == '%'
          && i + 2 < rawPath.length()
          && rawPath.charAt(i + 1) == '2'
          && (rawPath.charAt(i + 2) == 'F' || rawPath.charAt(i + 2) == 'f')) {
        out.append(PercentCodec.uriEncodeComponent(PercentCodec.decode(run.toString(), false)));
        run.setLength(0);
        out.append("%2F");
        i += 2;
      } else {
        run.append(c);
      }
    }
    out.append(PercentCodec.uriEncodeComponent(PercentCodec.decode(run.toString(), false)));
    return out.toString();
  }

  /**
   * The canonical query string: every parameter but {@code excluded} (the presigned signature),
   * names and values {@code UriEncode}d, sorted by name then value, joined with {@code &}.
   */
  public static String canonicalQuery(QueryParams query, String excluded) {
    List<String[]> pairs = new ArrayList<>();
    for (QueryParams.Param p : query.asList()) {
      if (excluded != null && p.name().equals(excluded)) {
        continue;
      }
      pairs.add(
          new String[] {
            PercentCodec.uriEncodeComponent(p.name()), PercentCodec.uriEncodeComponent(p.value())
          });
    }
    pairs.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
    StringBuilder out = new StringBuilder();
    for (String[] pair : pairs) {
      if (!out.isEmpty()) {
        out.append('&');
      }
      out.append(pair[0]).append('=').append(pair[1]);
    }
    return out.toString();
  }

  /**
   * The canonical headers block: for each signed header name (lower-case, in the given order),
   * {@code name:value\n}, where the values of repeated headers are joined with {@code ,} and each
   * value is trimmed with inner runs of spaces collapsed to one. A signed header the request lacks
   * canonicalises to an empty value (and the signature then will not match).
   */
  public static String canonicalHeaders(Headers headers, List<String> signedHeaders) {
    StringBuilder out = new StringBuilder();
    for (String name : signedHeaders) {
      out.append(name).append(':');
      List<String> values = headers.all(name);
      for (int i = 0; i < values.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        appendTrimmedCollapsed(out, values.get(i));
      }
      out.append('\n');
    }
    return out.toString();
  }

  private static void appendTrimmedCollapsed(StringBuilder out, String value) {
    String v = value.strip();
    boolean space = false;
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c == ' ') {
        if (!space) {
          out.append(' ');
        }
        space = true;
      } else {
        out.append(c);
        space = false;
      }
    }
  }

  /**
   * The whole canonical request.
   *
   * @param method upper-case method
   * @param canonicalUri from {@link #canonicalUri}
   * @param canonicalQuery from {@link #canonicalQuery}
   * @param canonicalHeaders from {@link #canonicalHeaders}
   * @param signedHeaders the lower-case signed header names, {@code ;}-joined
   * @param payloadHash the {@code x-amz-content-sha256} value or {@code UNSIGNED-PAYLOAD}
   */
  public static String build(
      String method,
      String canonicalUri,
      String canonicalQuery,
      String canonicalHeaders,
      String signedHeaders,
      String payloadHash) {
    return method
        + '\n'
        + canonicalUri
        + '\n'
        + canonicalQuery
        + '\n'
        + canonicalHeaders
        + '\n'
        + signedHeaders
        + '\n'
        + payloadHash;
  }

  /** {@code AWS4-HMAC-SHA256\n<amzDate>\n<scope>\n<hex sha256(canonicalRequest)>}. */
  public static String stringToSign(
      String amzDate, CredentialScope scope, String canonicalRequest) {
    return SigV4.ALGORITHM
        + '\n'
        + amzDate
        + '\n'
        + scope
        + '\n'
        + SigV4.sha256Hex(canonicalRequest);
  }
}
