package io.racs.proxy.store.reshape;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.array.IndexQuorum;
import io.racs.proxy.store.format.ArrayRecord;

/**
 * The index quorum an array record says the array is in (docs/reshape.md §4): the one place that
 * turns a reshape's layouts, state and phase into {@link IndexQuorum}'s sets and write quorums.
 *
 * <ul>
 *   <li>A reshape that keeps the repository set (geometry only) changes no index set: its slots
 *       alone, phase {@code OLD}, on the configured write quorum.
 *   <li>One that adds or retires slot ids: while {@code RUNNING}, its recorded phase over the two
 *       layouts' slot ids ({@code OLD} before the first phase is recorded); once {@code COMPLETE},
 *       the new set alone; once {@code ABORTED} or {@code FAILED} before {@code DONE}, the old set
 *       alone, which every record acknowledged in {@code JOINT} or {@code SWITCHED} is on a write
 *       quorum of. A reshape given up after {@code DONE} would need the phases in reverse, which
 *       are not built: it is refused.
 * </ul>
 *
 * <p>A layout's index write quorum is its data write quorum, {@code max(k, m + 1)}, as the mover
 * writes a target ({@link VersionCopier#configFor}); the layout the store is configured with (the
 * reshape's {@code from} until it completes, its {@code to} after) keeps the configured one.
 */
public final class RecordedIndex {
  private RecordedIndex() {}

  /**
   * The index quorum of {@code r}.
   *
   * @param configuredWriteQuorum the write quorum of the configured layout: {@code r}'s {@code
   *     from} until it completes, its {@code to} once complete
   * @throws IllegalStateException for a reshape given up after its {@code DONE} phase
   */
  public static IndexQuorum of(ArrayRecord r, int configuredWriteQuorum) {
    int fromQuorum = configuredWriteQuorum;
    int toQuorum = writeQuorumOf(r.to());
    boolean changes = r.changesRepositories();
    if (!changes) {
      // The same slots before and after: the store's own write quorum, as before any reshape.
      return IndexQuorum.of(r.from().slotIds(), configuredWriteQuorum);
    }
    ArrayRecord.Phase phase = r.phase();
    return switch (r.state()) {
      case COMPLETE -> IndexQuorum.of(r.to().slotIds(), configuredWriteQuorum);
      case RUNNING ->
          phase == null
              ? IndexQuorum.of(r.from().slotIds(), fromQuorum)
              : IndexQuorum.joint(
                  IndexQuorum.Phase.valueOf(phase.name()),
                  r.from().slotIds(),
                  fromQuorum,
                  r.to().slotIds(),
                  toQuorum);
      case ABORTED, FAILED -> {
        if (phase == ArrayRecord.Phase.DONE) {
          throw new IllegalStateException(
              "the reshape to "
                  + r.to().describe()
                  + " was given up after its index moved to the new repositories: moving it"
                  + " back is not built");
        }
        yield IndexQuorum.of(r.from().slotIds(), fromQuorum);
      }
    };
  }

  /** The index write quorum of a recorded layout: {@code max(k, m + 1)}. */
  static int writeQuorumOf(ArrayRecord.Generation layout) {
    Geometry geometry = Geometry.parse(layout.geometry());
    return Math.max(geometry.dataShards(), geometry.parityShards() + 1);
  }
}
