package io.racs.proxy.store.commit;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexQuorum;
import io.racs.proxy.store.array.KeyStamps;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.VersionMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one commit-and-rollback routine: writes a record under one name on every repository and
 * succeeds once a write quorum holds it. When fewer do, it removes the copies written, runs the
 * caller's rollback (deleting the data a version referred to, say) and throws {@code
 * INSUFFICIENT_SHARDS} naming each repository's cause, so a failed write leaves nothing visible.
 * Every record the store writes (versions, bucket records, upload and part records) goes through
 * here.
 *
 * <p>Thread-safe; calls block until every repository has answered or timed out.
 */
public final class QuorumWriter {
  private static final Logger LOG = LoggerFactory.getLogger(QuorumWriter.class);

  private final StoreContext context;
  private final Collector collector;

  public QuorumWriter(StoreContext context, Collector collector) {
    this.context = context;
    this.collector = collector;
  }

  /** Writes a small record (a bucket, upload or part record) on a write quorum. */
  public void write(String name, byte[] record, String what) {
    List<StoreException.ShardFailure> failures =
        writeOnQuorum(name, slot -> record, what, () -> {}, () -> context.registerWrite(name));
    if (!failures.isEmpty()) {
      context.stats.underReplicatedWrites.increment();
    }
  }

  /**
   * Makes {@code meta} visible: writes its index entry ({@code recordOnSlot}: the bytes for each
   * slot, which differ for inline versions) and needs a write quorum. On failure the data of the
   * version is deleted as well. On success the versions it superseded are collected in the
   * background.
   *
   * @param dataFailures repositories that did not take the version's data, so that a version
   *     missing some of it is counted (and logged) as under-replicated
   */
  public void commit(
      VersionMeta meta,
      IntFunction<byte[]> recordOnSlot,
      List<StoreException.ShardFailure> dataFailures,
      CommitOrder.Pending ordering) {
    commit(
        meta,
        recordOnSlot,
        dataFailures,
        () -> collector.deleteDataLater(meta),
        ordering::takeRegistration);
  }

  /**
   * As {@link #commit(VersionMeta, IntFunction, List)} for a multipart completion, whose data stays
   * when the commit fails: the parts are still the upload's, and the client, answered 503, may
   * complete it again (SDKs retry a 503). Deleting them made that retry commit an object whose data
   * was gone.
   */
  public void commitUploadedParts(
      VersionMeta meta, IntFunction<byte[]> recordOnSlot, CommitOrder.Pending ordering) {
    commit(meta, recordOnSlot, List.of(), () -> {}, ordering::takeRegistration);
  }

  private void commit(
      VersionMeta meta,
      IntFunction<byte[]> recordOnSlot,
      List<StoreException.ShardFailure> dataFailures,
      Runnable rollback,
      Supplier<KeyStamps.Registration> registering) {
    String name = context.indexEntry(meta.bucket(), meta.key(), meta.versionId());
    List<StoreException.ShardFailure> failures =
        writeOnQuorum(
            name,
            recordOnSlot,
            "commit " + meta.bucket() + "/" + meta.key(),
            rollback,
            registering);
    // What every repository's record reads as (an inline one also carries a shard, which a record
    // read as VersionMeta leaves out): a read of the key through this proxy then needs no GET of
    // it.
    context.cacheVersion(name, meta);
    if (!failures.isEmpty() || !dataFailures.isEmpty()) {
      context.stats.underReplicatedWrites.increment();
      LOG.info(
          "{}/{} version {} is under-replicated until heal: {} {}",
          meta.bucket(),
          meta.key(),
          meta.versionId(),
          failures,
          dataFailures);
    }
    // Superseded versions go once this one has settled, so storage does not grow with overwrites;
    // a reader still streaming one then may lose it (heal collects whatever this misses).
    collector.collectLater(meta.bucket(), meta.key(), meta.versionId());
  }

  /**
   * Commits a reshape's copy of a committed version in another layout ({@code name}: {@link
   * io.racs.proxy.store.format.Layout#copyEntry}) on the write quorum, as {@link #commit} commits a
   * version; on failure the copy's data is deleted (in the background) and nothing else changes. A
   * copy supersedes nothing: it is the same version, so no older version is collected after it.
   */
  public void commitCopy(
      String name,
      VersionMeta copy,
      IntFunction<byte[]> recordOnSlot,
      List<StoreException.ShardFailure> dataFailures) {
    List<StoreException.ShardFailure> failures =
        writeOnQuorum(
            name,
            recordOnSlot,
            "copy " + copy.bucket() + "/" + copy.key() + " version " + copy.versionId(),
            () -> collector.deleteDataLater(copy),
            () -> context.registerWrite(name));
    context.cacheVersion(name, copy);
    if (!failures.isEmpty() || !dataFailures.isEmpty()) {
      context.stats.underReplicatedWrites.increment();
    }
  }

  /** Deletes a record on every repository that answers. */
  public void deleteEverywhere(String name) {
    IndexQuorum index = context.index();
    context.array.fanOut(
        index.writeSlots(),
        (slot, repository) -> {
          repository.delete(name);
          return null;
        },
        index.writeQuorum());
  }

  /**
   * Removes the record of a write that failed: from the repositories that took it, waiting for them
   * (they just answered), and from the others in the background, without waiting for them (a
   * stalled one may even take the record after this). Neither is needed for the record to stay
   * invisible, since it is on fewer repositories than the write quorum and the visibility rule
   * passes it over; the removal keeps the repositories clean, and heal collects what it misses.
   */
  private void removeWritten(String name, List<RepositoryArray.Outcome<Object>> outcomes) {
    List<Integer> written = new ArrayList<>();
    List<Integer> others = new ArrayList<>();
    for (RepositoryArray.Outcome<Object> outcome : outcomes) {
      (outcome.ok() ? written : others).add(outcome.slot());
    }
    RepositoryArray array = context.array;
    if (!written.isEmpty()) {
      array.fanOut(
          written,
          (slot, repository) -> {
            repository.delete(name);
            return null;
          },
          written.size());
    }
    for (int slot : others) {
      try {
        array
            .executor()
            .execute(
                () -> {
                  try {
                    array.slot(slot).delete(name);
                  } catch (RuntimeException e) {
                    LOG.debug("slot {}: removing {} failed: {}", slot, name, e.toString());
                  }
                });
      } catch (RejectedExecutionException e) {
        return; // closing: heal collects it
      }
    }
  }

  /** Writes the record everywhere; returns the failures of a success, or rolls back and throws. */
  private List<StoreException.ShardFailure> writeOnQuorum(
      String name,
      IntFunction<byte[]> recordOnSlot,
      String what,
      Runnable rollback,
      Supplier<KeyStamps.Registration> registering) {
    RepositoryArray array = context.array;
    // One index quorum for the whole write: where it goes and when it is acknowledged.
    IndexQuorum index = context.index();
    int quorum = index.writeQuorum();
    // A key's records are written only while registered in its stamp slot (KeyStamps): first, so
    // that no other proxy trusts the version it resolved before, and until every call has ended.
    // A commit's registration began alongside its ordering listing (CommitOrder.Pending); this
    // waits for it.
    KeyStamps.Registration registration;
    try {
      registration = registering.get();
    } catch (RuntimeException e) {
      rollback.run(); // nothing of the record was written
      throw e;
    }
    boolean committed = false;
    try {
      List<RepositoryArray.Outcome<Object>> outcomes =
          array.fanOut(
              index.writeSlots(),
              (slot, repository) -> {
                RepositoryArray.putBytes(repository, name, recordOnSlot.apply(slot));
                return null;
              },
              quorum);
      List<Integer> written = new ArrayList<>();
      for (RepositoryArray.Outcome<Object> outcome : outcomes) {
        if (outcome.ok()) {
          written.add(outcome.slot());
        }
      }
      int ok = written.size();
      if (!index.acknowledged(written)) {
        List<StoreException.ShardFailure> failures = array.failures(outcomes);
        removeWritten(name, outcomes);
        rollback.run();
        throw new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            what
                + ": written on "
                + ok
                + " of "
                + outcomes.size()
                + " repositories, fewer than the write quorum "
                + (outcomes.size() == index.decidingSlots().size() ? quorum : index.toString()),
            failures,
            null);
      }
      committed = true;
      return ok == outcomes.size() ? List.of() : array.failures(outcomes);
    } finally {
      // On a write quorum the entry is a version for every reader, and a copy that lands late
      // changes no answer: only a write that failed holds its registration (StoreContext.leave).
      context.leave(registration, committed);
    }
  }
}
