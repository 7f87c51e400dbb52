package io.racs.proxy.store.stripe;

import io.racs.proxy.store.array.LatencyEstimates;
import java.util.List;

/**
 * The order in which a read asks for a part's shards: what {@link PartReader} opens first, and what
 * a cold GET's {@link ShardGuess} opens before the reader exists, so that the reader finds its
 * first choice already asked for.
 */
public final class ReadOrder {
  private ReadOrder() {}

  /**
   * Sorts shard indexes into the order a read asks for them: shard order (data before parity), or
   * with hedging on, the order of their repositories' recent median latency, where a parity shard
   * counts as slower by the minimum hedge delay and a quarter (reading it means decoding).
   */
  public static void sort(
      List<Integer> shards,
      List<Integer> slots,
      int k,
      LatencyEstimates latencies,
      LatencyEstimates.Kind kind) {
    if (latencies.enabled()) {
      long[] cost = new long[slots.size()];
      for (int i : shards) {
        long expected = latencies.expectedNanos(slots.get(i), kind);
        cost[i] = i < k ? expected : expected + Math.max(latencies.minDelayNanos(), expected / 4);
      }
      shards.sort((a, b) -> Long.compare(cost[a], cost[b])); // stable: shard order on ties
    }
  }
}
