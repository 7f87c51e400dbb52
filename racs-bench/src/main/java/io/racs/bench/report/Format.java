package io.racs.bench.report;

import io.racs.bench.stats.Estimate;
import java.util.Locale;

/** Number formatting shared by the text reports. */
final class Format {
  private Format() {}

  /** {@code 1234.5 ± 12.3}, or {@code 1234.5 ± n/a} when the interval is unknown. */
  static String estimate(Estimate e) {
    return number(e.mean()) + " ± " + (Double.isNaN(e.halfWidth()) ? "n/a" : number(e.halfWidth()));
  }

  /** Three significant digits, at most two decimals past a point. */
  static String number(double d) {
    if (Double.isNaN(d)) {
      return "n/a";
    }
    double a = Math.abs(d);
    if (a >= 100) {
      return String.format(Locale.ROOT, "%.0f", d);
    }
    if (a >= 10) {
      return String.format(Locale.ROOT, "%.1f", d);
    }
    if (a >= 0.01 || a == 0) {
      return String.format(Locale.ROOT, "%.2f", d);
    }
    return String.format(Locale.ROOT, "%.3g", d);
  }

  /** Escapes text for HTML and SVG. */
  static String html(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  /** Quotes a CSV field when needed. */
  static String csv(String s) {
    if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
      return "\"" + s.replace("\"", "\"\"") + "\"";
    }
    return s;
  }
}
