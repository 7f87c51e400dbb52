package io.racs.proxy.store.stripe;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.api.StoreStats;
import io.racs.proxy.store.array.LatencyEstimates;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.PartMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Loads the stripes of one part from its shards, one after another: the one stripe reader, which a
 * GET ({@link PartReader}) and heal's rebuild ({@link ShardRebuilder}) share, each with its {@link
 * StripePolicy}. It reads k shards; a shard whose piece fails, fails its CRC32C (under a GET's
 * policy only that stripe's piece is lost) or does not arrive within the slow-shard timeout is
 * dropped for the rest of the load and another shard takes its place, so only the stripes that need
 * it are reconstructed. Each open shard streams on its own virtual thread a couple of pieces ahead
 * ({@link ShardSource}), so a slow repository does not stall the load while k others answer.
 *
 * <p>Loads are hedged ({@link StoreConfig.Hedge}): the k shards asked first are those whose
 * repositories are expected fastest ({@link LatencyEstimates}; data shards unless a parity shard's
 * repository is clearly faster, since reading parity costs a decode), and a shard whose repository
 * has not sent its first piece within its own recent percentile, once a peer has sent one, is
 * covered by asking one more shard; whichever k arrive first make the stripe, and the loser is
 * closed. Any k shards decode to the same bytes and each piece is checked by its CRC32C, so which k
 * are used changes the cost of a load, never its bytes.
 *
 * <p>Not thread-safe: one thread loads, as one thread reads a GET's body.
 */
final class StripeLoader {
  // Why a shard a hedge went around is not read for the rest of the read (unless it is needed).
  private static final String SLOWER_THAN_PARITY = "slower than parity";
  // Why a shard the policy excludes is never opened; not a problem to report.
  private static final String EXCLUDED = "excluded";

  private final RepositoryArray array;
  private final LatencyEstimates latencies;
  private final ErasureCodec codec;
  private final PartMeta part;
  private final StripePolicy policy;
  private StoreStats stats;
  private boolean tentative;

  private final long timeoutNanos;
  private final int k;
  private final int n;
  private final long lastStripe;
  private final ShardSource[] sources;
  // Released whenever a source delivers a piece: what a stripe waits on.
  private final Semaphore arrivals = new Semaphore(0);
  private final String[] bad;
  // When each source was opened (System.nanoTime()), for its stall deadline.
  private final long[] openedAt;
  private final String[] lastProblem;
  private final boolean[] damaged;
  // This stripe's pieces; a piece that arrived is used where the source left it (no copy), so
  // the stripe's data is read straight out of the k data pieces.
  private final byte[][] pieces;
  private long stripe;
  private boolean warned;
  private long bytesRead;
  private String inlineRecord;
  private ShardGuess guess;

  /** A loader of the stripes of {@code part} up to {@code lastStripe}, for {@code policy}. */
  StripeLoader(
      RepositoryArray array,
      ErasureCodec codec,
      StoreConfig config,
      StoreStats stats,
      PartMeta part,
      long lastStripe,
      StripePolicy policy) {
    this.array = array;
    this.latencies = array.latencies();
    this.codec = codec;
    this.part = part;
    this.stats = stats;
    this.policy = policy;
    this.timeoutNanos = config.slowShardTimeout().toNanos();
    this.k = codec.geometry().dataShards();
    this.n = codec.geometry().totalShards();
    this.lastStripe = lastStripe;
    this.sources = new ShardSource[n];
    this.bad = new String[n];
    this.openedAt = new long[n];
    this.lastProblem = new String[n];
    this.damaged = new boolean[n];
    this.pieces = new byte[n][];
    for (int i : policy.excluded()) {
      bad[i] = EXCLUDED;
    }
  }

  /** See {@link PartReader#tentative}: own statistics and no warning until {@link #confirm}. */
  void tentative() {
    tentative = true;
    stats = new StoreStats();
  }

  /** See {@link PartReader#confirm}. */
  void confirm(StoreStats real) {
    real.degradedStripes.add(stats.degradedStripes.sum());
    real.slowShardStripes.add(stats.slowShardStripes.sum());
    real.corruptPieces.add(stats.corruptPieces.sum());
    real.unavailablePieces.add(stats.unavailablePieces.sum());
    real.hedgedShardReads.add(stats.hedgedShardReads.sum());
    boolean degraded = stats.degradedStripes.sum() > 0;
    stats = real;
    tentative = false;
    if (degraded && !warned && !policy.quiet() && !onlySlow()) {
      warned = true;
      RepairedReadWarning.warn(part.dataId(), describeBad());
    }
  }

  /** Shard i is inside the record {@code name} on its slot. */
  void inlineIn(String name) {
    inlineRecord = name;
  }

  /** Takes the shard reads {@code guess} opened, for a load of the whole part. */
  void preopened(ShardGuess guess) {
    this.guess = guess;
  }

  /** What the first piece of a shard of this read is, for the latency estimates. */
  private LatencyEstimates.Kind kind() {
    return inlineRecord != null ? LatencyEstimates.Kind.RECORD : LatencyEstimates.Kind.SHARD;
  }

  /** The current stripe's pieces by shard index, each framed (its bytes, then room for a CRC). */
  byte[][] pieces() {
    return pieces;
  }

  /**
   * Loads stripe {@code stripe} (stripes are loaded in order, from the first one given at
   * construction): k of its pieces are read, and the data shards missing among them (and, for a
   * rebuild, the {@link StripePolicy#rebuilt} shards) reconstructed into fresh arrays, so that
   * {@link #pieces} holds them framed to {@link PieceCodec#framedLength}; no array handed out for
   * an earlier stripe is written again. Fails with {@code INSUFFICIENT_SHARDS} when fewer than k
   * shards can be read.
   *
   * @return whether data shards had to be reconstructed (the stripe was degraded)
   */
  boolean load(long stripe) {
    this.stripe = stripe;
    int pieceLength = part.pieceBytes(k, stripe);
    boolean[] present = new boolean[n];
    boolean[] settled = new boolean[n]; // this stripe's piece taken (present or not)
    int have = 0;
    long start = System.nanoTime();
    long firstArrival = -1;
    boolean hedged = false;
    try {
      while (true) {
        for (int i = 0; i < n; i++) {
          if (sources[i] != null && bad[i] == null && !settled[i]) {
            ShardSource.Piece piece = sources[i].next(stripe);
            if (piece != null) {
              settled[i] = true;
              if (accept(i, piece)) {
                present[i] = true;
                have++;
                firstArrival = firstArrival < 0 ? System.nanoTime() : firstArrival;
              }
            }
          }
        }
        if (have >= k) {
          // Every open shard yields one piece per stripe: take the others' too (counting what is
          // corrupt in them), but wait for them only until the hedge point.
          boolean others = false;
          for (int i = 0; i < n; i++) {
            others |= sources[i] != null && bad[i] == null && !settled[i];
          }
          long now = System.nanoTime();
          long keepStepUntil =
              firstArrival + Math.max(array.stallNanos() / 4, 2 * (firstArrival - start));
          // A stripe that hedged has its k: the shards it hedged around are the losers.
          if (!others || hedged || now - keepStepUntil >= 0) {
            break;
          }
          arrivals.tryAcquire(keepStepUntil - now, TimeUnit.NANOSECONDS);
          arrivals.drainPermits();
          continue;
        }
        int pending = 0;
        int openable = 0;
        for (int i = 0; i < n; i++) {
          if (bad[i] == null && sources[i] != null && !settled[i]) {
            pending++;
          } else if (bad[i] == null && sources[i] == null) {
            openable++;
          }
        }
        if (have + pending + openable < k && revivable() > 0) {
          // Shards dropped for being slower than parity in an earlier stripe were only late: ask
          // them again rather than fail a read their repositories can still serve.
          for (int i = 0; i < n; i++) {
            if (SLOWER_THAN_PARITY.equals(bad[i])) {
              bad[i] = null;
              sources[i] = null; // the old source's watch closes it
            }
          }
          continue;
        }
        if (have + pending + openable < k) {
          // Said as the shards that could still be read: a load that fails before asking the ones
          // left (too few are usable) has read none, which is not why it fails.
          fail(present, have + pending + openable);
        }
        if (have + pending < k) {
          openSources(k - have - pending);
          continue;
        }
        long now = System.nanoTime();
        long stripeStallAt =
            firstArrival < 0 ? start + timeoutNanos : array.stallDeadline(start, firstArrival);
        // A source opened during this stripe (in place of one that failed or stalled) gets the
        // same allowance from its own opening, not the deadline of the ones opened before it.
        long stallAt = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
          if (bad[i] == null && sources[i] != null && !settled[i]) {
            long own = ownStallDeadline(i, start, stripeStallAt);
            stallAt = stallAt == Long.MAX_VALUE || own - stallAt < 0 ? own : stallAt;
          }
        }
        if (now - stallAt >= 0) {
          for (int i = 0; i < n; i++) {
            if (bad[i] == null
                && sources[i] != null
                && !settled[i]
                && now - ownStallDeadline(i, start, stripeStallAt) >= 0) {
              String why =
                  firstArrival < 0
                      ? "no data within " + timeoutNanos / 1_000_000 + " ms"
                      : "stalled: no data "
                          + (now - start) / 1_000_000
                          + " ms in, while others sent";
              sources[i].sample(now - openedAt[i]);
              markBad(i, why);
              array.health().stalled(part.slots().get(i), why);
            }
          }
          continue;
        }
        // A shard is late past the peers' hedge point (twice as long as the first piece took, at
        // least a quarter of the stall grace), or, if its repository has a recent estimate, past
        // its own percentile of it (once a peer has answered, and at least the minimum delay after
        // that: when the whole process was descheduled every shard looks late, and none is). For
        // every late shard one more is asked for, until the shards still on time and the new ones
        // are enough: whichever of them and the late ones arrive first complete the stripe.
        // (Asking for one only, with two late at the peers' hedge point, left the second
        // replacement to be asked at the stall deadline, and waited for again from there if it was
        // late too.)
        long hedgeAt =
            firstArrival < 0
                ? Long.MAX_VALUE
                : firstArrival + Math.max(array.stallNanos() / 4, 2 * (firstArrival - start));
        long nextHedgeAt = Long.MAX_VALUE;
        int onTime = 0;
        for (int i = 0; i < n; i++) {
          if (bad[i] != null || sources[i] == null || settled[i]) {
            continue;
          }
          long lateAt = lateAt(i, start, firstArrival, hedgeAt);
          if (lateAt == Long.MAX_VALUE || now - lateAt < 0) {
            onTime++;
            nextHedgeAt = lateAt - nextHedgeAt < 0 ? lateAt : nextHedgeAt;
          }
        }
        int wanted = Math.min(openable, k - have - onTime);
        if (wanted > 0) {
          hedged = true;
          stats.hedgedShardReads.add(openSources(wanted));
          continue;
        }
        long until = openable > 0 && nextHedgeAt - stallAt < 0 ? nextHedgeAt : stallAt;
        arrivals.tryAcquire(Math.max(0, until - now), TimeUnit.NANOSECONDS);
        arrivals.drainPermits();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "interrupted", e);
    }
    if (hedged) {
      // The ones parity had to stand in for are dropped for the rest of the read, so that later
      // stripes do not wait for them again; one that still sends nothing by the stall deadline is
      // suspended, so that later reads do not wait for it either.
      long stallAt = array.stallDeadline(start, firstArrival);
      for (int i = 0; i < n; i++) {
        if (bad[i] == null && sources[i] != null && !settled[i]) {
          stats.unavailablePieces.increment();
          bad[i] = SLOWER_THAN_PARITY;
          lastProblem[i] = bad[i];
          sources[i].watchThenClose(part.slots().get(i), start, stallAt, stripe);
        }
      }
    }
    boolean degraded = false;
    for (int i = 0; i < k; i++) {
      degraded |= !present[i];
    }
    boolean parityToo = false;
    for (int i : policy.rebuilt()) {
      parityToo |= i >= k;
    }
    if (degraded || parityToo) {
      for (int i = 0; i < n; i++) {
        if (!present[i]) {
          // Never into an array handed out by nextChunk for an earlier stripe.
          pieces[i] = new byte[PieceCodec.framedLength(pieceLength)];
        }
      }
      if (parityToo) {
        codec.reconstruct(pieces, present, 0, pieceLength);
      } else {
        codec.reconstructData(pieces, present, 0, pieceLength);
      }
    }
    if (degraded) {
      stats.degradedStripes.increment();
      boolean onlySlow = onlySlow();
      if (onlySlow) {
        stats.slowShardStripes.increment();
      }
      if (!warned && !tentative && !policy.quiet() && !onlySlow) {
        warned = true;
        RepairedReadWarning.warn(part.dataId(), describeBad());
      }
    }
    bytesRead += have * (long) PieceCodec.framedLength(pieceLength);
    if (policy.throttle() != null) {
      policy.throttle().consume(have * (long) pieceLength);
    }
    return degraded;
  }

  /**
   * Whether every shard this read did without was only slower than parity: a hedge around a busy
   * repository, which is no repair and worth no warning (a missing, corrupt, failed or suspended
   * shard is).
   */
  private boolean onlySlow() {
    boolean slow = false;
    for (int i = 0; i < n; i++) {
      if (lastProblem[i] != null && !SLOWER_THAN_PARITY.equals(lastProblem[i])) {
        return false;
      }
      slow |= lastProblem[i] != null;
    }
    return slow;
  }

  private String describeBad() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (lastProblem[i] != null) {
        b.append("shard ").append(i).append(": ").append(lastProblem[i]).append("; ");
      }
    }
    return b.toString();
  }

  /**
   * Takes shard {@code i}'s piece of the current stripe. A corrupt piece only costs this stripe
   * (the shard keeps streaming and its next pieces are used), unless the policy makes it fail the
   * shard. A failed shard is dropped for the rest of the read.
   */
  private boolean accept(int i, ShardSource.Piece piece) {
    if (piece.failure() == null) {
      pieces[i] = piece.bytes(); // pieceLength bytes and the CRC: the source made it for us
      return true;
    }
    if (piece.corrupt()) {
      stats.corruptPieces.increment();
      if (policy.corruptPiece() == StripePolicy.CorruptPiece.SKIPS_PIECE) {
        lastProblem[i] = piece.failure();
        return false;
      }
    }
    markBad(i, piece.failure());
    damaged[i] = true; // its own bytes failed, not its repository's pace
    return false;
  }

  /** Drops shard {@code i} for the rest of the read. */
  private void markBad(int i, String why) {
    stats.unavailablePieces.increment();
    bad[i] = why;
    lastProblem[i] = why;
    sources[i].close();
  }

  /**
   * When source {@code i}, still out in a stripe that began at {@code start}, counts as late (see
   * the loop in {@link #load}): at the peers' hedge point {@code hedgeAt} if it was opened before
   * it, or at its repository's own hedge delay from its opening if it was opened in this stripe (or
   * from the stripe's start, if a guess opened it for the first stripe) and its repository has an
   * estimate, but never less than the minimum delay after the first piece of the stripe arrived;
   * {@link Long#MAX_VALUE} when neither applies yet.
   */
  private long lateAt(int i, long start, long firstArrival, long hedgeAt) {
    if (firstArrival < 0) {
      return Long.MAX_VALUE;
    }
    long late = openedAt[i] - hedgeAt < 0 ? hedgeAt : Long.MAX_VALUE;
    long delay = latencies.hedgeDelayNanos(part.slots().get(i), kind());
    // A read a cold GET's guess asked for before this reader existed (ShardGuess) is asked for this
    // first stripe too, and is late past its repository's own delay as well: counted from the
    // stripe's start, as a read this reader asked for then would be, not from when the guess asked
    // (a stream that came while the record was read waited for this reader, not its repository).
    boolean askedForThisStripe = openedAt[i] - start >= 0 || (sources[i].guessed() && stripe == 0);
    if (delay != Long.MAX_VALUE && askedForThisStripe) {
      long asked = openedAt[i] - start >= 0 ? openedAt[i] : start;
      long own = Math.max(asked + delay, firstArrival + latencies.minDelayNanos());
      late = late == Long.MAX_VALUE || own - late < 0 ? own : late;
    }
    return late;
  }

  /**
   * When a source still out counts as stalled in a stripe that began at {@code start}, whose
   * sources opened before it count as stalled at {@code stripeStallAt}: a source opened later gets
   * as long from its own opening.
   */
  private long ownStallDeadline(int i, long start, long stripeStallAt) {
    long opened = openedAt[i];
    return opened - start <= 0 ? stripeStallAt : opened + (stripeStallAt - start);
  }

  /** The shards dropped by a hedge (not failed) which may be asked again. */
  private int revivable() {
    int count = 0;
    for (int i = 0; i < n; i++) {
      count += SLOWER_THAN_PARITY.equals(bad[i]) ? 1 : 0;
    }
    return count;
  }

  /**
   * Opens up to {@code count} more shards from the current stripe and says how many it opened; a
   * shard on a suspended repository is passed over as bad. Shards are taken in {@link ReadOrder}: a
   * parity shard stands in for a data shard only when its repository is clearly faster.
   */
  private int openSources(int count) {
    List<Integer> candidates = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (sources[i] == null && bad[i] == null) {
        candidates.add(i); // an excluded shard is bad from the start
      }
    }
    ReadOrder.sort(candidates, part.slots(), k, latencies, kind());
    int opened = 0;
    for (int i : candidates) {
      if (opened == count) {
        break;
      }
      int slot = part.slots().get(i);
      String unusable = array.health().unusable(slot);
      if (unusable != null) {
        bad[i] = unusable;
        lastProblem[i] = bad[i];
        continue;
      }
      sources[i] =
          new ShardSource(
              new ShardSource.Read(
                  array, part, k, lastStripe, inlineRecord, guess, kind(), arrivals),
              i,
              stripe,
              System.nanoTime());
      openedAt[i] = sources[i].openedNanos;
      opened++;
    }
    return opened;
  }

  private void fail(boolean[] present, int readable) {
    List<StoreException.ShardFailure> failures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (!present[i] && lastProblem[i] != null) {
        int slot = part.slots().get(i);
        failures.add(
            new StoreException.ShardFailure(slot, array.slot(slot).name(), lastProblem[i]));
      }
    }
    close();
    throw new StoreException(
        StoreException.Code.INSUFFICIENT_SHARDS,
        "only "
            + readable
            + " of "
            + n
            + " shards readable for stripe "
            + stripe
            + " of "
            + part.dataId()
            + " (need "
            + k
            + ")",
        failures,
        null);
  }

  /**
   * The shards whose own reads failed during this load (a corrupt piece, under a policy where that
   * fails the shard, a shard that ended early or a read that failed): those a rebuild must rebuild
   * too. Shards only slow, stalled or suspended are not among them.
   */
  Set<Integer> damaged() {
    Set<Integer> out = new TreeSet<>();
    for (int i = 0; i < n; i++) {
      if (damaged[i]) {
        out.add(i);
      }
    }
    return out;
  }

  /** The framed bytes of the pieces read so far (reconstructed ones not counted). */
  long bytesRead() {
    return bytesRead;
  }

  /**
   * Closes the sources, but for those a hedge left to their watch ({@link
   * ShardSource#watchThenClose}): they close themselves once they answer or stall. Closing one
   * here, when a short read ends a moment after its hedge, kept it from ever answering, and its
   * watch suspended a repository that was only late.
   */
  void close() {
    for (ShardSource source : sources) {
      if (source != null && !source.watched) {
        source.close();
      }
    }
  }
}
