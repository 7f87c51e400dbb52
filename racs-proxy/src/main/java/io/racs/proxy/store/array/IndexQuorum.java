package io.racs.proxy.store.array;

/**
 * The one place that says how records ({@code i/}, {@code u/}, {@code b/}, {@code racs/array/} and
 * every other name on every repository of the array) are written and judged (docs/reshape.md §4):
 * on which slots they are written, on how many a write is acknowledged, from how many copies one
 * may count, and how many answering slots make a listing complete. Data quorums are not here: a
 * version's shards count on its own layout's write quorum ({@code PartWriter}).
 *
 * <p>An array has one phase so far, {@link Phase#OLD}: records live on every slot of the array, a
 * write is acknowledged on the write quorum, and a listing needs {@code slots - writeQuorum + 1}
 * slots, so that it meets every acknowledged write. A reshape that changes the repositories adds
 * the joint phases of docs/reshape.md §4 here, and nowhere else.
 *
 * <p>Immutable and thread-safe.
 */
public final class IndexQuorum {
  /** Where a reshape of the repository set stands, as the index sees it. */
  public enum Phase {
    /** No change of the repository set: one index set, the array's slots. */
    OLD
  }

  private final Phase phase;
  private final int slots;
  private final int writeQuorum;

  /**
   * The index quorum of an array of {@code slots} slots that acknowledges a write on {@code
   * writeQuorum} of them.
   *
   * @throws IllegalArgumentException when {@code writeQuorum} is not from 1 to {@code slots}
   */
  public IndexQuorum(int slots, int writeQuorum) {
    if (writeQuorum < 1 || writeQuorum > slots) {
      throw new IllegalArgumentException(
          "writeQuorum: " + writeQuorum + " (expected: 1 to " + slots + ")");
    }
    this.phase = Phase.OLD;
    this.slots = slots;
    this.writeQuorum = writeQuorum;
  }

  /** The phase. */
  public Phase phase() {
    return phase;
  }

  /** How many slots records are written to (all of the index set). */
  public int slots() {
    return slots;
  }

  /** On how many slots a record must be for its write to be acknowledged. */
  public int writeQuorum() {
    return writeQuorum;
  }

  /** How many slots' listings together are sure to name every acknowledged record. */
  public int readQuorum() {
    return slots - writeQuorum + 1;
  }

  /**
   * Whether a record that may be on {@code copies} slots may have been acknowledged (so counts):
   * fewer is what a failed write leaves.
   */
  public boolean mayCount(int copies) {
    return copies >= writeQuorum;
  }

  /** How many slots may fail a record's write while it still is acknowledged. */
  public int tolerated() {
    return slots - writeQuorum;
  }

  @Override
  public String toString() {
    return phase + ": " + writeQuorum + " of " + slots + " (listings need " + readQuorum() + ")";
  }
}
