package io.racs.repos.azure;

import io.racs.repos.KeyCodec;
import io.racs.repos.Keys;
import java.util.Optional;

/**
 * How an {@link AzureRepository} names keys in its container: the key prefix (never escaped), then
 * the key's {@link KeyCodec} safe name with one more, Azure-specific step, and back.
 *
 * <p><b>Why the safe name.</b> Azure advises against blob names that end with a dot, a {@code /} or
 * a backslash, caps a name at 1024 characters and 254 {@code /}-separated segments, and returns
 * listings as XML, which cannot carry most control characters. The safe name has none of those
 * problems: it escapes every ASCII character other than letters and digits, never has an empty
 * segment, and ends with the terminator {@code !}.
 *
 * <p><b>Why one more step.</b> Azurite lists blobs in JavaScript string order, which is UTF-16 code
 * unit order, while the repository contract lists in UTF-8 binary order; the two disagree only
 * where a character in U+E000..U+FFFF meets one beyond U+FFFF. So the stored name never holds a
 * character of U+E000..U+FFFF: each becomes U+10000 followed by four upper-case hex digits of its
 * offset from U+E000, and U+10000 itself becomes U+10000 followed by {@code ~}. These tokens are
 * prefix-free and sort where the characters they stand for do (after every character below U+E000,
 * before every one above U+10000), so the mapping stays injective and order-preserving, and the
 * stored names list in the same order under either comparison, whichever the service uses. It also
 * escapes U+FFFE and U+FFFF, which XML cannot carry.
 */
final class BlobNames {
  /** Azure's longest blob name, in characters (UTF-16 code units here, the stricter count). */
  static final int MAX_NAME_CHARS = 1024;

  /** Azure's most path segments in one blob name. */
  static final int MAX_SEGMENTS = 254;

  private static final int LEAD = 0x10000;
  private static final int HIGH_BMP = 0xE000;
  private static final char LEAD_ITSELF = '~';
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private final String repository;
  private final String keyPrefix;

  BlobNames(String repository, String keyPrefix) {
    this.repository = repository;
    this.keyPrefix = keyPrefix;
  }

  /**
   * The blob name of {@code key}.
   *
   * @throws IllegalArgumentException if the key is invalid, or its blob name breaks Azure's limits
   */
  String of(String key) {
    Keys.check(key);
    String name = unchecked(key);
    if (!fits(name)) {
      throw new IllegalArgumentException(
          "key: "
              + Keys.abbreviate(key)
              + " is stored as "
              + name.length()
              + " characters in "
              + segments(name)
              + " segments in "
              + repository
              + " (expected: at most "
              + MAX_NAME_CHARS
              + " characters and "
              + MAX_SEGMENTS
              + " segments once prefixed and escaped; check accepts(key))");
    }
    return name;
  }

  /** Whether {@code key}'s blob name is within Azure's limits. */
  boolean accepts(String key) {
    Keys.check(key);
    return fits(unchecked(key));
  }

  /** The blob-name prefix under which every key starting with {@code prefix} is stored. */
  String ofPrefix(String prefix) {
    return keyPrefix + lift(KeyCodec.encodePrefix(prefix));
  }

  /** The blob name of {@code key}, unchecked: for {@code startAfter} bounds. */
  String unchecked(String key) {
    return keyPrefix + lift(KeyCodec.encode(key));
  }

  /** The key a blob name stands for; empty for names this repository did not write. */
  Optional<String> keyOf(String name) {
    if (!name.startsWith(keyPrefix)) {
      return Optional.empty();
    }
    String lowered = lower(name.substring(keyPrefix.length()));
    return lowered == null ? Optional.empty() : KeyCodec.decode(lowered);
  }

  private static boolean fits(String name) {
    return name.length() <= MAX_NAME_CHARS && segments(name) <= MAX_SEGMENTS;
  }

  private static int segments(String name) {
    int segments = 1;
    for (int i = 0; i < name.length(); i++) {
      if (name.charAt(i) == '/') {
        segments++;
      }
    }
    return segments;
  }

  /** Replaces U+E000..U+FFFF and U+10000 by their tokens (see the class comment). */
  static String lift(String safe) {
    StringBuilder out = null;
    for (int i = 0; i < safe.length(); ) {
      int cp = safe.codePointAt(i);
      int width = Character.charCount(cp);
      boolean high = (cp >= HIGH_BMP && cp <= 0xFFFF) || cp == LEAD;
      if (high && out == null) {
        out = new StringBuilder(safe.length() + 16).append(safe, 0, i);
      }
      if (high) {
        out.appendCodePoint(LEAD);
        if (cp == LEAD) {
          out.append(LEAD_ITSELF);
        } else {
          int offset = cp - HIGH_BMP;
          for (int shift = 12; shift >= 0; shift -= 4) {
            out.append(HEX[(offset >> shift) & 0xf]);
          }
        }
      } else if (out != null) {
        out.appendCodePoint(cp);
      }
      i += width;
    }
    return out == null ? safe : out.toString();
  }

  /** Undoes {@link #lift}; null when {@code name} holds a token that {@code lift} never writes. */
  static String lower(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); ) {
      int cp = name.codePointAt(i);
      i += Character.charCount(cp);
      if (cp >= HIGH_BMP && cp <= 0xFFFF) {
        return null;
      }
      if (cp != LEAD) {
        out.appendCodePoint(cp);
        continue;
      }
      if (i < name.length() && name.charAt(i) == LEAD_ITSELF) {
        out.appendCodePoint(LEAD);
        i++;
        continue;
      }
      if (i + 4 > name.length()) {
        return null;
      }
      int offset = 0;
      for (int d = 0; d < 4; d++) {
        int digit = Character.digit(name.charAt(i + d), 16);
        if (digit < 0 || Character.isLowerCase(name.charAt(i + d))) {
          return null;
        }
        offset = offset << 4 | digit;
      }
      if (offset > 0xFFFF - HIGH_BMP) {
        return null;
      }
      out.appendCodePoint(HIGH_BMP + offset);
      i += 4;
    }
    return out.toString();
  }
}
