package io.racs.bench.report;

import io.racs.bench.stats.Estimate;
import io.racs.bench.stats.Ratio;
import java.util.Locale;
import java.util.Optional;

/** Number formatting shared by the text reports. */
final class Format {
  private Format() {}

  /** {@code 1234.5 ± 12.3}, or {@code 1234.5 ± n/a} when the interval is unknown. */
  static String estimate(Estimate e) {
    return number(e.mean()) + " ± " + (Double.isNaN(e.halfWidth()) ? "n/a" : number(e.halfWidth()));
  }

  /** A confidence level as a percentage: {@code 99.9%}, {@code 95%}. */
  static String percent(double confidence) {
    return new java.math.BigDecimal(100 * confidence)
            .setScale(2, java.math.RoundingMode.HALF_UP)
            .stripTrailingZeros()
            .toPlainString()
        + "%";
  }

  /**
   * Why {@code e}'s interval is wider than its mean, when it is: a reader must never meet such an
   * interval without the reason (few iterations, a high confidence level, a noisy machine) and the
   * remedy. Empty when the interval is narrower or unknown.
   *
   * @param what what the estimate measures, e.g. {@code ops/s}
   */
  static Optional<String> wideInterval(String what, Estimate e) {
    if (!e.widerThanMean()) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "%s: the %s interval (± %s) is wider than the mean (%s): %d iterations spread by %.0f%%"
                + " (stddev/mean) and the %s t factor for %d degrees of freedom is %s; more"
                + " --iterations, a longer --duration or a lower --confidence narrow it",
            what,
            percent(e.confidence()),
            number(e.halfWidth()),
            number(e.mean()),
            e.n(),
            100 * e.stddev() / Math.abs(e.mean()),
            percent(e.confidence()),
            e.n() - 1,
            number(Estimate.critical(e.confidence(), e.n() - 1))));
  }

  /** As {@link #wideInterval(String, Estimate)} for a ratio of two points. */
  static Optional<String> wideInterval(String what, Ratio r) {
    if (Double.isNaN(r.halfWidth()) || r.halfWidth() <= Math.abs(r.value())) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "%s: the %s interval (± %s) is wider than the value (%s): the two points' iterations"
                + " spread too much for their number; more --iterations, a longer --duration or a"
                + " lower --confidence narrow it",
            what,
            percent(r.confidence()),
            number(r.halfWidth()),
            number(r.value())));
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
