package io.racs.proxy.store.array;

import io.racs.proxy.store.api.StoreConfig;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How long each repository of the array has recently taken to answer a read, by kind of read: what
 * hedged reads decide with. A read asks the repositories expected fastest ({@link #expectedNanos}),
 * and asks one more once a repository has not answered within its own recent percentile ({@link
 * #hedgeDelayNanos}), so a repository that is usually fast but now and then late costs the read a
 * little over its usual time instead of its worst.
 *
 * <p>Each repository and kind keeps a reservoir of its last {@value #SAMPLES} samples (first piece
 * of a shard, or a whole record): small enough to sort on every question, and recent enough to
 * follow a provider whose latency changes within seconds of traffic. Reads that were hedged around
 * are sampled too, with how long they had taken when they were given up, so that a repository that
 * is always hedged around does not look fast for lack of samples. A sample is forgotten {@link
 * #SAMPLE_LIFETIME_NANOS} after it was taken: a repository that reads stopped asking (its shards
 * read from parity while it was slow) would otherwise keep its old estimate for ever, and never be
 * asked again once it is fast. With too few samples left it has no estimate, so it is asked again
 * and measured anew.
 *
 * <p>Thread-safe; each reservoir synchronises itself.
 */
public final class LatencyEstimates {
  /** What was read: latencies of shard streams and of small records differ. */
  public enum Kind {
    /** The first piece of a shard (or of an inline shard inside a record). */
    SHARD,
    /** A whole version record. */
    RECORD
  }

  /** Samples kept per repository and kind. */
  public static final int SAMPLES = 64;

  /** Below this many samples a repository has no estimate: reads fall back to their peers. */
  public static final int MIN_SAMPLES = 8;

  /** How long a sample counts: ten seconds. */
  static final long SAMPLE_LIFETIME_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final StoreConfig.Hedge config;
  private final Reservoir[][] reservoirs;
  private final LongSupplier ticker;

  /**
   * @param ticker the monotonic time in nanoseconds, by which samples age
   */
  LatencyEstimates(int slots, StoreConfig.Hedge config, LongSupplier ticker) {
    this.config = config;
    this.ticker = ticker;
    this.reservoirs = new Reservoir[slots][Kind.values().length];
    for (Reservoir[] bySlot : reservoirs) {
      for (int kind = 0; kind < bySlot.length; kind++) {
        bySlot[kind] = new Reservoir();
      }
    }
  }

  /** Whether reads hedge by these estimates at all. */
  public boolean enabled() {
    return config.enabled();
  }

  /** The smallest hedge delay: below it, asking another repository costs more than it saves. */
  public long minDelayNanos() {
    return config.minDelay().toNanos();
  }

  /** Records that {@code slot} took {@code nanos} to answer a read of {@code kind}. */
  public void record(int slot, Kind kind, long nanos) {
    reservoirs[slot][kind.ordinal()].add(Math.max(0, nanos), ticker.getAsLong());
  }

  /**
   * How long to wait for {@code slot} before asking another repository too: its recent configured
   * percentile, at least the minimum delay and at most the maximum; {@link Long#MAX_VALUE} while it
   * has fewer than {@value #MIN_SAMPLES} samples or hedging is off (the read then hedges by its
   * peers alone, as it did before).
   */
  public long hedgeDelayNanos(int slot, Kind kind) {
    if (!config.enabled()) {
      return Long.MAX_VALUE;
    }
    long p = reservoirs[slot][kind.ordinal()].percentile(config.percentile(), ticker.getAsLong());
    if (p < 0) {
      return Long.MAX_VALUE;
    }
    return Math.min(config.maxDelay().toNanos(), Math.max(config.minDelay().toNanos(), p));
  }

  /** The repository's recent median for {@code kind}, or 0 while it has too few samples. */
  public long expectedNanos(int slot, Kind kind) {
    long p = reservoirs[slot][kind.ordinal()].percentile(50, ticker.getAsLong());
    return p < 0 ? 0 : p;
  }

  /** A ring of the last samples, with when each was taken. */
  private static final class Reservoir {
    private final long[] samples = new long[SAMPLES];
    private final long[] takenAt = new long[SAMPLES];
    private int count;
    private int next;

    synchronized void add(long nanos, long now) {
      samples[next] = nanos;
      takenAt[next] = now;
      next = (next + 1) % SAMPLES;
      count = Math.min(SAMPLES, count + 1);
    }

    /**
     * The {@code percentile}th percentile (nearest rank) of the samples still within their lifetime
     * at {@code now}, or -1 with too few.
     */
    synchronized long percentile(double percentile, long now) {
      long[] recent = new long[count];
      int live = 0;
      for (int i = 0; i < count; i++) {
        if (now - takenAt[i] <= SAMPLE_LIFETIME_NANOS) {
          recent[live++] = samples[i];
        }
      }
      if (live < MIN_SAMPLES) {
        return -1;
      }
      Arrays.sort(recent, 0, live);
      int rank = (int) Math.ceil(percentile / 100 * live);
      return recent[Math.min(live, Math.max(1, rank)) - 1];
    }
  }
}
