package io.racs.proxy.store.heal;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.format.AbandonedRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartRecord;
import io.racs.proxy.store.object.MultipartUploads;
import java.util.ArrayList;
import java.util.List;

/**
 * Heal's part in multipart uploads: their records are copied where a repository lacks them (but not
 * those of an upload given up), old marks are collected with what is left of their upload, and the
 * data of uploaded parts is marked referenced so that it is no leftover.
 */
final class UploadHeal {
  final HealRun run;
  final RecordCopies copies;

  UploadHeal(HealRun run, RecordCopies copies) {
    this.run = run;
    this.copies = copies;
  }

  /**
   * Copies the records of a bucket's multipart uploads (upload records, part records, and the marks
   * of uploads given up) to every repository, but not those of an upload given up (aborted or
   * abandoned) while its mark counts: a repository that missed their deletion must not spread them
   * again, or the upload would come back. A mark that counts is copied, so that it stays on a write
   * quorum whichever repositories are lost later; one that does not (a failed abort's) is not, and
   * the upload it names is healed as any other. A mark that counts and is older than the GC grace
   * is collected with whatever of its upload is left ({@link MultipartUploads#collectAbandoned}),
   * so that aborts leave nothing behind also where no scrub runs.
   */
  void healUploads(String bucket) {
    MultipartUploads uploads = run.store.uploads();
    IndexMerge merge = run.listing(Layout.uploadPrefix(bucket), "", 1000);
    List<AbandonedRecord> old = new ArrayList<>();
    // An upload record is copied once the entry after it is known (its mark sorts right after it).
    IndexMerge.Entry record = null;
    String givenUp = null; // the record of the last upload whose mark counts
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      if (Layout.isRemovalRecord(e.name())) {
        boolean counts = uploads.markCounts(merge, e);
        if (record != null && (!counts || !e.name().equals(Layout.removalRecord(record.name())))) {
          copies.replicate(record);
        }
        record = null;
        if (counts) {
          givenUp = Layout.removedEntry(e.name());
          copies.replicate(e);
          run.context
              .read(e, AbandonedRecord.class)
              .filter(mark -> mark.abandonedMillis() < run.graceCutoff().toEpochMilli())
              .ifPresent(old::add);
        }
        continue;
      }
      if (record != null) {
        copies.replicate(record);
        record = null;
      }
      if (!Layout.isPartRecord(e.name())) {
        record = e;
      } else if (givenUp == null || !e.name().startsWith(givenUp + "/")) {
        copies.replicate(e);
      }
    }
    if (record != null) {
      copies.replicate(record);
    }
    for (AbandonedRecord mark : old) {
      run.leftovers++;
      if (run.options.dryRun()) {
        continue;
      }
      try {
        uploads.collectAbandoned(mark);
      } catch (StoreException ex) {
        run.notDone.add(ex.getMessage());
      }
    }
  }

  void collectUploadReferences(String bucket) {
    IndexMerge merge = run.listing(Layout.uploadPrefix(bucket), "", 1000);
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      if (Layout.isPartRecord(e.name())) {
        run.context.read(e, PartRecord.class).ifPresent(r -> run.referenced.add(r.part().dataId()));
      }
    }
  }
}
