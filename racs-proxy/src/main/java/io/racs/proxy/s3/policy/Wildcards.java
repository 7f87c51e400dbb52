package io.racs.proxy.s3.policy;

/**
 * The policy language's wildcards, as in {@code Action}, {@code Resource} and {@code StringLike}:
 * {@code *} matches any run of characters (none included), {@code ?} any one character; nothing
 * else is special. Matching takes time linear in the pattern times the text at worst (no
 * backtracking blow-up), so a hostile pattern cannot stall a request.
 */
final class Wildcards {
  private Wildcards() {}

  /** Whether {@code text} matches {@code pattern}; letters compared exactly. */
  static boolean matches(String pattern, String text) {
    return matches(pattern, text, false);
  }

  /** Whether {@code text} matches {@code pattern}, ignoring the case of ASCII letters. */
  static boolean matchesIgnoreCase(String pattern, String text) {
    return matches(pattern, text, true);
  }

  private static boolean matches(String pattern, String text, boolean ignoreCase) {
    int p = 0;
    int t = 0;
    int star = -1;
    int resume = 0;
    while (t < text.length()) {
      if (p < pattern.length() && pattern.charAt(p) == '*') {
        star = p++;
        resume = t;
      } else if (p < pattern.length()
          && (pattern.charAt(p) == '?' || same(pattern.charAt(p), text.charAt(t), ignoreCase))) {
        p++;
        t++;
      } else if (star >= 0) {
        // The last star takes one more character, and matching resumes after it.
        p = star + 1;
        t = ++resume;
      } else {
        return false;
      }
    }
    while (p < pattern.length() && pattern.charAt(p) == '*') {
      p++;
    }
    return p == pattern.length();
  }

  private static boolean same(char a, char b, boolean ignoreCase) {
    if (a == b) {
      return true;
    }
    return ignoreCase && a < 128 && b < 128 && Character.toLowerCase(a) == Character.toLowerCase(b);
  }
}
