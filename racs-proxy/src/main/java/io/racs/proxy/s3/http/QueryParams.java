package io.racs.proxy.s3.http;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * The decoded query parameters of a request, in arrival order. Names and values are percent-decoded
 * once (UTF-8, {@code +} read as a space as in HTML forms, which is how S3 reads {@code
 * prefix=a+b}); a name without {@code =} has the empty value, so {@code ?uploads} and {@code
 * ?uploads=} are the same.
 */
public final class QueryParams {
  private static final QueryParams EMPTY = new QueryParams(List.of());

  /** One decoded parameter. */
  public record Param(String name, String value) {}

  private final List<Param> params;

  private QueryParams(List<Param> params) {
    this.params = Collections.unmodifiableList(params);
  }

  /** No parameters. */
  public static QueryParams empty() {
    return EMPTY;
  }

  /**
   * Parses a raw query string (without the {@code ?}); {@code null} or empty gives no parameters.
   *
   * @throws S3Exception {@code InvalidURI} for a malformed percent escape or invalid UTF-8
   */
  public static QueryParams parse(String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return EMPTY;
    }
    List<Param> out = new ArrayList<>();
    int start = 0;
    while (start <= rawQuery.length()) {
      int amp = rawQuery.indexOf('&', start);
      int end = amp < 0 ? rawQuery.length() : amp;
      if (end > start) {
        String part = rawQuery.substring(start, end);
        int eq = part.indexOf('=');
        String name = eq < 0 ? part : part.substring(0, eq);
        String value = eq < 0 ? "" : part.substring(eq + 1);
        try {
          out.add(new Param(PercentCodec.decode(name, true), PercentCodec.decode(value, true)));
        } catch (IllegalArgumentException e) {
          throw S3Exception.of(S3ErrorCode.INVALID_URI, null, e);
        }
      }
      start = end + 1;
    }
    return new QueryParams(out);
  }

  /** The parameters in arrival order. */
  public List<Param> asList() {
    return params;
  }

  /** Whether {@code name} (case-sensitive, as S3 treats query names) is present. */
  public boolean contains(String name) {
    for (Param p : params) {
      if (p.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** The first value of {@code name}, if present. */
  public Optional<String> first(String name) {
    return Optional.ofNullable(get(name));
  }

  /** The first value of {@code name}, or {@code null}. */
  public String get(String name) {
    for (Param p : params) {
      if (p.name().equals(name)) {
        return p.value();
      }
    }
    return null;
  }

  /** How many times {@code name} is present. */
  public int count(String name) {
    int n = 0;
    for (Param p : params) {
      if (p.name().equals(name)) {
        n++;
      }
    }
    return n;
  }

  /** Whether there are no parameters. */
  public boolean isEmpty() {
    return params.isEmpty();
  }

  @Override
  public String toString() {
    // Values may carry a presigned URL's signature: print names only.
    return "QueryParams" + params.stream().map(Param::name).toList();
  }
}
