package io.racs.proxy.cli;

import io.racs.proxy.cli.progress.ProgressBar;
import io.racs.proxy.store.reshape.MoveEstimate;

/**
 * A reshape's progress as a step of the progress bar: the bytes moved of those planned at {@code
 * start}, at the rate and ETA {@link MoveEstimate} gives ({@code reshape status}, {@code
 * /health/ready} and {@code /metrics} take them from there too), never the bar's own guess.
 */
final class ReshapeSteps {
  private ReshapeSteps() {}

  /** {@code estimate} as a step; {@code detail} at the end of the line. */
  static ProgressBar.Step of(MoveEstimate estimate, String detail) {
    long total = estimate.totals() == null ? 0 : Math.max(1, estimate.totals().bytes());
    long done =
        estimate.totals() == null
            ? estimate.bytesMoved()
            : total - estimate.bytesRemaining().getAsLong();
    return ProgressBar.Step.of("reshape", done, total, "bytes")
        .detail(detail)
        .rate(estimate.etaBytesPerSecond())
        .eta(estimate.etaSeconds().orElse(-1));
  }
}
