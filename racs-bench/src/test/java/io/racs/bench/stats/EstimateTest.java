package io.racs.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Proves the Student-t critical values against published tables, and the mean's interval and the
 * ratio's delta-method interval on hand-computed cases.
 */
class EstimateTest {
  @Test
  void critical_whenTableValues_matchesTablesToFourDecimals() {
    // t(0.975, 4) = 2.776: the 95% two-sided value every textbook table starts with.
    assertThat(Estimate.critical(0.95, 4)).isCloseTo(2.7764, within(1e-4));
    assertThat(Estimate.critical(0.999, 1)).isCloseTo(636.6192, within(1e-3));
    assertThat(Estimate.critical(0.999, 4)).isCloseTo(8.6103, within(1e-4));
    assertThat(Estimate.critical(0.999, 8)).isCloseTo(5.0413, within(1e-4));
    assertThat(Estimate.critical(0.999, 30)).isCloseTo(3.6460, within(1e-4));
    assertThat(Estimate.critical(0.95, 10)).isCloseTo(2.2281, within(1e-4));
    assertThat(Estimate.critical(0.999, 1e7)).isCloseTo(3.2905, within(1e-4));
  }

  @Test
  void critical_whenDegreesOfFreedomNotPositive_failsNamingTheArgument() {
    assertThatThrownBy(() -> Estimate.critical(0.9, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("degreesOfFreedom: 0.0 (expected: > 0)");
    assertThatThrownBy(() -> Estimate.critical(1, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("confidence: 1.0 (expected: 0 to 1)");
  }

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
  void widerThanMean_whenTwoSpreadSamplesOrTightOnes_saysWhichIsWhich() {
    // 5 and 7: half-width 636.6 at 99.9% (one degree of freedom), far wider than the mean 6.
    assertThat(Estimate.of(5, 7).widerThanMean()).isTrue();
    assertThat(Estimate.of(10, 12, 11, 13, 14).widerThanMean()).isFalse();
    assertThat(Estimate.of(42).widerThanMean()).isFalse();
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
