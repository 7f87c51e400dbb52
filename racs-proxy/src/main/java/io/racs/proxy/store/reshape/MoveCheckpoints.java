package io.racs.proxy.store.reshape;

import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.heal.Maintenance;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The mover's checkpoints (docs/reshape.md §6): records on the index set, {@code
 * racs/reshape/<generation>/<id>}, each a new name (ids sort newest first, and are minted after
 * observing every one listed, as array records are), holding where the sweep stands and its
 * counters. Any proxy's mover resumes from the newest that may be on a write quorum; the older ones
 * are deleted once a newer one is written, and all of them when the reshape completes.
 *
 * <p>Not thread-safe: one mover at a time (it holds the heal lease).
 */
final class MoveCheckpoints {
  /**
   * Where a sweep stands: the last bucket and index name finished (the sweep resumes after them),
   * the sweep's number, and what the reshape moved and collected so far.
   *
   * @param format record format version (1)
   * @param sweep which sweep of the reshape (1 for the first)
   * @param bucket the bucket being swept
   * @param after the last index name finished in it
   * @param versionsMoved versions (and delete markers) copied into the target so far
   * @param bytesMoved stored bytes copied so far
   * @param copiesCollected older copies collected so far
   * @param problem why the mover is paused or failed, one line; null while it moves (absent from
   *     older checkpoints)
   * @param bytesPerSecond the rate the mover was seen to move stored bytes at since it last began
   *     or resumed moving; 0 when none was observed yet (and in older checkpoints)
   * @param waiting what the mover waits for that is not an error, one line (uploads begun in the
   *     old layout, docs/reshape.md §5); null when nothing (and in older checkpoints)
   */
  record Checkpoint(
      int format,
      int sweep,
      String bucket,
      String after,
      long versionsMoved,
      long bytesMoved,
      long copiesCollected,
      String problem,
      double bytesPerSecond,
      String waiting) {}

  private final StoreContext context;
  private final QuorumWriter writer;
  private final int generation;
  private final List<String> written = new ArrayList<>();

  MoveCheckpoints(Maintenance store, int generation) {
    this.context = store.context();
    this.writer = new QuorumWriter(context, store.collector());
    this.generation = generation;
  }

  /** The newest checkpoint that may be on a write quorum; empty when there is none. */
  Optional<Checkpoint> latest() {
    IndexMerge merge = new IndexMerge(context.array, Layout.moveCheckpoints(generation), "", 100);
    Optional<Checkpoint> found = Optional.empty();
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      String id = e.name().substring(Layout.moveCheckpoints(generation).length());
      context.ids.observe(id);
      written.add(e.name()); // deleted once a newer one is written
      if (found.isEmpty() && merge.index().mayCount(VersionResolver.possibleHolders(merge, e))) {
        found = context.read(e, Checkpoint.class);
      }
    }
    context.requireReadQuorum(merge, "read the mover's checkpoint");
    return found;
  }

  /** Writes {@code checkpoint} on a write quorum, then deletes the ones before it. */
  void save(Checkpoint checkpoint) {
    String name = Layout.moveCheckpoint(generation, context.ids.next());
    writer.write(name, Layout.encode(checkpoint), "checkpoint the mover");
    deleteWritten();
    written.add(name);
  }

  /** Deletes every checkpoint this mover knows of (the reshape is complete). */
  void clear() {
    deleteWritten();
  }

  private void deleteWritten() {
    for (String old : written) {
      try {
        writer.deleteEverywhere(old);
      } catch (RuntimeException e) {
        // Best effort: an old checkpoint left behind is never newest again.
      }
    }
    written.clear();
  }
}
