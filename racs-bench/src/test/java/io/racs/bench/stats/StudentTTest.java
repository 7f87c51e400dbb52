package io.racs.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Proves the Student t quantiles match published table values to four decimals. */
class StudentTTest {
  @Test
  void critical_whenTableValues_matchesTables() {
    assertThat(StudentT.critical(0.999, 1)).isCloseTo(636.6192, within(1e-3));
    assertThat(StudentT.critical(0.999, 4)).isCloseTo(8.6103, within(1e-4));
    assertThat(StudentT.critical(0.999, 8)).isCloseTo(5.0413, within(1e-4));
    assertThat(StudentT.critical(0.999, 30)).isCloseTo(3.6460, within(1e-4));
    assertThat(StudentT.critical(0.95, 10)).isCloseTo(2.2281, within(1e-4));
    assertThat(StudentT.critical(0.999, 1e7)).isCloseTo(3.2905, within(1e-4));
  }

  @Test
  void cdf_whenSymmetric_isHalfAtZeroAndComplementary() {
    assertThat(StudentT.cdf(0, 5)).isCloseTo(0.5, within(1e-12));
    assertThat(StudentT.cdf(-2, 5) + StudentT.cdf(2, 5)).isCloseTo(1, within(1e-12));
  }

  @Test
  void quantile_whenDegreesOfFreedomNotPositive_failsNamingTheArgument() {
    assertThatThrownBy(() -> StudentT.quantile(0.9, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("degreesOfFreedom: 0.0 (expected: > 0)");
  }
}
