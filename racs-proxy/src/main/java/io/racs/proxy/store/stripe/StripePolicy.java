package io.racs.proxy.store.stripe;

import io.racs.proxy.store.array.Throttle;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a {@link StripeLoader} loads stripes for, a GET or heal's rebuild of some shards, and so how
 * it treats what it meets. Hedging, the stall rule and the slow-shard deadline are the same for
 * both; only these differ:
 *
 * @param excluded shards never read: a rebuild's targets (their bytes are what is being replaced)
 *     and the shards on repositories heal found unreachable
 * @param rebuilt shards reconstructed in every stripe, parity as well as data (empty for a GET,
 *     which reconstructs only the data shards it missed)
 * @param corruptPiece what a piece failing its CRC32C does to its shard
 * @param quiet whether the loader keeps from warning of reads repaired from parity (heal reports
 *     its own findings; every stripe of a rebuild is repaired)
 * @param throttle what the bytes read are paced by (heal's), or null
 */
record StripePolicy(
    Set<Integer> excluded,
    Set<Integer> rebuilt,
    CorruptPiece corruptPiece,
    boolean quiet,
    Throttle throttle) {

  /** What a piece that fails its CRC32C costs. */
  enum CorruptPiece {
    /** Only that stripe: parity stands in for it, the shard keeps streaming (GET). */
    SKIPS_PIECE,
    /** The shard, for the rest of the load: another one is read in its place (rebuild). */
    FAILS_SHARD
  }

  /** A GET's: every shard may be read, a corrupt piece is repaired from parity with a warning. */
  static final StripePolicy GET =
      new StripePolicy(Set.of(), Set.of(), CorruptPiece.SKIPS_PIECE, false, null);

  StripePolicy {
    excluded = Set.copyOf(excluded);
    rebuilt = Set.copyOf(rebuilt);
  }

  /**
   * A rebuild's of {@code targets}: they and the {@code unreadable} shards are never read, a
   * corrupt source fails, nothing is warned of, and the reads are paced by {@code throttle}.
   */
  static StripePolicy rebuild(Set<Integer> targets, Set<Integer> unreadable, Throttle throttle) {
    Set<Integer> excluded = new TreeSet<>(targets);
    excluded.addAll(unreadable);
    return new StripePolicy(excluded, targets, CorruptPiece.FAILS_SHARD, true, throttle);
  }
}
