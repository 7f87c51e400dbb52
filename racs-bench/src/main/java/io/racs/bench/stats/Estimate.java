package io.racs.bench.stats;

import java.util.Arrays;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * A mean over iterations with its two-sided Student-t confidence interval: {@code mean ± t(1-α/2,
 * n-1) · s/√n}. With one sample the interval is unknown ({@code NaN} half-width), never zero: one
 * iteration proves nothing about noise.
 *
 * @param mean the sample mean
 * @param halfWidth the interval's half-width, {@code NaN} when {@code n < 2}
 * @param stddev the sample standard deviation (n-1), {@code NaN} when {@code n < 2}
 * @param n the number of samples
 * @param confidence the confidence level, e.g. 0.999
 */
public record Estimate(double mean, double halfWidth, double stddev, int n, double confidence) {
  /** The default confidence level: 99.9%, as JMH reports. */
  public static final double CONFIDENCE = 0.999;

  /** The estimate of {@code samples} at {@link #CONFIDENCE}. */
  public static Estimate of(double... samples) {
    return atConfidence(CONFIDENCE, samples);
  }

  /**
   * The estimate of {@code samples} at {@code confidence}.
   *
   * @throws IllegalArgumentException when there are no samples
   */
  public static Estimate atConfidence(double confidence, double... samples) {
    if (samples.length == 0) {
      throw new IllegalArgumentException("samples: [] (expected: at least one)");
    }
    int n = samples.length;
    double mean = Arrays.stream(samples).sum() / n;
    if (n < 2) {
      return new Estimate(mean, Double.NaN, Double.NaN, 1, confidence);
    }
    double squares = 0;
    for (double s : samples) {
      squares += (s - mean) * (s - mean);
    }
    double stddev = Math.sqrt(squares / (n - 1));
    double half = critical(confidence, n - 1) * stddev / Math.sqrt(n);
    return new Estimate(mean, half, stddev, n, confidence);
  }

  /**
   * The two-sided Student-t critical value for {@code confidence} (e.g. 0.999) and {@code
   * degreesOfFreedom}: the quantile {@code 1 - α/2} of commons-math's {@link TDistribution}. Any
   * positive degrees of freedom work, fractional ones too (Welch–Satterthwaite).
   *
   * @throws IllegalArgumentException when {@code confidence} is not strictly between 0 and 1, or
   *     {@code degreesOfFreedom} is not positive
   */
  public static double critical(double confidence, double degreesOfFreedom) {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence: " + confidence + " (expected: 0 to 1)");
    }
    if (!(degreesOfFreedom > 0)) {
      throw new IllegalArgumentException(
          "degreesOfFreedom: " + degreesOfFreedom + " (expected: > 0)");
    }
    // No random generator: the distribution is only asked for quantiles, never sampled.
    return new TDistribution(null, degreesOfFreedom)
        .inverseCumulativeProbability(1 - (1 - confidence) / 2);
  }

  /**
   * Whether the interval is wider than the mean: an interval a reader must not meet without the
   * reason (few iterations, a high confidence level, a noisy machine).
   */
  public boolean widerThanMean() {
    return !Double.isNaN(halfWidth) && halfWidth > Math.abs(mean);
  }

  /** Lower end of the interval ({@code NaN} when unknown). */
  public double low() {
    return mean - halfWidth;
  }

  /** Upper end of the interval ({@code NaN} when unknown). */
  public double high() {
    return mean + halfWidth;
  }

  /** The squared standard error of the mean, s²/n ({@code NaN} when {@code n < 2}). */
  public double varianceOfMean() {
    return stddev * stddev / n;
  }
}
