package io.racs.bench.stats;

/**
 * The ratio of two independent means, {@code a / b}, with a confidence interval by the delta
 * method: {@code Var(a/b) ≈ r² (Var(ā)/ā² + Var(b̄)/b̄²)}, and the Welch–Satterthwaite degrees of
 * freedom for the t critical value. Used for ParallelismImpactRatio, LatencyImpactRatio, the EC
 * overhead and {@code bench compare}.
 *
 * @param value a.mean / b.mean
 * @param halfWidth half-width of the interval, {@code NaN} when either side has fewer than two
 *     samples
 * @param confidence the confidence level
 */
public record Ratio(double value, double halfWidth, double confidence) {
  /** The ratio {@code a / b} at the confidence of {@code a}. */
  public static Ratio of(Estimate a, Estimate b) {
    double r = a.mean() / b.mean();
    double va = a.varianceOfMean() / (a.mean() * a.mean());
    double vb = b.varianceOfMean() / (b.mean() * b.mean());
    if (Double.isNaN(va) || Double.isNaN(vb) || a.mean() == 0 || b.mean() == 0) {
      return new Ratio(r, Double.NaN, a.confidence());
    }
    double relativeVariance = va + vb;
    double df;
    if (relativeVariance == 0) {
      df = a.n() + b.n() - 2;
    } else {
      df = relativeVariance * relativeVariance / (va * va / (a.n() - 1) + vb * vb / (b.n() - 1));
    }
    double half = Estimate.critical(a.confidence(), df) * Math.abs(r) * Math.sqrt(relativeVariance);
    return new Ratio(r, half, a.confidence());
  }

  /** Lower end of the interval. */
  public double low() {
    return value - halfWidth;
  }

  /** Upper end of the interval. */
  public double high() {
    return value + halfWidth;
  }

  /**
   * How a ratio of "new / old" reads for a higher-is-better metric: {@code faster} when the whole
   * interval is above 1, {@code slower} when below, else {@code within noise} (also when the
   * interval is unknown).
   */
  public String verdict(boolean higherIsBetter) {
    if (Double.isNaN(halfWidth) || (low() <= 1 && high() >= 1)) {
      return "within noise";
    }
    boolean above = low() > 1;
    return above == higherIsBetter ? "faster" : "slower";
  }
}
