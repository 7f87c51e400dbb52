package io.racs.bench.block;

import io.racs.repos.config.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Size parsing and labels of the block commands (binary units, IOzone-style lower case too). */
public final class Sizes {
  private Sizes() {}

  /**
   * Parses {@code text} as a size: {@code 4KiB}, {@code 1MiB}, plain bytes, or vdbench/IOzone style
   * {@code 4k}, {@code 1m}, {@code 2g} (binary).
   *
   * @throws IllegalArgumentException naming {@code option} when it is not a size
   */
  public static long parse(String option, String text) {
    String t = text.trim();
    String lower = t.toLowerCase(Locale.ROOT);
    long shift = -1;
    if (lower.matches("\\d+[kmgt]b?")) {
      char unit = lower.replace("b", "").charAt(lower.replace("b", "").length() - 1);
      shift =
          switch (unit) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 40;
          };
      long amount = Long.parseLong(lower.replaceAll("[kmgtb]", ""));
      if (Long.numberOfLeadingZeros(amount) > shift) {
        return amount << shift;
      }
    }
    return Units.size(t)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    option + ": " + text + " (expected: a size such as 4KiB, 1MiB or 4k)"));
  }

  /** Parses a comma-separated list of sizes, each within an int. */
  public static List<Integer> parseList(String option, String text) {
    List<Integer> sizes = new ArrayList<>();
    for (String part : text.split(",")) {
      long s = parse(option, part);
      if (s < 1 || s > 1 << 30) {
        throw new IllegalArgumentException(option + ": " + part + " (expected: 1B to 1GiB)");
      }
      sizes.add((int) s);
    }
    return sizes;
  }

  /** {@code 4KiB}, {@code 16MiB}, {@code 1000B}: the largest exact binary unit. */
  public static String label(long bytes) {
    if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
      return (bytes >> 30) + "GiB";
    }
    if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
      return (bytes >> 20) + "MiB";
    }
    if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
      return (bytes >> 10) + "KiB";
    }
    return bytes + "B";
  }

  /**
   * Parses a duration: {@code 10s}, {@code 200ms}, or plain (possibly fractional) seconds such as
   * {@code 0.2}.
   *
   * @throws IllegalArgumentException naming {@code option} when it is not one, or not positive
   */
  public static java.time.Duration duration(String option, String text) {
    java.time.Duration d;
    if (text.trim().matches("\\d+(\\.\\d+)?")) {
      d = java.time.Duration.ofNanos((long) (Double.parseDouble(text.trim()) * 1e9));
    } else {
      d =
          Units.duration(text)
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          option + ": " + text + " (expected: e.g. 10s, 200ms or 0.5)"));
    }
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException(option + ": " + text + " (expected: > 0)");
    }
    return d;
  }
}
