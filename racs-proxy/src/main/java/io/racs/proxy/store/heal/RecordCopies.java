package io.racs.proxy.store.heal;

import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.KeyStamps;
import io.racs.proxy.store.array.RepositoryArray;
import java.util.Optional;

/**
 * Heal's copying of records: a record (index entry, removal record, bucket, upload, array or user
 * record) that some reachable repositories lack is copied to them from one that has it, registering
 * the copies where they could change what a reader resolves.
 */
final class RecordCopies {
  final HealRun run;

  RecordCopies(HealRun run) {
    this.run = run;
  }

  /** Copies a record to every reachable repository that lacks it. */
  void replicate(IndexMerge.Entry e) {
    boolean lacking = false;
    for (int slot : run.context.index().writeSlots()) {
      lacking = lacking || !e.slots().contains(slot) && !run.unreachable.containsKey(slot);
    }
    if (!lacking) {
      return;
    }
    Optional<byte[]> bytes = Optional.empty();
    for (int slot : e.slots()) {
      if (run.unreachable.containsKey(slot)) {
        continue;
      }
      try {
        bytes = RepositoryArray.getBytes(run.array.slot(slot), e.name());
      } catch (RuntimeException ex) {
        run.markUnreachable(slot, ex); // another slot that lists it has a copy
        continue;
      }
      if (bytes.isPresent()) {
        break;
      }
    }
    if (bytes.isEmpty()) {
      return;
    }
    KeyStamps.Registration registration =
        run.options.dryRun() ? KeyStamps.Registration.NONE : run.registerCopies(e);
    boolean everywhere = true;
    try {
      for (int slot : run.context.index().writeSlots()) {
        if (!e.slots().contains(slot) && !run.unreachable.containsKey(slot)) {
          if (!run.options.dryRun()) {
            try {
              RepositoryArray.putBytes(run.array.slot(slot), e.name(), bytes.get());
            } catch (RuntimeException ex) {
              run.markUnreachable(slot, ex);
              everywhere = false;
              continue;
            }
            run.written += bytes.get().length;
          }
          run.records++;
        }
      }
    } finally {
      run.context.leave(registration, everywhere);
    }
  }

  void replicateRecords(String prefix) {
    IndexMerge merge = run.listing(prefix, "", 1000);
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      replicate(e);
    }
  }

  /**
   * Copies the records under {@code prefix} that a write quorum holds to every repository; one on
   * fewer may be what a failed write left, which must not become an answer by being copied.
   */
  void replicateCommitted(String prefix) {
    IndexMerge merge = run.listing(prefix, "", 1000);
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      if (merge.index().mayCount(e.slots())) {
        replicate(e);
      }
    }
  }
}
