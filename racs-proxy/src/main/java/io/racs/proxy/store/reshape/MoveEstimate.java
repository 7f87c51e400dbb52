package io.racs.proxy.store.reshape;

import io.racs.proxy.store.format.ArrayRecord;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * What is left of a running reshape and when it may end (docs/reshape.md §7), the one place {@code
 * reshape status}, {@code /metrics} and {@code /health/ready} take it from: the totals {@code
 * start} recorded ({@link ArrayRecord.Totals}) less what the mover's newest checkpoint says it
 * moved, and an ETA from the rate the mover was seen to move at ({@link
 * MoveProgress#bytesPerSecond}) or, before one was observed, the rate recorded at {@code start}.
 *
 * <p>Remaining counts down from the plan made at {@code start} and never below zero. Versions
 * written in the old layout after it (a proxy within the fence, an upload begun in the old layout
 * and completed later) are moved too but are not in the plan, so the mover may move more than was
 * planned: remaining then stays at 0 while the mover finishes its sweeps, and says so. Versions
 * deleted meanwhile are in the plan but never moved: the reshape completes with some "remaining". A
 * reshape started before totals were recorded has no remaining work and no ETA: both are unknown,
 * and say so.
 *
 * @param totals what {@code start} counted to move; null when not recorded
 * @param versionsMoved versions the mover moved so far
 * @param bytesMoved stored bytes it moved so far
 * @param bytesPerSecond the observed rate; 0 when none was observed
 * @param recordedMegabytesPerSecond the rate recorded at {@code start}, MB/s; 0 when none
 */
public record MoveEstimate(
    ArrayRecord.Totals totals,
    long versionsMoved,
    long bytesMoved,
    double bytesPerSecond,
    double recordedMegabytesPerSecond) {

  /** The estimate of {@code reshape} after {@code progress} (null: nothing moved yet). */
  public static MoveEstimate of(ArrayRecord reshape, MoveProgress progress) {
    return new MoveEstimate(
        reshape.totals(),
        progress == null ? 0 : progress.versionsMoved(),
        progress == null ? 0 : progress.bytesMoved(),
        progress == null ? 0 : progress.bytesPerSecond(),
        reshape.rateMegabytesPerSecond());
  }

  /** Versions left of the plan, never below 0; empty when no totals were recorded. */
  public OptionalLong versionsRemaining() {
    return totals == null
        ? OptionalLong.empty()
        : OptionalLong.of(Math.max(0, totals.versions() - versionsMoved));
  }

  /** Stored bytes left of the plan, never below 0; empty when no totals were recorded. */
  public OptionalLong bytesRemaining() {
    return totals == null
        ? OptionalLong.empty()
        : OptionalLong.of(Math.max(0, totals.bytes() - bytesMoved));
  }

  /** The rate the ETA is taken at, bytes a second: the observed one, else the recorded one. */
  public double etaBytesPerSecond() {
    return bytesPerSecond > 0 ? bytesPerSecond : recordedMegabytesPerSecond * 1e6;
  }

  /** Whether the ETA's rate was observed (rather than recorded at {@code start}). */
  public boolean observed() {
    return bytesPerSecond > 0;
  }

  /** Seconds until the plan's bytes are moved; empty when no totals or no rate are known. */
  public OptionalLong etaSeconds() {
    OptionalLong bytes = bytesRemaining();
    if (bytes.isEmpty()) {
      return OptionalLong.empty();
    }
    if (bytes.getAsLong() == 0) {
      return OptionalLong.of(0);
    }
    double rate = etaBytesPerSecond();
    return rate > 0
        ? OptionalLong.of((long) Math.ceil(bytes.getAsLong() / rate))
        : OptionalLong.empty();
  }

  /** Whether the mover moved more versions than the plan counted (written in the old layout). */
  public boolean beyondPlan() {
    return totals != null && versionsMoved > totals.versions();
  }

  /** Where the ETA's rate comes from, as {@code status} says it. */
  public String rateSource() {
    if (observed()) {
      return "observed";
    }
    return recordedMegabytesPerSecond > 0
        ? "the rate recorded at start; no rate observed yet"
        : "no rate observed yet, none recorded";
  }

  /**
   * {@code status}'s lines: what remains of the plan, and the ETA with the rate it is taken at and
   * where that comes from.
   */
  public String describe() {
    if (totals == null) {
      return "remaining and ETA: unknown (this reshape was started before its totals were"
          + " recorded)";
    }
    String planned = totals.versions() + " versions, " + totals.bytes() + " bytes planned at start";
    String remaining =
        beyondPlan()
            ? "remaining: 0 of the "
                + planned
                + " ("
                + versionsMoved
                + " moved: versions written in the old layout since are moved too)"
            : "remaining: "
                + versionsRemaining().getAsLong()
                + " versions, "
                + bytesRemaining().getAsLong()
                + " bytes of the "
                + planned;
    OptionalLong eta = etaSeconds();
    String etaLine;
    if (eta.isEmpty()) {
      etaLine = "ETA: unknown (" + rateSource() + ")";
    } else if (bytesRemaining().getAsLong() == 0) {
      etaLine = "ETA: the mover finishes its sweeps (nothing of the plan is left)";
    } else {
      etaLine =
          "ETA: "
              + duration(eta.getAsLong())
              + " at "
              + String.format(Locale.ROOT, "%.1f", etaBytesPerSecond() / 1e6)
              + " MB/s ("
              + rateSource()
              + ")";
    }
    return remaining + "\n" + etaLine;
  }

  /** Seconds as {@code 1h02m03s}, {@code 2m03s} or {@code 3s}. */
  public static String duration(long seconds) {
    long h = seconds / 3600;
    long m = seconds / 60 % 60;
    long s = seconds % 60;
    if (h > 0) {
      return String.format(Locale.ROOT, "%dh%02dm%02ds", h, m, s);
    }
    return m > 0 ? String.format(Locale.ROOT, "%dm%02ds", m, s) : s + "s";
  }
}
