package io.racs.proxy.store.heal;

import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.commit.VersionRemovals;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.repos.ObjectInfo;
import io.racs.repos.Repository;
import java.time.Instant;
import java.util.Optional;

/**
 * Heal's collection of garbage: superseded and removed versions, removal records whose work is
 * done, what failed writes left (their index entries, repositories' temporary files, and shard
 * objects no record refers to once they are older than the GC grace).
 */
final class HealCollection {
  final HealRun run;
  final RecordCopies copies;

  HealCollection(HealRun run, RecordCopies copies) {
    this.run = run;
    this.copies = copies;
  }

  /**
   * A version's removal record (see {@link VersionRemovals}). One that counts is kept on every
   * repository, so that it stays on a write quorum whichever repositories are lost later, until the
   * version it removes is gone: then it is deleted, once every repository's listing has proved it
   * lacks the version's entry and its copies (listed right before the record, and the merge has
   * just passed that place on all {@code n}) and the version is older than the GC grace (a late
   * copy of the entry from its own commit could still land before that). One that does not count is
   * what a removal that failed left behind, collected past the GC grace like a failed write.
   */
  void healRemoval(IndexMerge merge, IndexMerge.Entry e, String previous) {
    boolean old = VersionId.time(Layout.versionOf(e.name())).isBefore(run.graceCutoff());
    if (!run.store.resolver().removalCounts(merge, e)) {
      if (old) {
        discardEverywhere(e.name());
      }
      return;
    }
    boolean entryGone =
        !Layout.removedEntry(e.name()).equals(previous)
            && merge.unprovenSlots().isEmpty()
            && run.unreachable.isEmpty();
    if (entryGone && old) {
      Optional<VersionMeta> removed = run.context.read(e, VersionMeta.class);
      removed.ifPresent(version -> run.store.collector().deleteData(version));
      discardEverywhere(e.name());
      return;
    }
    copies.replicate(e);
  }

  /** Deletes a version its removal record removed: data first, then its entry (durably). */
  void collectRemoved(IndexMerge.Entry e) {
    run.leftovers++;
    if (run.options.dryRun()) {
      return;
    }
    for (IndexMerge.Entry name : e.names()) { // a removal record removes every copy
      Optional<VersionMeta> meta = run.context.read(name, VersionMeta.class);
      if (meta.isPresent()) {
        run.store.collector().deleteRemoved(name.name(), meta.get());
      } else {
        run.store.collector().removeVersion(name.name(), meta); // no data known: the entry only
      }
    }
  }

  /** Deletes a removal record on every repository that answers. */
  void discardEverywhere(String name) {
    run.leftovers++;
    if (run.options.dryRun()) {
      return;
    }
    run.array.fanOut(
        (slot, repository) -> {
          repository.delete(name);
          return null;
        });
  }

  /**
   * Deletes a superseded version (or a failed write's entry) with its copies in other layouts: data
   * first, then each record.
   */
  void collectVersion(IndexMerge.Entry e) {
    run.leftovers++;
    if (run.options.dryRun()) {
      return;
    }
    run.store.collector().removeEveryCopy(e);
  }

  /**
   * Has every reachable repository remove what crashed writes left inside it (an fs repository's
   * temporary files) past the GC grace.
   */
  void purgeWriteLeftovers() {
    for (int slot : run.array.ids()) {
      if (run.unreachable.containsKey(slot)) {
        continue;
      }
      try {
        run.leftovers +=
            run.array.slot(slot).purgeLeftovers(run.store.config().gcGrace(), run.options.dryRun());
      } catch (RuntimeException e) {
        run.markUnreachable(slot, e);
      }
    }
  }

  /** Deletes shard objects no record refers to, once they are older than the GC grace. */
  void collectLeftovers() {
    Instant cutoff = run.store.config().clock().instant().minus(run.store.config().gcGrace());
    for (int slot : run.array.ids()) {
      Repository repository = run.array.slot(slot);
      try {
        for (ObjectInfo info : RepositoryArray.listAll(repository, Layout.dataPrefix())) {
          String name = info.key();
          String dataId = Layout.dataIdOfShard(name);
          if (run.referenced.contains(dataId)) {
            continue;
          }
          if (VersionId.valid(dataId) && VersionId.time(dataId).isAfter(cutoff)) {
            continue; // may belong to a write still running
          }
          if (!run.options.dryRun()) {
            repository.delete(name);
          }
          run.leftovers++;
        }
      } catch (RuntimeException e) {
        run.notDone.add(
            "collect leftovers on slot "
                + slot
                + " ("
                + repository.name()
                + "): "
                + e.getMessage());
      }
    }
  }
}
