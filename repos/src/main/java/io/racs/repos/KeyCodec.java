package io.racs.repos;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Maps any valid key to a "safe name": a {@code /}-separated path whose components are 1 to 250
 * bytes of letters, digits, escapes and non-ASCII UTF-8, never {@code .} or {@code ..}, never
 * empty, never starting with a dot. The {@code fs} backend uses safe names as relative paths under
 * its root; the {@code s3} backend uses them as object keys, because MinIO (which stores objects as
 * directories) refuses {@code ..}, {@code //} and components longer than 255 bytes, and mangles a
 * leading {@code /}.
 *
 * <p>The mapping is injective, and it preserves UTF-8 binary order: {@code encode(a) < encode(b)}
 * exactly when {@code a < b}, comparing UTF-8 bytes. That is what lets an S3 listing of safe names
 * come back in key order, and lets a directory walk that sorts each directory's safe names emit
 * keys in order. A flat hex encoding would also preserve order but would double every name and lose
 * the directory structure, so that a prefix listing would have to read one huge directory; escaping
 * each {@code /}-separated segment keeps the key's own hierarchy on disk.
 *
 * <p>The encoding works on code points, segment by segment:
 *
 * <ul>
 *   <li>ASCII letters and digits, and every non-ASCII code point (as its UTF-8 bytes), stand for
 *       themselves.
 *   <li>Every other ASCII character becomes a lead character and two upper-case hex digits. The
 *       lead depends on where the character falls between the letters and digits, so that it sorts
 *       where the character would: {@code %} for U+0000..U+002E, {@code =} for U+003A..U+0040,
 *       {@code _} for U+005B..U+0060, {@code ~} for U+007B..U+007F. So {@code .} is {@code %2E} and
 *       no component can be {@code .} or {@code ..}.
 *   <li>{@code /} separates segments and stays {@code /}. An empty segment followed by more becomes
 *       the component {@code +}: it sorts between the {@code %} escapes and the digits, as {@code
 *       /} sorts among the characters.
 *   <li>Every name ends with the terminator {@code !}, which sorts before everything else, as the
 *       end of a key sorts before any continuation. So {@code a} is {@code a!}, {@code a/} is
 *       {@code a/!}, and no name is ever a directory of another: MinIO, which stores an object as a
 *       directory, cannot hold {@code a} beside {@code a/b}, but holds {@code a!} beside {@code
 *       a/b!}; the {@code fs} backend tells object files from directories the same way.
 *   <li>A segment longer than {@value #CHUNK_CODE_POINTS} code points is cut every {@value
 *       #CHUNK_CODE_POINTS} code points into chained components. A component that is continued ends
 *       with a marker chosen by the next code point: {@code -} if it sorts before {@code /},
 *       {@code @} if after, so that the marker sorts against the next component exactly as that
 *       code point sorts against a {@code /}.
 * </ul>
 *
 * <p>Tokens are prefix-free and ordered like the code points they stand for, and every other
 * construct sorts where its key counterpart does, which is why order is preserved; {@code
 * KeyCodecTest} checks both properties on seeded random keys. Decoding accepts only canonical
 * encodings (it re-encodes and compares), so a foreign name never aliases a key.
 */
public final class KeyCodec {
  /** Code points of one segment per component: 62 of up to 4 bytes, plus a marker, fit in 250. */
  public static final int CHUNK_CODE_POINTS = 62;

  /**
   * The longest root directory path, in UTF-8 bytes, that a backend keeping safe names as paths
   * ({@code fs}, {@code sftp}) takes: the longest safe name of a 1024-byte key then stays under
   * Linux's PATH_MAX of 4096.
   */
  public static final int MAX_ROOT_BYTES = 900;

  private static final char EMPTY_MIDDLE = '+';
  private static final char TERMINATOR = '!';
  private static final char CONTINUED_LOW = '-';
  private static final char CONTINUED_HIGH = '@';
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private KeyCodec() {}

  /** The safe name of a valid key. */
  public static String encode(String key) {
    Keys.check(key);
    return encodeSegments(key) + TERMINATOR;
  }

  /**
   * The safe-name prefix of a listing prefix: a key starts with {@code prefix} exactly when its
   * safe name starts with the result. {@code ""} maps to {@code ""}.
   */
  public static String encodePrefix(String prefix) {
    Keys.checkBound(prefix, "prefix");
    return encodeSegments(prefix);
  }

  /**
   * Checks that safe names under the directory {@code root} fit in a path.
   *
   * @return {@code root}
   * @throws IllegalArgumentException when {@code root} is longer than {@link #MAX_ROOT_BYTES}
   */
  public static String checkRoot(String root) {
    int rootBytes = root.getBytes(StandardCharsets.UTF_8).length;
    if (rootBytes > MAX_ROOT_BYTES) {
      throw new IllegalArgumentException(
          "root: "
              + rootBytes
              + " bytes long (expected: at most "
              + MAX_ROOT_BYTES
              + ", so that escaped 1024-byte keys stay under PATH_MAX)");
    }
    return root;
  }

  /** The length of {@code encode(key)} in UTF-8 bytes. */
  public static int encodedLength(String key) {
    return encode(key).getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * The key whose safe name is {@code name}, or empty when {@code name} is not the canonical safe
   * name of any valid key.
   */
  public static Optional<String> decode(String name) {
    String key = decodeLoosely(name);
    if (key == null) {
      return Optional.empty();
    }
    try {
      Keys.check(key);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return encode(key).equals(name) ? Optional.of(key) : Optional.empty();
  }

  /** The names of the segments without the terminator; an empty last segment adds nothing. */
  private static String encodeSegments(String key) {
    StringBuilder out = new StringBuilder(key.length() + 16);
    int segmentStart = 0;
    while (true) {
      int slash = key.indexOf('/', segmentStart);
      boolean last = slash < 0;
      int segmentEnd = last ? key.length() : slash;
      if (segmentStart == segmentEnd) {
        if (!last) {
          out.append(EMPTY_MIDDLE);
        }
      } else {
        int count = 0;
        for (int i = segmentStart; i < segmentEnd; ) {
          int cp = key.codePointAt(i);
          if (count > 0 && count % CHUNK_CODE_POINTS == 0) {
            out.append(cp < '/' ? CONTINUED_LOW : CONTINUED_HIGH).append('/');
          }
          appendToken(out, cp);
          count++;
          i += Character.charCount(cp);
        }
      }
      if (last) {
        return out.toString();
      }
      out.append('/');
      segmentStart = slash + 1;
    }
  }

  private static void appendToken(StringBuilder out, int cp) {
    if (cp >= 0x80 || isAlphanumeric(cp)) {
      out.appendCodePoint(cp);
      return;
    }
    char lead;
    if (cp <= 0x2e) {
      lead = '%';
    } else if (cp >= 0x3a && cp <= 0x40) {
      lead = '=';
    } else if (cp >= 0x5b && cp <= 0x60) {
      lead = '_';
    } else if (cp >= 0x7b) {
      lead = '~';
    } else {
      throw new AssertionError("unexpected code point " + cp);
    }
    out.append(lead).append(HEX[cp >> 4]).append(HEX[cp & 0xf]);
  }

  private static boolean isAlphanumeric(int cp) {
    return (cp >= '0' && cp <= '9') || (cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z');
  }

  private static String decodeLoosely(String name) {
    if (name.length() < 2 || name.charAt(name.length() - 1) != TERMINATOR) {
      return null;
    }
    String[] components = name.substring(0, name.length() - 1).split("/", -1);
    List<String> segments = new ArrayList<>();
    StringBuilder segment = null;
    for (int c = 0; c < components.length; c++) {
      String component = components[c];
      boolean lastComponent = c == components.length - 1;
      if (segment == null) {
        if (component.isEmpty() && lastComponent && c > 0) {
          segments.add(""); // The key ends with '/'.
          continue;
        }
        if (component.equals(String.valueOf(EMPTY_MIDDLE)) && !lastComponent) {
          segments.add("");
          continue;
        }
        segment = new StringBuilder();
      }
      if (component.isEmpty()) {
        return null;
      }
      boolean continued = false;
      int end = component.length();
      char tail = component.charAt(end - 1);
      if (tail == CONTINUED_LOW || tail == CONTINUED_HIGH) {
        continued = true;
        end--;
      }
      if (!decodeTokens(component, end, segment)) {
        return null;
      }
      if (!continued) {
        segments.add(segment.toString());
        segment = null;
      } else if (lastComponent) {
        return null;
      }
    }
    return String.join("/", segments);
  }

  private static boolean decodeTokens(String component, int end, StringBuilder out) {
    if (end == 0) {
      return false;
    }
    for (int i = 0; i < end; ) {
      int cp = component.codePointAt(i);
      if (cp >= 0x80 || isAlphanumeric(cp)) {
        out.appendCodePoint(cp);
        i += Character.charCount(cp);
      } else if (cp == '%' || cp == '=' || cp == '_' || cp == '~') {
        if (i + 3 > end) {
          return false;
        }
        int hi = Character.digit(component.charAt(i + 1), 16);
        int lo = Character.digit(component.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          return false;
        }
        out.append((char) (hi << 4 | lo));
        i += 3;
      } else {
        return false;
      }
    }
    return true;
  }
}
