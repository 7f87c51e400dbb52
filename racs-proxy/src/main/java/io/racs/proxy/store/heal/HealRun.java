package io.racs.proxy.store.heal;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.KeyStamps;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.array.Throttle;
import io.racs.proxy.store.format.VersionMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The state of one heal run that its jobs share: the store it heals, the options, the figures it
 * reports, the slots left out after a failure, the data the scan found referenced; and the rules
 * every job follows (a failed step is listed and heal carries on, a failing slot is left out for
 * the rest of the run, what may be copied or collected). Confined to the heal's thread.
 */
final class HealRun {

  /** Thrown through heal's steps when {@link HealOptions#stop()} says stop. */
  static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super("stopped", null, false, false);
    }
  }

  final Maintenance store;
  final StoreContext context;
  final RepositoryArray array;
  final HealOptions options;
  final Throttle throttle;
  // The array's slots: every index record is on each of them. Shards are counted by each
  // version's own geometry (ShardRepair), never by the geometry new writes take.
  final int n;
  long objects;
  long records;
  long shards;
  long read;
  long written;
  long leftovers;
  final List<String> unrecoverable = new ArrayList<>();
  final List<String> notDone = new ArrayList<>();
  // Slots that failed (at the probe, or on a call during the run), with the first failure: skipped
  // from then on, so that one failing repository costs one error, not one per object.
  final Map<Integer, String> unreachable = new TreeMap<>();
  // Set when part of the scan failed: then what no record refers to is not known, and nothing is
  // collected as a leftover.
  boolean scanIncomplete;
  final Set<String> referenced = new HashSet<>();
  long lastProgress = System.nanoTime();

  HealRun(Maintenance store, HealOptions options) {
    this.store = store;
    this.context = store.context();
    this.array = context.array;
    this.options = options;
    this.throttle = Throttle.megabytesPerSecond(options.megabytesPerSecond());
    this.n = array.size();
  }

  /** Throws {@link Stopped} once the options say stop. */
  void checkStop() {
    if (options.stop().getAsBoolean()) {
      throw new Stopped();
    }
  }

  HealReport report(boolean stopped) {
    return new HealReport(
        objects,
        records,
        shards,
        read,
        written,
        leftovers,
        List.copyOf(unrecoverable),
        unreachable.entrySet().stream()
            .map(u -> u.getKey() + " (" + array.slot(u.getKey()).name() + "): " + u.getValue())
            .toList(),
        List.copyOf(notDone),
        options.dryRun(),
        stopped);
  }

  /** Runs one step of heal; a failure is listed as not done, and heal carries on. */
  void attempt(String what, Runnable step) {
    try {
      step.run();
    } catch (Stopped e) {
      throw e;
    } catch (RuntimeException e) {
      failed(what, e);
    }
  }

  void failed(String what, RuntimeException e) {
    scanIncomplete = true;
    String line = what + ": " + e.getMessage();
    notDone.add(line);
    options.progress().accept("heal: could not " + line);
  }

  /**
   * A listing of {@code prefix} that waits for every slot ({@link IndexMerge#whole}): heal reads
   * from the slots that list a record which repositories hold it, and whether it counts, so a slot
   * is never left out for listing slowly (it would look like one that lacks the record: an inline
   * version rebuilt from too few of its records, a write refused on too few repositories judged a
   * version). A slot whose listing fails is left out for the rest of the run, as any failing slot
   * is, and so are the slots that failed before.
   */
  IndexMerge listing(String prefix, String startAfter, int pageSize) {
    return IndexMerge.whole(
        array,
        prefix,
        startAfter,
        pageSize,
        new IndexMerge.Exclusions() {
          @Override
          public boolean excluded(int slot) {
            return unreachable.containsKey(slot);
          }

          @Override
          public void failed(int slot, String cause) {
            markUnreachable(slot, "listing failed: " + cause);
          }
        });
  }

  /** Leaves a slot out for the rest of the run, remembering the first failure. */
  void markUnreachable(int slot, Exception cause) {
    markUnreachable(slot, cause.getMessage() != null ? cause.getMessage() : cause.toString());
  }

  private void markUnreachable(int slot, String message) {
    if (unreachable.putIfAbsent(slot, message) == null) {
      options
          .progress()
          .accept(
              "heal: slot " + slot + " (" + array.slot(slot).name() + ") unreachable: " + message);
    }
  }

  /**
   * Marks the data of an entry heal leaves alone as referenced, so that {@link
   * HealCollection#collectLeftovers} does not take it for the data of a failed write.
   */
  void referenceData(IndexMerge.Entry e) {
    for (IndexMerge.Entry name : e.names()) { // the version's own entry and its copies
      context
          .read(name, VersionMeta.class)
          .ifPresent(meta -> meta.parts().forEach(part -> referenced.add(part.dataId())));
    }
  }

  /**
   * Reports a version heal could not repair, unless it was superseded during the run: then its data
   * may have been collected under the repair, and the key's new version needs no repair.
   */
  void failedRepair(VersionMeta version, StoreException cause) {
    try {
      Optional<VersionMeta> now = store.resolver().newest(version.bucket(), version.key());
      if (now.isEmpty() || !now.get().versionId().equals(version.versionId())) {
        return;
      }
    } catch (StoreException ex) {
      // The key cannot be resolved now either: report the repair's own cause.
    }
    unrecoverable.add(version.bucket() + "/" + version.key() + " (" + cause.getMessage() + ")");
  }

  Instant graceCutoff() {
    return store.config().clock().instant().minus(store.config().gcGrace());
  }

  /**
   * Registers copies of an index entry about to be written, as any write of a key's entries is
   * ({@link KeyStamps}), when they could change what a reader resolves: an entry on fewer than a
   * write quorum of repositories counted only by those that did not answer, and more copies may
   * make it a version for every reader. One already on a write quorum is a version (or a removal)
   * for every reader, so copying it changes no answer, and a replaced repository refilled with
   * every entry costs ZooKeeper nothing.
   */
  KeyStamps.Registration registerCopies(IndexMerge.Entry e) {
    return listedOnWriteQuorum(e) ? KeyStamps.Registration.NONE : context.registerWrite(e.name());
  }

  /**
   * Whether the repositories that listed {@code e} number a write quorum, so that it is a version
   * (or a removal that counts) for every reader whichever repositories answer. An entry that counts
   * only through repositories whose listing failed may not count once they answer (it may be what a
   * failed or crashed write left), and then what it hides is current. Heal deletes nothing on the
   * strength of such an entry: that would make the guess final, losing the current version, and no
   * proxy that kept the current answer (docs/coordination.md, the version cache) would hear of it,
   * since deletions do not register.
   */
  boolean listedOnWriteQuorum(IndexMerge.Entry e) {
    return context.index().mayCount(e.slots());
  }

  void progress() {
    long now = System.nanoTime();
    if (now - lastProgress >= Duration.ofSeconds(1).toNanos()) {
      lastProgress = now;
      options
          .progress()
          .accept(
              "heal: "
                  + objects
                  + " objects scanned, "
                  + shards
                  + " shards rebuilt, "
                  + records
                  + " records repaired, "
                  + (read + written) / 1_000_000
                  + " MB moved");
    }
  }
}
