package io.racs.proxy.s3.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Percent-encoding as S3 uses it: decoding of paths and queries, the SigV4 {@code UriEncode}, and
 * the {@code encoding-type=url} form of keys in listings.
 */
public final class PercentCodec {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private PercentCodec() {}

  /**
   * Decodes {@code %XX} escapes once and reads the bytes as strict UTF-8.
   *
   * @param plusAsSpace whether {@code +} means a space (query strings) or itself (paths)
   * @throws IllegalArgumentException for a malformed escape or bytes that are not UTF-8
   */
  public static String decode(String s, boolean plusAsSpace) {
    if (s.indexOf('%') < 0 && (!plusAsSpace || s.indexOf('+') < 0)) {
      return s;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%') {
        if (i + 2 >= s.length()) {
          throw new IllegalArgumentException("truncated percent escape at index " + i);
        }
        int hi = Character.digit(s.charAt(i + 1), 16);
        int lo = Character.digit(s.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("malformed percent escape at index " + i);
        }
        bytes.write((hi << 4) | lo);
        i += 2;
      } else if (c == '+' && plusAsSpace) {
        bytes.write(' ');
      } else if (c < 0x80) {
        bytes.write(c);
      } else {
        // A raw non-ASCII character (clients should escape it, some do not): its UTF-8 bytes.
        int end = Character.isHighSurrogate(c) && i + 1 < s.length() ? i + 2 : i + 1;
        bytes.writeBytes(s.substring(i, end).getBytes(StandardCharsets.UTF_8));
        i = end - 1;
      }
    }
    return strictUtf8(bytes.toByteArray());
  }

  /** Reads {@code bytes} as UTF-8, refusing malformed input rather than replacing it. */
  public static String strictUtf8(byte[] bytes) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      CharBuffer chars = decoder.decode(ByteBuffer.wrap(bytes));
      return chars.toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("not UTF-8", e);
    }
  }

  /**
   * The SigV4 {@code UriEncode} of a path: every UTF-8 byte except the unreserved {@code A-Z a-z
   * 0-9 - . _ ~} and {@code /} becomes {@code %XX} with upper-case hex. For an object key in a
   * request path, where {@code /} separates nothing but is sent as it is.
   */
  public static String uriEncodePath(String s) {
    return uriEncode(s, true);
  }

  /**
   * The SigV4 {@code UriEncode} of one component: every UTF-8 byte except the unreserved {@code A-Z
   * a-z 0-9 - . _ ~} becomes {@code %XX} with upper-case hex, {@code /} too. For query names and
   * values, bucket names and single path segments.
   */
  public static String uriEncodeComponent(String s) {
    return uriEncode(s, false);
  }

  private static String uriEncode(String s, boolean keepSlash) {
    StringBuilder out = null;
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xFF;
      boolean keep = isUnreserved(b) || (keepSlash && b == '/');
      if (keep && out == null) {
        continue;
      }
      if (out == null) {
        out = new StringBuilder(bytes.length * 3);
        for (int j = 0; j < i; j++) {
          out.append((char) bytes[j]);
        }
      }
      if (keep) {
        out.append((char) b);
      } else {
        out.append('%').append(HEX[b >>> 4]).append(HEX[b & 15]);
      }
    }
    return out == null ? s : out.toString();
  }

  /**
   * The {@code encoding-type=url} form S3 uses for keys, prefixes and delimiters in listings: a
   * space becomes {@code +}, {@code A-Z a-z 0-9 - . _ ~ /} stay, every other UTF-8 byte becomes
   * {@code %XX}. Both botocore ({@code unquote_plus}) and the Java SDK ({@code URLDecoder}) decode
   * it back exactly.
   */
  public static String formEncode(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder(bytes.length + 16);
    for (byte value : bytes) {
      int b = value & 0xFF;
      if (isUnreserved(b) || b == '/') {
        out.append((char) b);
      } else if (b == ' ') {
        out.append('+');
      } else {
        out.append('%').append(HEX[b >>> 4]).append(HEX[b & 15]);
      }
    }
    return out.toString();
  }

  private static boolean isUnreserved(int b) {
    return (b >= 'A' && b <= 'Z')
        || (b >= 'a' && b <= 'z')
        || (b >= '0' && b <= '9')
        || b == '-'
        || b == '.'
        || b == '_'
        || b == '~';
  }
}
