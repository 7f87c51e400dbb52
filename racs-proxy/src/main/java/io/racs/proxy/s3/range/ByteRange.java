package io.racs.proxy.s3.range;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import java.util.Locale;
import java.util.Optional;

/**
 * A satisfiable byte range of an object, inclusive at both ends, and the parsing of {@code Range}
 * headers as S3 reads them.
 *
 * <p>S3 semantics, chosen deliberately: a header that is not one {@code bytes=} range (another
 * unit, bad syntax, {@code a-b} with {@code b < a}) is ignored and the whole object is served, as
 * RFC 9110 allows; several ranges ({@code bytes=0-1,5-6}) are not supported by S3, which serves the
 * whole object, and so does this; a range starting at or past the end, a zero suffix, or any range
 * of an empty object is {@code InvalidRange} (416) naming the object size.
 *
 * @param first the first byte
 * @param last the last byte, {@code >= first}
 */
public record ByteRange(long first, long last) {
  /** Checks the arguments. */
  public ByteRange {
    if (first < 0 || last < first) {
      throw new IllegalArgumentException(
          "range: " + first + "-" + last + " (expected: 0 <= first <= last)");
    }
  }

  /** How many bytes. */
  public long lengthBytes() {
    return last - first + 1;
  }

  /** The {@code Content-Range} value, e.g. {@code bytes 0-9/100}. */
  public String contentRange(long objectSizeBytes) {
    return "bytes " + first + "-" + last + "/" + objectSizeBytes;
  }

  /**
   * Parses a {@code Range} header against the object's size.
   *
   * @param header the header value, or {@code null}
   * @return the range, or empty to serve the whole object
   * @throws S3Exception {@code InvalidRange} when the range cannot be satisfied
   */
  public static Optional<ByteRange> parse(String header, long objectSizeBytes) {
    if (header == null) {
      return Optional.empty();
    }
    String h = header.strip();
    if (!h.toLowerCase(Locale.ROOT).startsWith("bytes=")) {
      return Optional.empty();
    }
    String spec = h.substring("bytes=".length()).strip();
    if (spec.indexOf(',') >= 0) {
      return Optional.empty();
    }
    int dash = spec.indexOf('-');
    if (dash < 0) {
      return Optional.empty();
    }
    String a = spec.substring(0, dash).strip();
    String b = spec.substring(dash + 1).strip();
    if (a.isEmpty()) {
      long suffix = digits(b);
      if (suffix < 0) {
        return Optional.empty();
      }
      if (suffix == 0 || objectSizeBytes == 0) {
        throw unsatisfiable(header, objectSizeBytes);
      }
      return Optional.of(new ByteRange(Math.max(0, objectSizeBytes - suffix), objectSizeBytes - 1));
    }
    long first = digits(a);
    if (first < 0) {
      return Optional.empty();
    }
    long last;
    if (b.isEmpty()) {
      last = Long.MAX_VALUE;
    } else {
      last = digits(b);
      if (last < 0 || last < first) {
        return Optional.empty();
      }
    }
    if (first >= objectSizeBytes) {
      throw unsatisfiable(header, objectSizeBytes);
    }
    return Optional.of(new ByteRange(first, Math.min(last, objectSizeBytes - 1)));
  }

  /** Decimal digits as a number saturating at {@code Long.MAX_VALUE}; -1 if not digits. */
  private static long digits(String s) {
    if (s.isEmpty()) {
      return -1;
    }
    long v = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v > (Long.MAX_VALUE - 9) / 10 ? Long.MAX_VALUE : v * 10 + (c - '0');
    }
    return v;
  }

  private static S3Exception unsatisfiable(String header, long size) {
    return S3Exception.of(S3ErrorCode.INVALID_RANGE)
        .withDetail("RangeRequested", header.strip())
        .withDetail("ActualObjectSize", Long.toString(size));
  }
}
