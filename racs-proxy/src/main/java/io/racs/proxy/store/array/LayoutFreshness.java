package io.racs.proxy.store.array;

import io.racs.proxy.store.api.StoreException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Whether a store may still trust the layout its new writes take (docs/reshape.md §6): the layout
 * is what the array record said at the store's last successful read of it (a listing of {@code
 * racs/array/} on a read quorum, every {@link #TTL} / 3), and it is trusted for {@link #TTL} after
 * that read. Past it, another proxy may have recorded a reshape (or an abort) that this store has
 * not seen, and a write in the layout it knows could land where the mover's completing sweep no
 * longer looks: {@link #require} then refuses new writes until a read succeeds again. Reads need no
 * layout (each version's record names its own), so they are never refused here.
 *
 * <p>What counts as a successful read is only the listing of the array records on a read quorum and
 * the read of the deciding record, whatever it says: an array on which no reshape was ever recorded
 * reads "no record" every time, and so is refused only when that listing itself fails (or does not
 * end) for longer than the ttl, which with a read quorum lost is when every other write fails
 * anyway (each write lists its key on a read quorum to order itself). A store that does not follow
 * the array record (opened by {@code inspect}, or not yet opened) never refuses.
 *
 * <p>Thread-safe.
 */
public final class LayoutFreshness {
  /** How long a store trusts the layout it last read (docs/reshape.md §6). */
  public static final Duration TTL = Duration.ofSeconds(30);

  private final LongSupplier ticker;
  private final long ttlNanos;
  private volatile boolean following;
  private volatile long readNanos;
  // A failed re-read found the ttl passed: said once in the log, until a read succeeds.
  private volatile boolean refusing;

  /** Ages by {@code ticker} (nanoseconds, monotonic) and trusts a read for {@code ttl}. */
  public LayoutFreshness(LongSupplier ticker, Duration ttl) {
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl: " + ttl + " (expected: > 0)");
    }
    this.ticker = ticker;
    this.ttlNanos = ttl.toNanos();
  }

  /**
   * The store follows the array record from now on, having just read it: from here {@link #require}
   * refuses once no read has succeeded for the ttl.
   */
  public void follow() {
    read();
    following = true;
  }

  /**
   * The array record was read now (on a read quorum), whatever it said.
   *
   * @return whether new writes were being refused until now (for the log)
   */
  public boolean read() {
    readNanos = ticker.getAsLong();
    boolean was = refusing;
    refusing = false;
    return was;
  }

  /**
   * A re-read failed.
   *
   * @return whether new writes are refused from now on and were not before (for the log: what the
   *     clients are told in a 503, the operator hears once)
   */
  public boolean failed() {
    if (!following || refusing || ticker.getAsLong() - readNanos <= ttlNanos) {
      return false;
    }
    refusing = true;
    return true;
  }

  /**
   * Refuses a new write while the layout may be stale.
   *
   * @throws StoreException {@code LAYOUT_UNKNOWN} naming how long the array record could not be
   *     read, when the store follows it and its last successful read is older than the ttl
   */
  public void require() {
    if (!following) {
      return;
    }
    long ageNanos = ticker.getAsLong() - readNanos;
    if (ageNanos > ttlNanos) {
      throw new StoreException(
          StoreException.Code.LAYOUT_UNKNOWN,
          "the array's layout could not be read for "
              + TimeUnit.NANOSECONDS.toSeconds(ageNanos)
              + " s: new writes are refused until it is read again; retry later");
    }
  }
}
