package io.racs.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Proves the mean's Student-t interval and the ratio's delta-method interval on hand-computed
 * cases.
 */
class EstimateTest {
  @Test
  void of_whenFiveSamples_givesHandComputedInterval() {
    // mean 12, s = sqrt(2.5) = 1.58114, t(0.9995, 4) = 8.61030: half = 8.61030 * 1.58114 / sqrt(5).
    Estimate e = Estimate.of(10, 12, 11, 13, 14);
    assertThat(e.mean()).isEqualTo(12.0);
    assertThat(e.stddev()).isCloseTo(1.5811388, within(1e-6));
    assertThat(e.halfWidth()).isCloseTo(6.0884, within(1e-3));
    assertThat(e.low()).isCloseTo(5.9116, within(1e-3));
  }

  @Test
  void of_whenOneSample_hasNoInterval() {
    Estimate e = Estimate.of(42);
    assertThat(e.mean()).isEqualTo(42.0);
    assertThat(e.halfWidth()).isNaN();
  }

  @Test
  void ratio_whenEqualRelativeVariance_usesEightDegreesOfFreedom() {
    // a = 2b sample by sample: r = 2, relative variances equal (v = 0.0034722), Welch df = 8,
    // half = t(0.9995, 8) * r * sqrt(2v) = 5.04131 * 2 * 0.083333 = 0.84022.
    Estimate b = Estimate.of(10, 12, 11, 13, 14);
    Estimate a = Estimate.of(20, 24, 22, 26, 28);
    Ratio r = Ratio.of(a, b);
    assertThat(r.value()).isEqualTo(2.0);
    assertThat(r.halfWidth()).isCloseTo(0.84022, within(1e-4));
    assertThat(r.verdict(true)).isEqualTo("faster");
  }

  @Test
  void ratio_whenIntervalsOverlapOne_isWithinNoise() {
    Ratio r = Ratio.of(Estimate.of(10, 12, 11, 13, 14), Estimate.of(11, 12, 12, 13, 12));
    assertThat(r.verdict(true)).isEqualTo("within noise");
    assertThat(Ratio.of(Estimate.of(5), Estimate.of(10)).verdict(true)).isEqualTo("within noise");
  }

  @Test
  void ratio_whenClearlyLower_isSlower() {
    Ratio r = Ratio.of(Estimate.of(50, 51, 49, 50, 50), Estimate.of(100, 101, 99, 100, 100));
    assertThat(r.value()).isCloseTo(0.5, within(1e-9));
    assertThat(r.verdict(true)).isEqualTo("slower");
  }
}
