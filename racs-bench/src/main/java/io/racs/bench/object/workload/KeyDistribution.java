package io.racs.bench.object.workload;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * How operations pick among the key space's {@code n} objects: {@code uniform}; {@code zipf[:s]}
 * (rank r drawn with weight 1/r^s, default s = 1, by binary search in the cumulative weights); or
 * {@code hot[:K/O]} (K% of the keys receive O% of the operations, default 10/90, uniform within
 * each set).
 *
 * @param kind {@code uniform}, {@code zipf} or {@code hot}
 * @param exponent the zipf exponent s
 * @param hotKeysPercent the hot set's share of the keys
 * @param hotOpsPercent the hot set's share of the operations
 * @param label the text it was parsed from
 */
public record KeyDistribution(
    String kind, double exponent, double hotKeysPercent, double hotOpsPercent, String label) {
  /** Every key equally likely. */
  public static final KeyDistribution UNIFORM = new KeyDistribution("uniform", 0, 0, 0, "uniform");

  /**
   * Parses {@code uniform}, {@code zipf}, {@code zipf:1.2}, {@code hot} or {@code hot:10/90}.
   *
   * @throws IllegalArgumentException on anything else
   */
  public static KeyDistribution parse(String text) {
    String t = text.trim();
    try {
      if (t.equals("uniform")) {
        return UNIFORM;
      }
      if (t.equals("zipf") || t.startsWith("zipf:")) {
        double s = t.equals("zipf") ? 1.0 : Double.parseDouble(t.substring(5));
        if (s > 0 && s <= 10) {
          return new KeyDistribution("zipf", s, 0, 0, t);
        }
      }
      if (t.equals("hot") || t.startsWith("hot:")) {
        String[] parts = t.equals("hot") ? new String[] {"10", "90"} : t.substring(4).split("/");
        double keys = Double.parseDouble(parts[0]);
        double ops = Double.parseDouble(parts[1]);
        if (keys > 0 && keys < 100 && ops > 0 && ops < 100) {
          return new KeyDistribution("hot", 0, keys, ops, t);
        }
      }
    } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
      // Falls through to the one message below.
    }
    throw new IllegalArgumentException(
        "keys: "
            + text
            + " (expected: uniform, zipf, zipf:S, hot or hot:KEYS%/OPS% like hot:10/90)");
  }

  /** A chooser over {@code n} keys for one client, seeded; not thread-safe. */
  public Chooser chooser(int n, long seed) {
    return new Chooser(this, n, new SplittableRandom(seed));
  }

  /** Picks key indexes 0..n-1. */
  public static final class Chooser {
    private final KeyDistribution distribution;
    private final int n;
    private final SplittableRandom random;
    private final double[] cumulative;
    private final int hotKeys;

    private Chooser(KeyDistribution distribution, int n, SplittableRandom random) {
      if (n < 1) {
        throw new IllegalArgumentException("objects: " + n + " (expected: >= 1)");
      }
      this.distribution = distribution;
      this.n = n;
      this.random = random;
      if (distribution.kind.equals("zipf")) {
        cumulative = new double[n];
        double sum = 0;
        for (int r = 0; r < n; r++) {
          sum += 1 / Math.pow(r + 1, distribution.exponent);
          cumulative[r] = sum;
        }
        for (int r = 0; r < n; r++) {
          cumulative[r] /= sum;
        }
      } else {
        cumulative = null;
      }
      hotKeys = Math.max(1, (int) Math.round(n * distribution.hotKeysPercent / 100));
    }

    /** The next key index. */
    public int next() {
      return switch (distribution.kind) {
        case "zipf" -> {
          int i = Arrays.binarySearch(cumulative, random.nextDouble());
          yield Math.min(n - 1, i >= 0 ? i : -i - 1);
        }
        case "hot" -> {
          if (hotKeys >= n || random.nextDouble() * 100 < distribution.hotOpsPercent) {
            yield random.nextInt(Math.min(hotKeys, n));
          }
          yield hotKeys + random.nextInt(n - hotKeys);
        }
        default -> random.nextInt(n);
      };
    }
  }
}
