package io.racs.proxy.store.api;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.store.ErasureStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * How an {@link ErasureStore} lays out and protects data. Immutable; build with {@link
 * #builder(Geometry)}.
 *
 * @param geometry data x parity shards; the array has exactly {@code totalShards} repositories
 * @param blockBytes data bytes per stripe (rounded up to a multiple of k); default 1 MiB
 * @param writeQuorum repositories that must hold a version before it counts; default {@code max(k,
 *     m + 1)}, so that any m repositories lost later still leave one copy of the index entry and k
 *     shards
 * @param slowShardTimeout a repository that takes no data for this long during a PUT, or sends none
 *     during a GET, is treated as failed for that operation, whatever the others do
 * @param stallGrace a repository that has not answered this long (or four times as long as its
 *     peers took, if that is longer) after enough of its peers answered is treated as stalled:
 *     failed for that operation, and suspended for later ones until a background probe answers;
 *     default 1 s
 * @param minPartBytes the smallest multipart part other than the last (S3: 5 MiB)
 * @param gcGrace leftovers of failed writes younger than this are left alone by heal, since they
 *     may belong to writes still running
 * @param inlineBytes objects of at most this many bytes (capped at one block; {@code inlineSize} in
 *     the YAML, as {@code blockBytes} is {@code blockSize}) keep each shard in the version's record
 *     on its repository instead of a shard object of its own: one write per repository instead of
 *     two, committed in one step (MinIO inlines below 128 KiB too); default 128 KiB, 0 turns it off
 * @param settleTime how long a superseded version stays after the version that superseded it
 *     committed, before it is collected; default twice the slow-shard timeout. Readers take the
 *     repositories' listings one by one, not at one instant, and a version is only a version if a
 *     write quorum could hold it (see {@code VersionResolver}): while its superseding version
 *     commits, a version must keep its entries on a write quorum, or a reader whose listings
 *     straddle the commit could find neither. So collection waits until any listing that could have
 *     begun before the commit has ended; a listing that takes longer than this could still miss a
 *     key. Zero collects at once (tests that count what is left).
 * @param clock the wall clock new version ids start from; default the system clock. Versions are
 *     not ordered by it alone (see {@code VersionId}): a proxy whose clock is behind still orders
 *     its writes after those acknowledged before they began. Tests shift it to prove that.
 * @param keys the master keys that wrap the data keys of SSE-S3 objects; null when none is
 *     configured (SSE-S3 writes are then refused, and SSE-C ones need no master key)
 * @param hedge when reads ask one more repository than they need (see {@link Hedge}); on by default
 * @param ticker the monotonic time, in nanoseconds, by which the store's caches of bucket state
 *     (existence, versioning, documents) age; default {@link System#nanoTime}. Tests drive it to
 *     age a cache without waiting.
 */
public record StoreConfig(
    Geometry geometry,
    int blockBytes,
    int writeQuorum,
    Duration slowShardTimeout,
    Duration stallGrace,
    long minPartBytes,
    Duration gcGrace,
    int inlineBytes,
    Duration settleTime,
    Clock clock,
    Keyring keys,
    Hedge hedge,
    LongSupplier ticker) {
  /**
   * Hedged reads: a read asks the k repositories expected fastest (by their recent median), and
   * once one of them has taken longer than its own recent {@code percentile} (at least {@code
   * minDelay}, at most {@code maxDelay}, and only after a peer has answered) asks one more. Any k
   * shards decode to the same bytes, and every piece is still checked by its CRC32C, so a hedge
   * changes what a read costs, never what it returns. With hedging off, or for a repository with
   * too few recent samples, a read asks the next repository when its peers say it is late (twice as
   * long as the first answer took, at least a quarter of the stall grace), as it always did.
   *
   * @param enabled whether reads hedge by each repository's own recent latency
   * @param percentile which percentile of a repository's recent latency counts as late (50 to 99.9)
   * @param minDelay the least a read waits before asking one more repository: below it, the extra
   *     request costs more than it saves (a local disk's scheduling hiccup)
   * @param maxDelay the most a read waits by this rule, however slow the repository's history
   */
  public record Hedge(boolean enabled, double percentile, Duration minDelay, Duration maxDelay) {
    /** On, at the 95th percentile, between 2 ms and 250 ms. */
    public static final Hedge DEFAULT =
        new Hedge(true, 95, Duration.ofMillis(2), Duration.ofMillis(250));

    /** Off: reads hedge only by their peers' answers. */
    public static final Hedge OFF =
        new Hedge(false, 95, Duration.ofMillis(2), Duration.ofMillis(250));

    /** Checks the values. */
    public Hedge {
      if (!(percentile >= 50 && percentile <= 99.9)) {
        throw new IllegalArgumentException(
            "hedge.percentile: " + percentile + " (expected: 50 to 99.9)");
      }
      Objects.requireNonNull(minDelay, "minDelay");
      Objects.requireNonNull(maxDelay, "maxDelay");
      if (minDelay.isNegative() || maxDelay.compareTo(minDelay) < 0) {
        throw new IllegalArgumentException(
            "hedge.maxDelay: "
                + maxDelay
                + " (expected: >= hedge.minDelay "
                + minDelay
                + ", which is >= 0)");
      }
    }
  }

  // One instance, so that two configs built with the default ticker are equal.
  private static final LongSupplier SYSTEM_TICKER = System::nanoTime;

  /** Checks the values. */
  public StoreConfig {
    Objects.requireNonNull(geometry, "geometry");
    if (blockBytes < geometry.dataShards()) {
      throw new IllegalArgumentException(
          "blockBytes: " + blockBytes + " (expected: >= " + geometry.dataShards() + ")");
    }
    if (writeQuorum < geometry.dataShards() || writeQuorum > geometry.totalShards()) {
      throw new IllegalArgumentException(
          "writeQuorum: "
              + writeQuorum
              + " (expected: "
              + geometry.dataShards()
              + " to "
              + geometry.totalShards()
              + ")");
    }
    Objects.requireNonNull(slowShardTimeout, "slowShardTimeout");
    Objects.requireNonNull(stallGrace, "stallGrace");
    if (stallGrace.isNegative() || stallGrace.isZero()) {
      throw new IllegalArgumentException("stallGrace: " + stallGrace + " (expected: > 0)");
    }
    Objects.requireNonNull(gcGrace, "gcGrace");
    Objects.requireNonNull(settleTime, "settleTime");
    if (settleTime.isNegative()) {
      throw new IllegalArgumentException("settleTime: " + settleTime + " (expected: >= 0)");
    }
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(hedge, "hedge");
    Objects.requireNonNull(ticker, "ticker");
    if (inlineBytes < 0) {
      throw new IllegalArgumentException("inlineBytes: " + inlineBytes + " (expected: >= 0)");
    }
    // An inline object is one stripe at most: the setting means no more than that.
    inlineBytes = Math.min(inlineBytes, blockBytes);
  }

  /** Whether an object of {@code lengthBytes} is stored in its records. */
  public boolean inlines(long lengthBytes) {
    return inlineBytes > 0 && lengthBytes >= 0 && lengthBytes <= inlineBytes;
  }

  /** Bytes per shard piece of a full stripe. */
  public int pieceBytes() {
    return (blockBytes + geometry.dataShards() - 1) / geometry.dataShards();
  }

  /** A builder with the defaults. */
  public static Builder builder(Geometry geometry) {
    return new Builder(geometry);
  }

  /** Builds a {@link StoreConfig}. */
  public static final class Builder {
    private final Geometry geometry;
    private int blockBytes = 1 << 20;
    private int writeQuorum;
    private Duration slowShardTimeout = Duration.ofSeconds(30);
    private Duration stallGrace = Duration.ofSeconds(1);
    private long minPartBytes = 5L << 20;
    private Duration gcGrace = Duration.ofHours(1);
    private int inlineBytes = 128 << 10;
    private Duration settleTime;
    private Clock clock = Clock.systemUTC();
    private Keyring keys;
    private Hedge hedge = Hedge.DEFAULT;
    private LongSupplier ticker = SYSTEM_TICKER;

    private Builder(Geometry geometry) {
      this.geometry = Objects.requireNonNull(geometry, "geometry");
      this.writeQuorum = Math.max(geometry.dataShards(), geometry.parityShards() + 1);
    }

    /** Data bytes per stripe. */
    public Builder blockBytes(int blockBytes) {
      this.blockBytes = blockBytes;
      return this;
    }

    /** Repositories that must hold a version before it counts. */
    public Builder writeQuorum(int writeQuorum) {
      this.writeQuorum = writeQuorum;
      return this;
    }

    /** How long a repository may make no progress before it counts as failed. */
    public Builder slowShardTimeout(Duration timeout) {
      this.slowShardTimeout = timeout;
      return this;
    }

    /** How long a repository may lag behind its peers before it counts as stalled. */
    public Builder stallGrace(Duration grace) {
      this.stallGrace = grace;
      return this;
    }

    /** The smallest multipart part other than the last. */
    public Builder minPartBytes(long bytes) {
      this.minPartBytes = bytes;
      return this;
    }

    /** How old a leftover must be before heal collects it. */
    public Builder gcGrace(Duration grace) {
      this.gcGrace = grace;
      return this;
    }

    /** Objects up to this size live in their records; 0 turns inlining off. */
    public Builder inlineBytes(int bytes) {
      this.inlineBytes = bytes;
      return this;
    }

    /**
     * How long a superseded version stays after its successor committed; by default twice the
     * slow-shard timeout.
     */
    public Builder settleTime(Duration settleTime) {
      this.settleTime = settleTime;
      return this;
    }

    /** The master keys for SSE-S3; none by default. */
    public Builder keys(Keyring keys) {
      this.keys = keys;
      return this;
    }

    /** When reads ask one more repository than they need; {@link Hedge#DEFAULT} by default. */
    public Builder hedge(Hedge hedge) {
      this.hedge = hedge;
      return this;
    }

    /** The wall clock version ids start from. */
    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /** The monotonic nanoseconds the caches of bucket state age by; {@link System#nanoTime}. */
    public Builder ticker(LongSupplier ticker) {
      this.ticker = ticker;
      return this;
    }

    /** The config. */
    public StoreConfig build() {
      return new StoreConfig(
          geometry,
          blockBytes,
          writeQuorum,
          slowShardTimeout,
          stallGrace,
          minPartBytes,
          gcGrace,
          inlineBytes,
          settleTime != null ? settleTime : slowShardTimeout.multipliedBy(2),
          clock,
          keys,
          hedge,
          ticker);
    }
  }
}
