package io.racs.proxy.store.reshape;

import io.racs.proxy.store.api.StoreException;
import java.time.Duration;

/**
 * What one mover run counts and tells (docs/reshape.md §5, §6): the reshape's counters (versions
 * and bytes moved, old copies collected, the sweep), where the sweep stands, the rate it is seen to
 * move at, and what it is paused on or waits for. Each {@link #save} or {@link #note} writes them
 * as a checkpoint ({@link MoveCheckpoints}) and hands them to the run's {@code counters}; {@link
 * #say} writes the progress line, at most one a second unless asked.
 *
 * <p>The observed rate is the stored bytes moved since the mover last began or resumed moving
 * ({@link #restartRate}: at each sweep's start and after a pause), over the time since, once that
 * is at least {@link #RATE_WINDOW}; a checkpoint keeps the last one seen, so that {@code status}
 * between runs still has it.
 *
 * <p>Not thread-safe: one mover run.
 */
final class MoveLedger {
  /** The shortest time a rate is observed over. */
  static final Duration RATE_WINDOW = Duration.ofMillis(200);

  private final MoveCheckpoints checkpoints;
  private final Mover.Options options;
  int sweep = 1;
  long versionsMoved;
  long bytesMoved;
  long copiesCollected;
  private String savedBucket = "";
  private String savedAfter = "";
  private double bytesPerSecond;
  private long rateFromNanos = System.nanoTime();
  private long rateFromBytes;
  private long lastProgressNanos;

  MoveLedger(MoveCheckpoints checkpoints, Mover.Options options) {
    this.checkpoints = checkpoints;
    this.options = options;
  }

  /** Takes the counters of the checkpoint a run resumes from. */
  void resume(MoveCheckpoints.Checkpoint c) {
    versionsMoved = c.versionsMoved();
    bytesMoved = c.bytesMoved();
    copiesCollected = c.copiesCollected();
    sweep = c.sweep();
    savedBucket = c.bucket();
    savedAfter = c.after();
    bytesPerSecond = c.bytesPerSecond();
    restartRate();
  }

  /** Begins a new window of the observed rate: the mover (re)starts moving now. */
  void restartRate() {
    rateFromNanos = System.nanoTime();
    rateFromBytes = bytesMoved;
  }

  /** Checkpoints that the sweep finished {@code after} in {@code bucket}, with no problem. */
  void save(String bucket, String after) {
    savedBucket = bucket;
    savedAfter = after;
    note(null, null);
  }

  /**
   * Checkpoints that a sweep ended (the next starts from the first bucket), noting what the mover
   * waits for before the next ({@code waiting}, null: nothing).
   */
  void between(String waiting) {
    savedBucket = "";
    savedAfter = "";
    note(null, waiting);
  }

  /**
   * Checkpoints where the last checkpoint stands, noting {@code problem} (null: none) and what the
   * mover waits for ({@code waiting}, null: nothing).
   */
  void note(String problem, String waiting) {
    observeRate();
    MoveCheckpoints.Checkpoint c =
        new MoveCheckpoints.Checkpoint(
            1,
            sweep,
            savedBucket,
            savedAfter,
            versionsMoved,
            bytesMoved,
            copiesCollected,
            problem,
            bytesPerSecond,
            waiting);
    checkpoints.save(c);
    options.counters().accept(MoveProgress.of(c));
  }

  /** {@link #note} that does not fail the run: a pause is noted on an array that may be down. */
  void noteQuietly(String problem, String waiting) {
    try {
      note(problem, waiting);
    } catch (StoreException e) {
      options.progress().accept("reshape: could not note the pause: " + e.getMessage());
    }
  }

  private void observeRate() {
    long elapsed = System.nanoTime() - rateFromNanos;
    long moved = bytesMoved - rateFromBytes;
    if (moved > 0 && elapsed >= RATE_WINDOW.toNanos()) {
      bytesPerSecond = moved * 1e9 / elapsed;
    }
  }

  /** The progress line, at most one a second unless {@code always}. */
  void say(boolean always) {
    long now = System.nanoTime();
    if (!always && now - lastProgressNanos < Duration.ofSeconds(1).toNanos()) {
      return;
    }
    lastProgressNanos = now;
    options
        .progress()
        .accept(
            "reshape: sweep "
                + sweep
                + ": "
                + versionsMoved
                + " versions moved, "
                + bytesMoved / 1_000_000
                + " MB, "
                + copiesCollected
                + " old copies collected");
  }
}
