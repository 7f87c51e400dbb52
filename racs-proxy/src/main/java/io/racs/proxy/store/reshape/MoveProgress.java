package io.racs.proxy.store.reshape;

import io.racs.proxy.store.heal.Maintenance;
import java.util.Optional;

/**
 * Where a reshape's mover stands, as its newest checkpoint says (docs/reshape.md §6), for {@code
 * reshape status}, {@code /metrics} and {@code /health/ready}.
 *
 * @param sweep which sweep of the reshape (1 for the first)
 * @param bucket the bucket being swept (empty between sweeps)
 * @param versionsMoved versions (and delete markers) copied into the target so far
 * @param bytesMoved stored bytes copied so far
 * @param copiesCollected older copies collected so far
 * @param problem why the mover is paused or failed, one line; empty while it moves
 * @param bytesPerSecond the rate the mover was seen to move at since it last began or resumed
 *     moving; 0 when none was observed yet
 * @param waiting what the mover waits for that is no error (uploads begun in the old layout), one
 *     line; empty when nothing
 */
public record MoveProgress(
    int sweep,
    String bucket,
    long versionsMoved,
    long bytesMoved,
    long copiesCollected,
    String problem,
    double bytesPerSecond,
    String waiting) {

  /**
   * The progress of the move into {@code generation}, from its newest checkpoint on a read quorum;
   * empty before the mover checkpointed (and after it completed: the checkpoints go then).
   */
  public static Optional<MoveProgress> latest(Maintenance store, int generation) {
    return new MoveCheckpoints(store, generation).latest().map(MoveProgress::of);
  }

  static MoveProgress of(MoveCheckpoints.Checkpoint c) {
    return new MoveProgress(
        c.sweep(),
        c.bucket(),
        c.versionsMoved(),
        c.bytesMoved(),
        c.copiesCollected(),
        c.problem() == null ? "" : c.problem(),
        c.bytesPerSecond(),
        c.waiting() == null ? "" : c.waiting());
  }
}
