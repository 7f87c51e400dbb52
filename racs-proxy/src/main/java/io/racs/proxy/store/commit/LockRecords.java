package io.racs.proxy.store.commit;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.VersionMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The changes made to versions' object locks after they were written (PutObjectRetention,
 * PutObjectLegalHold). A version's record is never changed, so each change is a lock record of its
 * own, {@code k/<bucket>/<key>\0/<recordId>}, written on a write quorum through the {@link
 * QuorumWriter} before the change is acknowledged; it names the version and what it changes (the
 * retention, or the legal hold). A key's lock records list newest first; of those naming a version,
 * the newest retention record decides its retention and the newest legal-hold record its hold, and
 * what no record changed is as the version's record says ({@link VersionMeta#lock()}).
 *
 * <p>A lock record counts by the rule of an index entry ({@link VersionResolver#possibleHolders}):
 * only if a write quorum could hold it. A record that counts but cannot be read on any repository
 * that lists it fails the read ({@code INSUFFICIENT_SHARDS}), so an unreadable lock never reads as
 * none. Only versions with a lock (written in a bucket with object lock) are ever looked up, so
 * other buckets pay nothing.
 *
 * <p>Thread-safe.
 */
public final class LockRecords {
  /** What a lock record changes. */
  public enum Change {
    RETENTION,
    LEGAL_HOLD
  }

  /**
   * A lock record.
   *
   * @param versionId the version whose lock changes
   * @param change what changes
   * @param mode the retention's mode (null: none), for {@link Change#RETENTION}
   * @param retainUntilMillis the retention's end, for {@link Change#RETENTION}
   * @param legalHold the hold, for {@link Change#LEGAL_HOLD}
   */
  public record LockRecord(
      String bucket,
      String key,
      String versionId,
      Change change,
      String mode,
      long retainUntilMillis,
      boolean legalHold) {}

  private final StoreContext context;
  private final QuorumWriter writer;

  public LockRecords(StoreContext context, QuorumWriter writer) {
    this.context = context;
    this.writer = writer;
  }

  /** The prefix of every lock record of {@code bucket}. */
  public static String bucketPrefix(String bucket) {
    return "k/" + bucket + "/";
  }

  private String keyPrefix(String bucket, String key) {
    return bucketPrefix(bucket) + context.nameKey(bucket, key) + Layout.KEY_END;
  }

  /** Writes a retention change of {@code version} ({@code mode} null: removed). */
  public void putRetention(VersionMeta version, String mode, long retainUntilMillis) {
    write(version, Change.RETENTION, mode, retainUntilMillis, false);
  }

  /** Writes a legal-hold change of {@code version}. */
  public void putLegalHold(VersionMeta version, boolean on) {
    write(version, Change.LEGAL_HOLD, null, 0, on);
  }

  private void write(
      VersionMeta v, Change change, String mode, long retainUntilMillis, boolean hold) {
    writer.write(
        keyPrefix(v.bucket(), v.key()) + context.ids.next(),
        Layout.encode(
            new LockRecord(
                v.bucket(), v.key(), v.versionId(), change, mode, retainUntilMillis, hold)),
        "lock " + v.bucket() + "/" + v.key() + " version " + v.versionId());
  }

  /**
   * The lock in force on {@code version}: null when it has none (see {@link VersionMeta#lock()}),
   * else its record's as changed by the newest lock records; read from a read quorum of listings
   * ({@code INSUFFICIENT_SHARDS} otherwise).
   */
  public ObjectLock current(VersionMeta version) {
    if (version.lock() == null || version.deleteMarker()) {
      return null;
    }
    return apply(version, list(version.bucket(), version.key()));
  }

  /**
   * The lock records of a key that count, newest first, read from a read quorum of listings ({@code
   * INSUFFICIENT_SHARDS} otherwise, or when one that counts is unreadable everywhere).
   */
  public List<LockRecord> list(String bucket, String key) {
    IndexMerge merge = new IndexMerge(context.array, keyPrefix(bucket, key), "", 100);
    List<IndexMerge.Entry> entries = new ArrayList<>();
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      entries.add(e);
    }
    context.requireReadQuorum(merge, "read the lock of " + bucket + "/" + key);
    List<LockRecord> records = new ArrayList<>();
    for (IndexMerge.Entry e : entries) {
      if (!merge.index().mayCount(VersionResolver.possibleHolders(merge, e))) {
        continue; // its write may have failed
      }
      Optional<LockRecord> record = context.read(e, LockRecord.class);
      if (record.isEmpty()) {
        throw new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            "lock record " + e.name() + " is unreadable on every repository that lists it");
      }
      if (record.get().key().equals(key)) {
        records.add(record.get());
      }
    }
    return records;
  }

  /**
   * The lock in force on {@code version} given its key's lock records ({@link #list}); null when
   * the version has none.
   */
  public static ObjectLock apply(VersionMeta version, List<LockRecord> records) {
    if (version.lock() == null || version.deleteMarker()) {
      return null;
    }
    ObjectLock lock = version.lock();
    boolean retentionSeen = false;
    boolean holdSeen = false;
    for (LockRecord r : records) {
      if (!r.versionId().equals(version.versionId())) {
        continue;
      }
      if (r.change() == Change.RETENTION && !retentionSeen) {
        lock = lock.withRetention(r.mode(), r.retainUntilMillis());
        retentionSeen = true;
      } else if (r.change() == Change.LEGAL_HOLD && !holdSeen) {
        lock = lock.withLegalHold(r.legalHold());
        holdSeen = true;
      }
    }
    return lock;
  }
}
