package io.racs.proxy.store.api;

import io.racs.proxy.store.array.KeyStamps;
import java.util.concurrent.atomic.LongAdder;

/** Counters of what the store had to work around, for metrics and tests. */
public final class StoreStats {
  public final LongAdder degradedStripes = new LongAdder();
  public final LongAdder slowShardStripes = new LongAdder();
  public final LongAdder corruptPieces = new LongAdder();
  public final LongAdder unavailablePieces = new LongAdder();
  public final LongAdder underReplicatedWrites = new LongAdder();
  public final LongAdder hedgedShardReads = new LongAdder();
  public final LongAdder hedgedRecordReads = new LongAdder();
  public final LongAdder stampedReads = new LongAdder();

  /** Stripes read that needed parity (a data shard was missing, corrupt or slow). */
  public long degradedStripes() {
    return degradedStripes.sum();
  }

  /**
   * The {@link #degradedStripes} that needed parity only because a data shard was slower than
   * parity, with no shard missing or corrupt: a hedge on a healthy array, not a repair, so no
   * warning is logged for them.
   */
  public long slowShardStripes() {
    return slowShardStripes.sum();
  }

  /** Shard pieces whose CRC32C did not match (bitrot) when read. */
  public long corruptPieces() {
    return corruptPieces.sum();
  }

  /** Shard reads that failed or timed out. */
  public long unavailablePieces() {
    return unavailablePieces.sum();
  }

  /** Versions committed on fewer than all repositories (heal completes them). */
  public long underReplicatedWrites() {
    return underReplicatedWrites.sum();
  }

  /**
   * Shard reads started because a repository was late for a read that had asked only as many as it
   * needed (a hedge): the cost of hedging, in extra repository requests.
   */
  public long hedgedShardReads() {
    return hedgedShardReads.sum();
  }

  /** Record reads started because the repository asked first was late (a hedge). */
  public long hedgedRecordReads() {
    return hedgedRecordReads.sum();
  }

  /**
   * GETs and HEADs that found the current version without a listing: the key's stamp had not
   * changed since the listing this proxy took last ({@link KeyStamps}).
   */
  public long stampedReads() {
    return stampedReads.sum();
  }
}
