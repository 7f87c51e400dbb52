package io.racs.proxy.store.array;

import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.ForwardingRepository;
import java.io.InputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One slot's repository as the store sees it: the repository, and whether it has been admitted to
 * the array by its identity marker ({@link Identity}).
 *
 * <p>A slot the store refused (unreachable at open, or an empty repository the others could not
 * prove to be this slot's replacement) answers every call with {@code UNAVAILABLE} and the reason,
 * so that nothing is read from it or written to it until it is admitted. While refused, a call
 * looks at the repository's marker again, at most every {@value #RECHECK_SECONDS} seconds, and
 * admits the slot once the marker is this array's for this slot (a disk mounted again, a server
 * back up); an empty repository is only ever admitted by adoption, which needs the whole array's
 * view ({@link Identity#adoptUnmarked}).
 *
 * <p>A slot adopted but not yet filled by heal is <em>pending</em>: it takes writes and serves what
 * it has, but it proves nothing about the slot's identity to later adoptions.
 *
 * <p>It also remembers why the last put failed, when the repository refused it for lack of space or
 * permission ({@code FULL}, {@code ACCESS_DENIED}: a full or read-only disk answers probes and
 * reads as usual), until a put succeeds again: the store's health report and its error for a write
 * that lost its quorum use it.
 *
 * <p>Thread-safe.
 */
public final class GuardedRepository extends ForwardingRepository {
  private static final Logger LOG = LoggerFactory.getLogger(GuardedRepository.class);
  static final int RECHECK_SECONDS = 5;

  private final int slot;
  private final String arrayId;
  private final AtomicBoolean checking = new AtomicBoolean();
  private volatile String refusal;
  private volatile boolean pending;
  private volatile long nextCheckNanos;
  private volatile WriteFailure writeFailure;

  /** Why the last put failed, and when ({@link System#nanoTime()}). */
  record WriteFailure(RepositoryException.Kind kind, String message, long atNanos) {}

  GuardedRepository(Repository delegate, int slot, String arrayId) {
    super(delegate);
    this.slot = slot;
    this.arrayId = arrayId;
  }

  /** Keeps the slot out of the array for {@code reason} (one line, said to operators). */
  void refuse(String reason) {
    refusal = reason;
    nextCheckNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(RECHECK_SECONDS);
  }

  /** Admits the slot; {@code pending} while heal has not filled it since its adoption. */
  void admit(boolean pending) {
    this.pending = pending;
    refusal = null;
  }

  /** Why the slot is kept out, or null when it is admitted. */
  String refusal() {
    return refusal;
  }

  /** Whether the slot was adopted and heal has not filled it yet. */
  public boolean pending() {
    return pending;
  }

  /**
   * Why the last put was refused for lack of space or permission, or null when the last put
   * succeeded (or failed otherwise).
   */
  WriteFailure writeFailure() {
    return writeFailure;
  }

  /** The repository itself, bypassing the guard: for the identity checks only. */
  Repository unguarded() {
    return delegate();
  }

  private void guard() {
    if (refusal == null) {
      return;
    }
    if (System.nanoTime() - nextCheckNanos >= 0 && checking.compareAndSet(false, true)) {
      try {
        recheck();
      } finally {
        checking.set(false);
      }
    }
    String reason = refusal;
    if (reason != null) {
      throw new RepositoryException(RepositoryException.Kind.UNAVAILABLE, name() + ": " + reason);
    }
  }

  private void recheck() {
    nextCheckNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(RECHECK_SECONDS);
    try {
      Optional<Identity.Marker> marker = Identity.readMarker(delegate());
      if (marker.isPresent() && Identity.belongs(marker.get(), arrayId, slot)) {
        admit(marker.get().pending());
        LOG.warn("slot {} ({}) carries this array's marker again: back in service", slot, name());
      }
    } catch (RuntimeException e) {
      LOG.debug("slot {} ({}) still out: {}", slot, name(), e.toString());
    }
  }

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    guard();
    try {
      ObjectInfo stored = super.put(key, body, lengthBytes);
      writeFailure = null;
      return stored;
    } catch (RepositoryException e) {
      if (e.kind() == RepositoryException.Kind.FULL
          || e.kind() == RepositoryException.Kind.ACCESS_DENIED) {
        writeFailure = new WriteFailure(e.kind(), e.getMessage(), System.nanoTime());
      }
      throw e;
    }
  }

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    guard();
    return super.get(key, offset, lengthBytes);
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    guard();
    return super.head(key);
  }

  @Override
  public void delete(String key) {
    guard();
    super.delete(key);
  }

  @Override
  public void discard(String key) {
    guard();
    super.discard(key);
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    guard();
    return super.list(prefix, startAfter, maxKeys);
  }

  @Override
  public long purgeLeftovers(Duration grace, boolean dryRun) {
    guard();
    return super.purgeLeftovers(grace, dryRun);
  }

  @Override
  public void probe() {
    guard();
    super.probe();
  }
}
