package io.racs.bench.stats;

/**
 * The Student t distribution: its CDF through the regularized incomplete beta function and its
 * quantiles by bisection. Accurate to about 1e-9, which is far below what a benchmark's interval
 * needs; no tables, so any confidence level and any degrees of freedom work.
 */
public final class StudentT {
  private StudentT() {}

  /**
   * P(T <= t) for {@code degreesOfFreedom} > 0.
   *
   * @throws IllegalArgumentException when {@code degreesOfFreedom <= 0}
   */
  public static double cdf(double t, double degreesOfFreedom) {
    checkDf(degreesOfFreedom);
    double x = degreesOfFreedom / (degreesOfFreedom + t * t);
    double tail = 0.5 * regularizedBeta(x, degreesOfFreedom / 2, 0.5);
    return t >= 0 ? 1 - tail : tail;
  }

  /**
   * The t such that P(T <= t) = {@code p}, for {@code 0 < p < 1}.
   *
   * @throws IllegalArgumentException when {@code p} or {@code degreesOfFreedom} is out of range
   */
  public static double quantile(double p, double degreesOfFreedom) {
    checkDf(degreesOfFreedom);
    if (!(p > 0 && p < 1)) {
      throw new IllegalArgumentException("p: " + p + " (expected: 0 < p < 1)");
    }
    if (p == 0.5) {
      return 0;
    }
    if (p < 0.5) {
      return -quantile(1 - p, degreesOfFreedom);
    }
    double low = 0;
    double high = 1;
    while (cdf(high, degreesOfFreedom) < p) {
      high *= 2;
    }
    for (int i = 0; i < 200 && high - low > 1e-12 * Math.max(1, high); i++) {
      double mid = (low + high) / 2;
      if (cdf(mid, degreesOfFreedom) < p) {
        low = mid;
      } else {
        high = mid;
      }
    }
    return (low + high) / 2;
  }

  /** The two-sided critical value for {@code confidence} (e.g. 0.999): quantile(1 - α/2). */
  public static double critical(double confidence, double degreesOfFreedom) {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence: " + confidence + " (expected: 0 to 1)");
    }
    return quantile(1 - (1 - confidence) / 2, degreesOfFreedom);
  }

  private static void checkDf(double degreesOfFreedom) {
    if (!(degreesOfFreedom > 0)) {
      throw new IllegalArgumentException(
          "degreesOfFreedom: " + degreesOfFreedom + " (expected: > 0)");
    }
  }

  /** I_x(a, b), by the continued fraction (Numerical Recipes 6.4), with the symmetry flip. */
  static double regularizedBeta(double x, double a, double b) {
    if (x <= 0) {
      return 0;
    }
    if (x >= 1) {
      return 1;
    }
    double logFront =
        logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
    if (x < (a + 1) / (a + b + 2)) {
      return Math.exp(logFront) * continuedFraction(x, a, b) / a;
    }
    return 1 - Math.exp(logFront) * continuedFraction(1 - x, b, a) / b;
  }

  private static double continuedFraction(double x, double a, double b) {
    final double tiny = 1e-300;
    double c = 1;
    double d = 1 - (a + b) * x / (a + 1);
    d = Math.abs(d) < tiny ? tiny : d;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 10_000; m++) {
      int m2 = 2 * m;
      double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
      d = 1 + aa * d;
      d = Math.abs(d) < tiny ? tiny : d;
      c = 1 + aa / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1 / d;
      h *= d * c;
      aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
      d = 1 + aa * d;
      d = Math.abs(d) < tiny ? tiny : d;
      c = 1 + aa / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < 1e-15) {
        break;
      }
    }
    return h;
  }

  /** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9). */
  static double logGamma(double x) {
    final double[] g = {
      0.99999999999980993,
      676.5203681218851,
      -1259.1392167224028,
      771.32342877765313,
      -176.61502916214059,
      12.507343278686905,
      -0.13857109526572012,
      9.9843695780195716e-6,
      1.5056327351493116e-7
    };
    if (x < 0.5) {
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
    }
    x -= 1;
    double sum = g[0];
    for (int i = 1; i < g.length; i++) {
      sum += g[i] / (x + i);
    }
    double t = x + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
  }
}
