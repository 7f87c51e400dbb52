package io.racs.proxy.admin;

import java.util.Locale;

/** The one JSON string escaper of the admin endpoints (they write their JSON by hand). */
public final class Json {
  private Json() {}

  /** {@code s} as a JSON string literal; null as {@code null}. */
  public static String string(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
