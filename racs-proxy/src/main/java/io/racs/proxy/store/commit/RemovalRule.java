package io.racs.proxy.store.commit;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.VersionMeta;

/**
 * The one answer to "may this version be removed now?", as far as its object lock decides: every
 * path that removes a version asks here first (DELETE with a version id and DeleteObjects through
 * {@link VersionRemovals}, lifecycle expiry, the collector, heal's clean-up).
 *
 * <p>A version is kept while it is under a legal hold, or while its retention has not ended; a
 * {@code GOVERNANCE} retention yields to a request that bypasses it ({@code
 * x-amz-bypass-governance-retention}; until access control exists, issue #40, any authenticated
 * request may bypass), a {@code COMPLIANCE} one to nothing. A version without a lock ({@link
 * VersionMeta#lock()} null: its bucket had no object lock when it was written) is never kept by
 * this rule; what else keeps a version (bucket versioning, settle time) is its callers' to ask.
 *
 * <p>Retention is judged by this proxy's wall clock ({@code StoreConfig.clock}), never by the
 * hybrid clock of version ids, which another proxy's clock running ahead would pull forward. And
 * while this proxy's clock reads earlier than the newest commit time it has seen ({@link
 * io.racs.proxy.store.format.VersionId#newestMicros}), some clock in the array is wrong: it then
 * judges no retention ended, so that neither its own clock (behind: it would only delete late) nor
 * another's (ahead) makes it remove a version early. See {@code docs/ordering.md}, "Clocks and
 * object lock".
 *
 * <p>Thread-safe. A lock that cannot be read (no read quorum) keeps the version: background callers
 * use {@link #mayRemove}, which says no, and requests get the read's {@code INSUFFICIENT_SHARDS}.
 */
public final class RemovalRule {
  /** Why a version is kept, or that it is not. */
  public enum Verdict {
    /** Nothing in its lock keeps it. */
    FREE,
    /** A {@code GOVERNANCE} retention in force: removable only by a request that bypasses it. */
    GOVERNANCE,
    /** A {@code COMPLIANCE} retention in force. */
    COMPLIANCE,
    /** A legal hold. */
    LEGAL_HOLD,
    /** A retention that seems to have ended, judged by a clock known to be behind another's. */
    CLOCK_BEHIND
  }

  /** What a removal takes away. */
  public enum Removal {
    /** The version itself (DELETE by version id, lifecycle, the collector of superseded ones). */
    VERSION,
    /**
     * One copy of a version replaced by a committed copy of the same version in another layout (a
     * reshape's mover, or heal after it): the version stays, with its bytes, id and lock, so
     * neither retention nor a legal hold forbids it.
     */
    SUPERSEDED_COPY
  }

  private final StoreContext context;
  private final LockRecords locks;

  public RemovalRule(StoreContext context, LockRecords locks) {
    this.context = context;
    this.locks = locks;
  }

  /** The records of lock changes this rule reads. */
  public LockRecords records() {
    return locks;
  }

  /** What keeps {@code version}, judged now ({@code INSUFFICIENT_SHARDS} if unreadable). */
  public Verdict judge(VersionMeta version) {
    return judge(locks.current(version));
  }

  /** What keeps a version whose lock in force is {@code lock} (null: none), judged now. */
  public Verdict judge(ObjectLock lock) {
    if (lock == null) {
      return Verdict.FREE;
    }
    if (lock.legalHold()) {
      return Verdict.LEGAL_HOLD;
    }
    if (!lock.hasRetention()) {
      return Verdict.FREE;
    }
    long nowMillis = context.config.clock().millis();
    if (lock.retainUntilMillis() > nowMillis) {
      return lock.mode().equals(ObjectLock.COMPLIANCE) ? Verdict.COMPLIANCE : Verdict.GOVERNANCE;
    }
    if (context.ids.newestMicros() / 1000 > nowMillis) {
      return Verdict.CLOCK_BEHIND;
    }
    return Verdict.FREE;
  }

  /**
   * Throws {@code OBJECT_LOCKED} unless {@code version} may be removed now by a request that
   * bypasses a {@code GOVERNANCE} retention or not.
   */
  public void requireRemovable(VersionMeta version, boolean bypassGovernance) {
    Verdict verdict = judge(version);
    if (verdict == Verdict.FREE || (verdict == Verdict.GOVERNANCE && bypassGovernance)) {
      return;
    }
    throw new StoreException(
        StoreException.Code.OBJECT_LOCKED,
        version.bucket()
            + "/"
            + version.key()
            + " version "
            + version.versionId()
            + " is kept by its object lock ("
            + verdict
            + ")");
  }

  /**
   * What a background job asks before it removes {@code version} (no bypass): true only when
   * nothing in its lock keeps it; false as well when its lock cannot be read now.
   */
  public boolean mayRemove(VersionMeta version) {
    return mayRemove(version, Removal.VERSION);
  }

  /**
   * {@link #mayRemove(VersionMeta)} for what {@code removal} takes away: a {@link
   * Removal#SUPERSEDED_COPY} removes no version, so no lock keeps it (whether the newer copy counts
   * and has settled is the caller's to know, as settle time is for superseded versions).
   */
  public boolean mayRemove(VersionMeta version, Removal removal) {
    if (removal == Removal.SUPERSEDED_COPY) {
      return true;
    }
    if (version.lock() == null) {
      return true;
    }
    try {
      return judge(version) == Verdict.FREE;
    } catch (StoreException e) {
      return false;
    }
  }
}
