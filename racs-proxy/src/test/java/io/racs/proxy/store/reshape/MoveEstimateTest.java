package io.racs.proxy.store.reshape;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.format.ArrayRecord;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Proves what {@code status}, {@code /metrics} and {@code /health/ready} say is left of a reshape:
 * the plan's totals less what moved, never below 0 (versions written in the old layout since are
 * moved beyond the plan, and said so), an ETA at the observed rate or else the recorded one (and
 * which), and "unknown" for a reshape recorded without totals.
 */
class MoveEstimateTest {
  private static final ArrayRecord.Totals PLAN = new ArrayRecord.Totals(8, 200_000_000);

  @Test
  void estimate_whenNothingObserved_takesTheRecordedRate() {
    MoveEstimate e = new MoveEstimate(PLAN, 3, 50_000_000, 0, 50);

    assertThat(e.versionsRemaining()).isEqualTo(OptionalLong.of(5));
    assertThat(e.bytesRemaining()).isEqualTo(OptionalLong.of(150_000_000));
    assertThat(e.etaSeconds()).isEqualTo(OptionalLong.of(3));
    assertThat(e.observed()).isFalse();
    assertThat(e.describe())
        .isEqualTo(
            "remaining: 5 versions, 150000000 bytes of the 8 versions, 200000000 bytes planned at"
                + " start\nETA: 3s at 50.0 MB/s (the rate recorded at start; no rate observed yet)");
  }

  @Test
  void estimate_whenRateObserved_takesIt() {
    MoveEstimate e = new MoveEstimate(PLAN, 3, 50_000_000, 1_000_000, 50);

    assertThat(e.etaSeconds()).isEqualTo(OptionalLong.of(150));
    assertThat(e.describe()).endsWith("ETA: 2m30s at 1.0 MB/s (observed)");
  }

  @Test
  void estimate_whenMovedBeyondThePlan_neverGoesBelowZero() {
    MoveEstimate e = new MoveEstimate(PLAN, 10, 210_000_000, 1_000_000, 50);

    assertThat(e.versionsRemaining()).isEqualTo(OptionalLong.of(0));
    assertThat(e.bytesRemaining()).isEqualTo(OptionalLong.of(0));
    assertThat(e.etaSeconds()).isEqualTo(OptionalLong.of(0));
    assertThat(e.describe())
        .isEqualTo(
            "remaining: 0 of the 8 versions, 200000000 bytes planned at start (10 moved: versions"
                + " written in the old layout since are moved too)\n"
                + "ETA: the mover finishes its sweeps (nothing of the plan is left)");
  }

  @Test
  void estimate_whenNoTotalsRecorded_isUnknown() {
    MoveEstimate e = new MoveEstimate(null, 3, 50_000_000, 1_000_000, 50);

    assertThat(e.versionsRemaining()).isEmpty();
    assertThat(e.etaSeconds()).isEmpty();
    assertThat(e.describe()).startsWith("remaining and ETA: unknown");
  }

  @Test
  void estimate_whenNoRateAtAll_hasNoEta() {
    MoveEstimate e = new MoveEstimate(PLAN, 0, 0, 0, 0);

    assertThat(e.etaSeconds()).isEmpty();
    assertThat(e.describe()).endsWith("ETA: unknown (no rate observed yet, none recorded)");
  }
}
