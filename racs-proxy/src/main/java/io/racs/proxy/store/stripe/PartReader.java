package io.racs.proxy.store.stripe;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.crypto.LendingInput;
import io.racs.proxy.store.api.ChunkedBody;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.api.StoreStats;
import io.racs.proxy.store.array.LatencyEstimates;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.PartMeta;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Reads bytes {@code [from, to)} of one part back from its shards, a stripe at a time. It reads the
 * k data shards when they are healthy; a shard whose piece fails, fails its CRC32C or does not
 * arrive within the slow-shard timeout is dropped for the rest of the read and a parity shard takes
 * its place, so only the stripes that need it are reconstructed. Each open shard streams on its own
 * virtual thread a couple of pieces ahead, so a slow repository does not stall the read while k
 * others answer.
 *
 * <p>Reads are hedged ({@link StoreConfig.Hedge}): the k shards asked first are those whose
 * repositories are expected fastest ({@link LatencyEstimates}; data shards unless a parity shard's
 * repository is clearly faster, since reading parity costs a decode), and a shard whose repository
 * has not sent its first piece within its own recent percentile, once a peer has sent one, is
 * covered by asking one more shard; whichever k arrive first make the stripe, and the loser is
 * closed. Any k shards decode to the same bytes and each piece is checked by its CRC32C, so which k
 * are used changes the cost of a read, never its bytes.
 */
public final class PartReader extends InputStream implements ChunkedBody, LendingInput {

  private final RepositoryArray array;
  private final LatencyEstimates latencies;
  private final ErasureCodec codec;
  private final PartMeta part;
  private StoreStats stats;
  private boolean tentative;
  // Why a shard a hedge went around is not read for the rest of the read (unless it is needed).
  private static final String SLOWER_THAN_PARITY = "slower than parity";

  private final long timeoutNanos;
  private final int k;
  private final int n;
  private final long stripeBytes;
  private final long from;
  private final long to;
  private final long lastStripe;
  private final ShardSource[] sources;
  // Released whenever a source delivers a piece: what a stripe waits on.
  private final Semaphore arrivals = new Semaphore(0);
  private final String[] bad;
  // When each source was opened (System.nanoTime()), for its stall deadline.
  private final long[] openedAt;
  private final String[] lastProblem;
  // This stripe's pieces; a piece that arrived is used where the source left it (no copy), so
  // the stripe's data is read straight out of the k data pieces.
  private final byte[][] pieces;
  private int pieceLength;
  private long stripe;
  private int dataStart;
  private int dataEnd;
  private boolean warned;
  private byte[] lentArray;
  private int lentOffset;
  private String inlineRecord;
  private ShardGuess guess;

  public PartReader(
      RepositoryArray array,
      ErasureCodec codec,
      StoreConfig config,
      StoreStats stats,
      PartMeta part,
      long from,
      long to) {
    this.array = array;
    this.latencies = array.latencies();
    this.codec = codec;
    this.part = part;
    this.stats = stats;
    this.timeoutNanos = config.slowShardTimeout().toNanos();
    this.k = codec.geometry().dataShards();
    this.n = codec.geometry().totalShards();
    this.stripeBytes = part.stripeBytes(k);
    this.from = from;
    this.to = to;
    this.stripe = from / stripeBytes;
    this.lastStripe = to > from ? (to - 1) / stripeBytes : stripe - 1;
    this.sources = new ShardSource[n];
    this.bad = new String[n];
    this.openedAt = new long[n];
    this.lastProblem = new String[n];
    this.pieces = new byte[n][];
  }

  /** How many bytes of the part this reader hands out: {@code to - from}. */
  public long lengthBytes() {
    return to - from;
  }

  /**
   * Makes this a read that may be thrown away (a GET that starts reading before it knows the
   * version is current): until {@link #confirm} it counts into its own statistics and warns of
   * nothing, so that dropped reads of collected versions do not show up as degraded reads.
   */
  public PartReader tentative() {
    tentative = true;
    stats = new StoreStats();
    return this;
  }

  /** Reads an inline part: shard i is inside the record {@code name} on slot {@code slots[i]}. */
  public PartReader inlineIn(String name) {
    inlineRecord = name;
    return this;
  }

  /** What the first piece of a shard of this read is, for the latency estimates. */
  private LatencyEstimates.Kind kind() {
    return inlineRecord != null ? LatencyEstimates.Kind.RECORD : LatencyEstimates.Kind.SHARD;
  }

  /** The read is kept: what it met so far counts, and warns, as any read's would. */
  public void confirm(StoreStats real) {
    real.degradedStripes.add(stats.degradedStripes.sum());
    real.corruptPieces.add(stats.corruptPieces.sum());
    real.unavailablePieces.add(stats.unavailablePieces.sum());
    real.hedgedShardReads.add(stats.hedgedShardReads.sum());
    boolean degraded = stats.degradedStripes.sum() > 0;
    stats = real;
    tentative = false;
    if (degraded && !warned) {
      warned = true;
      RepairedReadWarning.warn(part.dataId(), describeBad());
    }
  }

  /** Loads the first stripe, so that a read that cannot succeed fails before any byte is sent. */
  public PartReader open() {
    if (stripe <= lastStripe) {
      loadStripe();
    }
    return this;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int got = read(one, 0, 1);
    return got < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    int count = lend(len);
    if (count == 0) {
      return -1;
    }
    System.arraycopy(lentArray, lentOffset, b, off, count);
    return count;
  }

  /**
   * The next run of this stripe's data straight out of the piece that holds it: pieces are fresh
   * arrays for every stripe (made by the sources, or here for reconstructed ones), so the caller
   * may keep it.
   */
  @Override
  public Chunk nextChunk() {
    int count = lend(Integer.MAX_VALUE);
    return count == 0 ? null : new Chunk(lentArray, lentOffset, count);
  }

  /**
   * Lends the next run of this stripe's data where it lies, in its piece, which this reader never
   * writes again (as {@link #nextChunk}): a sealed chunk that lies whole in it is opened from
   * there.
   */
  @Override
  public int lend(int max) {
    if (max <= 0) {
      return 0;
    }
    while (dataStart == dataEnd) {
      if (stripe > lastStripe) {
        return 0;
      }
      loadStripe();
    }
    int piece = dataStart / pieceLength;
    int at = dataStart - piece * pieceLength;
    int count = Math.min(max, Math.min(dataEnd - dataStart, pieceLength - at));
    lentArray = pieces[piece];
    lentOffset = at;
    dataStart += count;
    return count;
  }

  @Override
  public byte[] lentArray() {
    return lentArray;
  }

  @Override
  public int lentOffset() {
    return lentOffset;
  }

  private void loadStripe() {
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
          fail(present, have);
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
    if (degraded) {
      for (int i = 0; i < n; i++) {
        if (!present[i]) {
          // Never into an array handed out by nextChunk for an earlier stripe.
          pieces[i] = new byte[PieceCodec.framedLength(pieceLength)];
        }
      }
      codec.reconstructData(pieces, present, 0, pieceLength);
      stats.degradedStripes.increment();
      if (!warned && !tentative) {
        warned = true;
        RepairedReadWarning.warn(part.dataId(), describeBad());
      }
    }
    long stripeStart = stripe * stripeBytes;
    int stripeLength = (int) Math.min(stripeBytes, part.sizeBytes() - stripeStart);
    this.pieceLength = pieceLength;
    dataStart = (int) Math.max(0, from - stripeStart);
    dataEnd = (int) Math.min(stripeLength, to - stripeStart);
    stripe++;
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
   * Takes shard {@code i}'s piece of the current stripe. A corrupt piece only costs this stripe:
   * the shard keeps streaming and its next pieces are used. A failed shard is dropped for the rest
   * of the read.
   */
  private boolean accept(int i, ShardSource.Piece piece) {
    if (piece.failure() == null) {
      pieces[i] = piece.bytes(); // pieceLength bytes and the CRC: the source made it for us
      return true;
    }
    if (piece.corrupt()) {
      stats.corruptPieces.increment();
      lastProblem[i] = piece.failure();
      return false;
    }
    markBad(i, piece.failure());
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
   * the loop in {@link #loadStripe}): at the peers' hedge point {@code hedgeAt} if it was opened
   * before it, or at its repository's own hedge delay from its opening if it was opened in this
   * stripe (or from the stripe's start, if a guess opened it for the first stripe) and its
   * repository has an estimate, but never less than the minimum delay after the first piece of the
   * stripe arrived; {@link Long#MAX_VALUE} when neither applies yet.
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
        candidates.add(i);
      }
    }
    ReadOrder.sort(candidates, part.slots(), k, latencies, kind());
    int opened = 0;
    for (int i : candidates) {
      if (opened == count) {
        break;
      }
      int slot = part.slots().get(i);
      if (!array.health().usable(slot)) {
        bad[i] = "suspended (" + array.health().suspension(slot) + ")";
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

  /**
   * Takes the shard reads a cold GET started before it had the version's record ({@link
   * ShardGuess}): a source of this read whose shard the guess opened uses that stream, if this
   * reader reads the whole part (the guess opened whole objects).
   */
  public PartReader preopened(ShardGuess guess) {
    if (from == 0 && to == part.sizeBytes()) {
      this.guess = guess;
    }
    return this;
  }

  private void fail(boolean[] present, int have) {
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
            + have
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
   * Closes the sources, but for those a hedge left to their watch ({@link
   * ShardSource#watchThenClose}): they close themselves once they answer or stall. Closing one
   * here, when a short read ends a moment after its hedge, kept it from ever answering, and its
   * watch suspended a repository that was only late.
   */
  @Override
  public void close() {
    for (ShardSource source : sources) {
      if (source != null && !source.watched) {
        source.close();
      }
    }
  }
}
