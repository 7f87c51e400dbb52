package io.racs.repos;

import java.util.Comparator;

/** Checks keys and compares them the way S3 does. */
public final class Keys {
  /** The longest valid key, in UTF-8 bytes. */
  public static final int MAX_KEY_BYTES = 1024;

  /**
   * UTF-8 binary order: the unsigned byte order of the keys' UTF-8 encodings, which is the order of
   * their code points. {@link String#compareTo} differs from it for characters beyond U+FFFF.
   */
  public static final Comparator<String> ORDER = Keys::compare;

  private Keys() {}

  /**
   * Checks that {@code key} is a valid key: 1 to 1024 bytes of well-formed UTF-8.
   *
   * @return {@code key}
   * @throws IllegalArgumentException when it is not
   */
  public static String check(String key) {
    if (key == null) {
      throw new IllegalArgumentException("key: null (expected: 1 to 1024 bytes of UTF-8)");
    }
    long bytes = utf8Length(key, "key");
    if (bytes == 0 || bytes > MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "key: "
              + abbreviate(key)
              + " of "
              + bytes
              + " bytes (expected: 1 to "
              + MAX_KEY_BYTES
              + " bytes of UTF-8)");
    }
    return key;
  }

  /**
   * Checks a listing bound ({@code prefix} or {@code startAfter}): well-formed UTF-8 of at most
   * 1024 bytes; empty is allowed.
   */
  public static String checkBound(String value, String name) {
    if (value == null) {
      throw new IllegalArgumentException(name + ": null (expected: \"\" or a string)");
    }
    long bytes = utf8Length(value, name);
    if (bytes > MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          name + ": " + bytes + " bytes (expected: at most " + MAX_KEY_BYTES + ")");
    }
    return value;
  }

  /** Checks a {@link Repository#list} page size. */
  public static int checkMaxKeys(int maxKeys) {
    if (maxKeys < 1 || maxKeys > Repository.MAX_LIST_PAGE) {
      throw new IllegalArgumentException(
          "maxKeys: " + maxKeys + " (expected: 1 to " + Repository.MAX_LIST_PAGE + ")");
    }
    return maxKeys;
  }

  /** Checks the range arguments of {@link Repository#get(String, long, long)}. */
  public static void checkRange(long offset, long lengthBytes) {
    if (offset < 0) {
      throw new IllegalArgumentException("offset: " + offset + " (expected: >= 0)");
    }
    if (lengthBytes < -1) {
      throw new IllegalArgumentException(
          "lengthBytes: " + lengthBytes + " (expected: >= 0, or -1 for the rest)");
    }
  }

  /** Checks the length argument of {@link Repository#put}. */
  public static void checkLength(long lengthBytes) {
    if (lengthBytes < -1) {
      throw new IllegalArgumentException(
          "lengthBytes: " + lengthBytes + " (expected: >= 0, or -1 when unknown)");
    }
  }

  /** The number of bytes {@code s} takes in UTF-8; throws on an unpaired surrogate. */
  public static long utf8Length(String s, String name) {
    long bytes = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)) {
        if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
          throw new IllegalArgumentException(
              name + ": unpaired surrogate at index " + i + " (expected: well-formed UTF-16)");
        }
        bytes += 4;
        i++;
      } else if (Character.isLowSurrogate(c)) {
        throw new IllegalArgumentException(
            name + ": unpaired surrogate at index " + i + " (expected: well-formed UTF-16)");
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  /** Compares in UTF-8 binary order; see {@link #ORDER}. */
  public static int compare(String a, String b) {
    // Char by char: UTF-16 order is code point order (and so UTF-8 order) except where a
    // surrogate meets a char at or above U+E000, since a surrogate pair stands for a code point
    // above U+FFFF. Up to the first difference both strings hold the same chars, so the two chars
    // that differ are both high surrogates, both low ones after the same high one, or neither.
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char ca = a.charAt(i);
      char cb = b.charAt(i);
      if (ca != cb) {
        boolean sa = Character.isSurrogate(ca);
        if (sa != Character.isSurrogate(cb)) {
          return sa ? 1 : -1;
        }
        return Integer.compare(ca, cb);
      }
    }
    return Integer.compare(a.length(), b.length());
  }

  /** A key shortened for messages, with control characters made visible. */
  public static String abbreviate(String key) {
    StringBuilder out = new StringBuilder("\"");
    int limit = Math.min(key.length(), 80);
    for (int i = 0; i < limit; i++) {
      char c = key.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        out.append(String.format("\\x%02x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('"');
    if (key.length() > limit) {
      out.append("...(").append(key.length()).append(" chars)");
    }
    return out.toString();
  }
}
