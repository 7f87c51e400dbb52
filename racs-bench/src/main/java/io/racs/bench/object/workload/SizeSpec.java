package io.racs.bench.object.workload;

import io.racs.repos.config.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * Object sizes: one fixed size, or a distribution ({@code uniform:4KiB-1MiB}, {@code
 * lognormal:64KiB:1.0} for a median and a sigma). A size is drawn from {@code (key, version)}
 * deterministically, so a verifier knows every object's length without asking. {@link
 * #parseList(String)} reads the {@code --sizes} option: a comma-separated list of fixed sizes (each
 * one measured separately) or one distribution.
 *
 * @param kind {@code fixed}, {@code uniform} or {@code lognormal}
 * @param a the fixed size, the uniform minimum, or the lognormal median, in bytes
 * @param b the uniform maximum in bytes, or 0
 * @param sigma the lognormal sigma, or 0
 * @param label the text it was parsed from, for reports
 */
public record SizeSpec(String kind, long a, long b, double sigma, String label) {
  /** Largest object a distribution draws (lognormal tails are clamped to it). */
  public static final long MAX_BYTES = 5L << 30;

  /** A fixed size. */
  public static SizeSpec fixed(long bytes) {
    return new SizeSpec("fixed", bytes, 0, 0, format(bytes));
  }

  /**
   * Parses the {@code --sizes} option.
   *
   * @throws IllegalArgumentException on anything else
   */
  public static List<SizeSpec> parseList(String text) {
    String t = text.trim();
    if (t.startsWith("uniform:") || t.startsWith("lognormal:")) {
      return List.of(parse(t));
    }
    List<SizeSpec> sizes = new ArrayList<>();
    for (String part : t.split(",")) {
      sizes.add(parse(part.trim()));
    }
    return sizes;
  }

  /** Parses one size or distribution. */
  public static SizeSpec parse(String text) {
    String t = text.trim();
    if (t.startsWith("uniform:")) {
      String[] range = t.substring("uniform:".length()).split("-", 2);
      if (range.length != 2) {
        throw bad(text);
      }
      long min = bytes(range[0], text);
      long max = bytes(range[1], text);
      if (min > max) {
        throw new IllegalArgumentException(
            "sizes: " + text + " (expected: minimum <= maximum, as in uniform:4KiB-1MiB)");
      }
      return new SizeSpec("uniform", min, max, 0, t);
    }
    if (t.startsWith("lognormal:")) {
      String[] parts = t.substring("lognormal:".length()).split(":", 2);
      if (parts.length != 2) {
        throw bad(text);
      }
      long median = bytes(parts[0], text);
      double sigma;
      try {
        sigma = Double.parseDouble(parts[1]);
      } catch (NumberFormatException e) {
        sigma = -1;
      }
      if (!(sigma > 0 && sigma <= 5)) {
        throw new IllegalArgumentException(
            "sizes: " + text + " (expected: sigma from 0 to 5, as in lognormal:64KiB:1.0)");
      }
      return new SizeSpec("lognormal", median, 0, sigma, t);
    }
    long bytes = bytes(t, text);
    return new SizeSpec("fixed", bytes, 0, 0, format(bytes));
  }

  private static long bytes(String text, String whole) {
    OptionalLong size = Units.size(text.trim());
    if (size.isEmpty() || size.getAsLong() > MAX_BYTES) {
      throw bad(whole);
    }
    return size.getAsLong();
  }

  private static IllegalArgumentException bad(String text) {
    return new IllegalArgumentException(
        "sizes: "
            + text
            + " (expected: sizes such as 4KiB,1MiB, or uniform:4KiB-1MiB, or lognormal:64KiB:1.0)");
  }

  /** True for a fixed size. */
  public boolean isFixed() {
    return kind.equals("fixed");
  }

  /** The size of {@code key} at {@code version}, deterministic for a run seed. */
  public long sizeOf(long runSeed, String key, long version) {
    if (isFixed()) {
      return a;
    }
    long h = Content.mix(Content.seed(runSeed, key, version) ^ 0x5151_5151L);
    double u = ((h >>> 11) + 0.5) * 0x1.0p-53;
    if (kind.equals("uniform")) {
      return a + (long) Math.floor(u * (b - a + 1));
    }
    double z = inverseNormal(u);
    double size = a * Math.exp(sigma * z);
    return Math.max(0, Math.min(MAX_BYTES, Math.round(size)));
  }

  /** The mean size in bytes (exact for fixed and uniform, analytical for lognormal). */
  public double meanBytes() {
    return switch (kind) {
      case "fixed" -> a;
      case "uniform" -> (a + b) / 2.0;
      default -> a * Math.exp(sigma * sigma / 2);
    };
  }

  /** Acklam's inverse normal CDF (relative error below 1.2e-9). */
  static double inverseNormal(double p) {
    final double[] a = {
      -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
      1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00
    };
    final double[] b = {
      -5.447609879822406e+01,
      1.615858368580409e+02,
      -1.556989798598866e+02,
      6.680131188771972e+01,
      -1.328068155288572e+01
    };
    final double[] c = {
      -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
      -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00
    };
    final double[] d = {
      7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00
    };
    double low = 0.02425;
    if (p < low) {
      double q = Math.sqrt(-2 * Math.log(p));
      return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
          / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    if (p > 1 - low) {
      return -inverseNormal(1 - p);
    }
    double q = p - 0.5;
    double r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5])
        * q
        / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }

  /** {@code 4KiB}, {@code 1MiB}, or bytes. */
  public static String format(long bytes) {
    if (bytes >= 1 << 30 && bytes % (1 << 30) == 0) {
      return bytes / (1 << 30) + "GiB";
    }
    if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
      return bytes / (1 << 20) + "MiB";
    }
    if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
      return bytes / (1 << 10) + "KiB";
    }
    return String.format(Locale.ROOT, "%dB", bytes);
  }
}
