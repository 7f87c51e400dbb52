package io.racs.proxy.store.heal;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.Identity;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.bucket.BucketDocuments;
import io.racs.proxy.store.commit.LockRecords;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.object.ObjectTags;
import io.racs.repos.RepositoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds and repairs what failures leave behind, and collects leftovers: the on-demand {@code racs
 * heal} and the background scrub.
 *
 * <p>For every bucket record, index entry and upload record it makes sure each repository has a
 * copy (but for the records of an upload aborted or given up, which it collects instead); for the
 * current version of every key it checks each shard object (present, right size, and with {@code
 * deep} every piece's CRC32C) and rebuilds the bad ones from k good shards; superseded versions,
 * data no record refers to, and what crashed writes left inside repositories ({@link
 * io.racs.repos.Repository#purgeLeftovers}), older than the GC grace, are deleted. An empty
 * repository adopted into a slot is therefore filled completely. Work is throttled, reports
 * progress, and with a state file resumes after the last key it finished.
 */
public final class Healer {
  private final HealRun run;
  private final RecordCopies copies;
  private final ShardRepair repair;
  private final UploadHeal uploads;
  private final HealCollection collection;
  private final CopyHeal copyHeal;

  private Healer(Maintenance store, HealOptions options) {
    this.run = new HealRun(store, options);
    this.copies = new RecordCopies(run);
    this.repair = new ShardRepair(run);
    this.uploads = new UploadHeal(run, copies);
    this.collection = new HealCollection(run, copies);
    this.copyHeal = new CopyHeal(run);
  }

  /** Runs a heal over {@code store}. */
  public static HealReport heal(Maintenance store, HealOptions options) {
    return new Healer(store, options).run();
  }

  private HealReport run() {
    try {
      return scan();
    } catch (HealRun.Stopped e) {
      // Told to stop (its proxy lost the leadership): the checkpoint stays for whoever resumes.
      run.notDone.add("stopped before the end; resumes from the checkpoint");
      run.options.progress().accept("heal: stopped; resumes from the checkpoint");
      return run.report(true);
    }
  }

  private HealReport scan() {
    run.store.awaitCollections(); // what the store is still collecting is not a leftover
    if (!run.options.dryRun()) {
      // Before the probes, so that a slot adoption keeps out counts as unreachable below.
      adopt();
    }
    for (int slot : run.array.ids()) {
      try {
        run.array.slot(slot).probe();
      } catch (RepositoryException e) {
        run.markUnreachable(slot, e);
      }
    }
    String[] resume = readState();
    // A resumed heal does not scan what lies before its checkpoint, so it does not know which data
    // those versions refer to: it must not collect leftovers (they would include live data), nor
    // confirm adopted slots. The next heal, a whole one, does both.
    run.scanIncomplete = resume != null;
    // Each step runs whatever failed before it: a failure is listed, and heal carries on.
    // Array records as versions' entries: one on fewer than a write quorum may be a failed write's.
    run.attempt("copy array records", () -> copies.replicateCommitted(Layout.ARRAY_RECORDS));
    // User records too: a failed write's must not become a user by being copied.
    run.attempt("copy user records", () -> copies.replicateCommitted(Layout.USER_RECORDS));
    run.attempt("copy bucket records", () -> copies.replicateRecords(Layout.bucketPrefix()));
    for (BucketDocuments.Kind kind : BucketDocuments.Kind.values()) {
      run.attempt("copy " + kind + " records", () -> copies.replicateRecords(kind.prefix()));
    }
    List<String> buckets = new ArrayList<>();
    if (run.options.bucket() != null) {
      buckets.add(run.options.bucket());
    } else {
      run.attempt(
          "list buckets", () -> run.store.listBuckets().forEach(b -> buckets.add(b.name())));
    }
    for (String bucket : buckets) {
      run.attempt(
          "copy tag-set records of " + bucket,
          () -> copies.replicateCommitted(ObjectTags.bucketPrefix(bucket)));
      run.attempt(
          "copy lock records of " + bucket,
          () -> copies.replicateCommitted(LockRecords.bucketPrefix(bucket)));
    }
    for (String bucket : buckets) {
      run.checkStop();
      if (resume != null && bucket.compareTo(resume[0]) < 0) {
        continue;
      }
      String after = resume != null && bucket.equals(resume[0]) ? resume[1] : "";
      // The part records before the index: a completion commits its version, then removes its part
      // records. Read after the scan, a completion that committed behind the scan would be named by
      // neither, and its data (as old as its parts) would be collected as a leftover. Read before,
      // a part record that is gone was removed after its version committed, before the scan began.
      run.attempt(
          "read upload records of " + bucket, () -> uploads.collectUploadReferences(bucket));
      run.attempt("heal bucket " + bucket, () -> healBucket(bucket, after));
      run.attempt("heal upload records of " + bucket, () -> uploads.healUploads(bucket));
    }
    if (run.options.bucket() == null) {
      // Invisible to the scan, and only ever past the grace: collected whatever else failed.
      collection.purgeWriteLeftovers();
    }
    if (run.options.bucket() == null && run.unreachable.isEmpty() && !run.scanIncomplete) {
      run.attempt("collect leftovers", collection::collectLeftovers);
      if (!run.options.dryRun() && run.unrecoverable.isEmpty() && run.notDone.isEmpty()) {
        // Every object was checked on every slot, so adopted slots are now full members.
        run.store.slots().confirm();
      }
    }
    run.checkStop(); // a heal stopped at its very end keeps its checkpoint all the same
    clearState();
    return run.report(false);
  }

  /** Adopts empty slots the array can prove are being replaced, and reports those it cannot. */
  private void adopt() {
    Identity.Adoption adoption = run.store.slots().adoptUnmarked();
    for (int slot : adoption.adopted()) {
      run.records++;
      run.options
          .progress()
          .accept("heal: slot " + slot + " (" + run.array.slot(slot).name() + ") is new: adopted");
    }
    adoption
        .refused()
        .forEach(
            (slot, reason) -> {
              String line = "slot " + slot + " (" + run.array.slot(slot).name() + ") " + reason;
              run.notDone.add(line);
              run.options.progress().accept("heal: " + line);
            });
  }

  // The version entry heal met last (its own name, even when only copies of it were listed): a
  // removal record lists right after the entry it removes and that entry's copies.
  private String previousEntry;

  private void healBucket(String bucket, String after) {
    IndexMerge merge = run.listing(Layout.indexPrefix(bucket), after, 1000);
    String lastKeyName = null;
    boolean lastKeySettled = true;
    // The key whose null version (the newest record flagged nullVersion) heal met last, and whether
    // it has settled: older flagged records of that key are superseded (see NullVersions).
    String nullKeyName = null;
    boolean nullSettled = false;
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      run.checkStop();
      String previous = previousEntry;
      previousEntry = e.versionEntry();
      String keyName = e.name().substring(0, e.name().lastIndexOf(Layout.SEPARATOR));
      boolean newest = !keyName.equals(lastKeyName);
      if (!newest && !lastKeySettled && !keepsVersionsSurely(bucket)) {
        // Superseded by a version that has not settled: readers may still need it, so it is not
        // collected, and its data is no leftover either.
        run.referenceData(e);
        continue;
      }
      if (Layout.isRemovalRecord(e.name())) {
        collection.healRemoval(merge, e, previous);
        continue;
      }
      if (run.store.resolver().removed(merge, e)) {
        if (run.listedOnWriteQuorum(merge.peek())) {
          // Removed by its id: its removal record counts, so the entry and data go at once.
          collection.collectRemoved(e);
        } else {
          // Its removal record counts only through repositories that did not list: once they do,
          // it may not, and this version is current again. It stays (healRemoval spreads the
          // record, and a later run collects the version).
          run.referenceData(e);
        }
        continue;
      }
      VersionResolver.Judgement judged = run.store.resolver().judge(merge, e, null);
      Optional<VersionMeta> meta = judged.meta();
      // A versioned bucket keeps every version, so each is healed as the newest one is (read just
      // before a version would be collected, so that versioning turned on meanwhile counts).
      boolean kept;
      try {
        kept = !newest && run.store.keepsVersions(bucket);
      } catch (RuntimeException ex) {
        run.failed("read versioning of " + bucket, ex);
        continue; // neither collected nor healed: the next run decides
      }
      if ((newest || kept) && judged.standing() == VersionResolver.Standing.NOT_A_VERSION) {
        // A write that crashed while committing (or one still committing, left alone for the
        // GC grace); either way the key's next version decides.
        if (VersionId.time(Layout.versionOf(e.name())).isBefore(run.graceCutoff())) {
          collection.collectVersion(e);
        }
        continue;
      }
      if (newest) {
        lastKeyName = keyName;
        // A version only through repositories that did not list supersedes nothing for sure: the
        // versions under it are left as under one that has not settled.
        lastKeySettled =
            run.listedOnWriteQuorum(decidingName(e, judged))
                && VersionId.time(Layout.versionOf(e.name()))
                    .isBefore(
                        run.store
                            .config()
                            .clock()
                            .instant()
                            .minus(run.store.config().settleTime()));
      }
      if (judged.standing() == VersionResolver.Standing.VERSION && meta.get().nullVersion()) {
        if (kept && keyName.equals(nullKeyName) && nullSettled) {
          // Superseded by the key's null version, which has settled: removed for good, as the
          // write that superseded it would have done had its proxy not stopped first.
          removeSupersededNull(meta.get());
          continue;
        }
        if (!keyName.equals(nullKeyName)) {
          nullKeyName = keyName;
          nullSettled =
              run.listedOnWriteQuorum(decidingName(e, judged))
                  && VersionId.time(Layout.versionOf(e.name()))
                      .isBefore(
                          run.store
                              .config()
                              .clock()
                              .instant()
                              .minus(run.store.config().settleTime()));
        }
      }
      try {
        healEntry(bucket, keyName, merge, e, judged, newest || kept);
      } catch (RuntimeException ex) {
        run.failed(meta.map(m -> "heal " + bucket + "/" + m.key()).orElse("heal " + e.name()), ex);
      }
    }
  }

  /** The name of a version that decided it (its own entry or a copy), or its first one listed. */
  private static IndexMerge.Entry decidingName(IndexMerge.Entry e, VersionResolver.Judgement j) {
    return j.decided() != null ? j.decided() : e;
  }

  /** Removes a null record its key's newer null version superseded (a removal record first). */
  private void removeSupersededNull(VersionMeta version) {
    if (run.options.dryRun()) {
      return;
    }
    run.attempt(
        "remove superseded null version " + version.bucket() + "/" + version.key(),
        () -> run.store.removeVersion(version.bucket(), version.key(), version.versionId()));
  }

  /**
   * Whether the bucket keeps every version, false when that cannot be read now: a version a kept
   * key's newest version has not yet settled over is healed like any kept one, not skipped.
   */
  private boolean keepsVersionsSurely(String bucket) {
    try {
      return run.store.keepsVersions(bucket);
    } catch (RuntimeException e) {
      return false;
    }
  }

  private void healEntry(
      String bucket,
      String keyName,
      IndexMerge merge,
      IndexMerge.Entry version,
      VersionResolver.Judgement judged,
      boolean newest) {
    if (!newest) {
      collection.collectVersion(version);
      return;
    }
    run.objects++;
    // Of the version's own entry and its copies in other layouts, the one that decided is healed;
    // the others are superseded or leftovers of a move.
    IndexMerge.Entry e = judged.decided() != null ? judged.decided() : version;
    Optional<VersionMeta> meta = judged.meta();
    if (meta.isEmpty()) {
      copyHeal.others(merge, version, e, meta, false);
      unreadableNewest(bucket, keyName, e);
      return;
    }
    int unrecoverable = run.unrecoverable.size();
    VersionMeta record = meta.get();
    if (ShardRepair.isInline(record)) {
      repair.healInline(e, record);
    } else {
      for (PartMeta part : record.parts()) {
        run.referenced.add(
            part.dataId()); // first: whatever fails below, the data is not a leftover
      }
      copies.replicate(e);
      for (PartMeta part : record.parts()) {
        repair.healPart(record, part);
      }
    }
    // An older copy goes only once the deciding one is whole again.
    copyHeal.others(merge, version, e, meta, run.unrecoverable.size() == unrecoverable);
    writeState(bucket, version.names().get(version.names().size() - 1).name());
    run.progress();
  }

  /**
   * The newest entry of a key whose record no repository could read: a version collected under this
   * heal (superseded by a write during the run, which is no failure) unless a fresh resolution of
   * the key still finds it unreadable.
   */
  private void unreadableNewest(String bucket, String keyName, IndexMerge.Entry e) {
    String versionId = Layout.versionOf(e.name());
    try {
      Optional<VersionMeta> now = run.store.resolver().newestOfIndexKey(keyName);
      if (now.isEmpty() || !now.get().versionId().equals(versionId)) {
        return; // superseded or deleted during the run
      }
    } catch (StoreException ex) {
      // Still unreadable: reported below.
    }
    run.unrecoverable.add(
        bucket + ": the record of version " + versionId + " is unreadable on every repository");
  }

  private String[] readState() {
    Optional<String> saved = run.options.checkpoint().read();
    if (saved.isEmpty()) {
      return null;
    }
    String[] state = saved.get().split("\t", 2);
    if (state.length == 2) {
      run.options.progress().accept("heal: resuming in bucket " + state[0]);
      return state;
    }
    return null;
  }

  private void writeState(String bucket, String name) {
    if (!run.options.dryRun()) {
      run.options.checkpoint().write(bucket + "\t" + name);
    }
  }

  private void clearState() {
    if (!run.options.dryRun()) {
      run.options.checkpoint().clear();
    }
  }
}
