package io.racs.bench.object.run;

import io.racs.bench.object.workload.KeyDistribution;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.RangeSpec;
import io.racs.bench.object.workload.SizeSpec;
import io.racs.bench.stats.ArrivalSchedule.Arrivals;
import java.time.Duration;
import java.util.Objects;

/**
 * One measured case: what the clients do, how many there are, and how long an iteration lasts.
 * Immutable; the command line builds one per (operation or mix, size, clients) of a sweep.
 *
 * @param mix the operation or the exact mix
 * @param size object sizes
 * @param keys how operations pick keys
 * @param range which bytes GETs ask for
 * @param objects keys in the key space (objects prepared for GET, HEAD, LIST and mixes)
 * @param prefixes sub-prefixes the keys are spread over
 * @param prefix the prefix of every key of the run
 * @param clients concurrent clients
 * @param rateOpsPerSecond the open-loop rate over all clients, or 0 for closed loop
 * @param arrivals open-loop arrival spacing
 * @param duration one iteration's length (duration mode)
 * @param count operations per iteration over all clients (count mode), or 0 for duration mode
 * @param verify check every GET byte-exact
 * @param seed the run seed: content, sizes, keys, decks and arrivals derive from it
 * @param listMaxKeys the page size of LIST
 * @param prefixPerClient each client has its own key space of {@code objects} keys under {@code
 *     prefix c<i>/} ({@code --prefix-per-client}, as warp's default per-client prefix), so no
 *     client touches another's keys; false: every client picks from one shared key space
 */
public record Workload(
    Mix mix,
    SizeSpec size,
    KeyDistribution keys,
    RangeSpec range,
    int objects,
    int prefixes,
    String prefix,
    int clients,
    double rateOpsPerSecond,
    Arrivals arrivals,
    Duration duration,
    long count,
    boolean verify,
    long seed,
    int listMaxKeys,
    boolean prefixPerClient) {
  /** Checks the fields. */
  public Workload {
    Objects.requireNonNull(mix, "mix");
    Objects.requireNonNull(size, "size");
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(range, "range");
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(arrivals, "arrivals");
    Objects.requireNonNull(duration, "duration");
    if (objects < 1) {
      throw new IllegalArgumentException("objects: " + objects + " (expected: >= 1)");
    }
    if (clients < 1 || clients > 10_000) {
      throw new IllegalArgumentException("clients: " + clients + " (expected: 1 to 10000)");
    }
    if (rateOpsPerSecond < 0) {
      throw new IllegalArgumentException("rate: " + rateOpsPerSecond + " (expected: >= 0)");
    }
    if (count < 0 || (count > 0 && count < clients)) {
      throw new IllegalArgumentException(
          "count: " + count + " (expected: at least one operation per client, >= " + clients + ")");
    }
    if (count == 0 && (duration.isZero() || duration.isNegative())) {
      throw new IllegalArgumentException("duration: " + duration + " (expected: > 0)");
    }
    if (listMaxKeys < 1 || listMaxKeys > 1000) {
      throw new IllegalArgumentException("listMaxKeys: " + listMaxKeys + " (expected: 1 to 1000)");
    }
  }

  /** A workload whose clients share one key space. */
  public Workload(
      Mix mix,
      SizeSpec size,
      KeyDistribution keys,
      RangeSpec range,
      int objects,
      int prefixes,
      String prefix,
      int clients,
      double rateOpsPerSecond,
      Arrivals arrivals,
      Duration duration,
      long count,
      boolean verify,
      long seed,
      int listMaxKeys) {
    this(
        mix,
        size,
        keys,
        range,
        objects,
        prefixes,
        prefix,
        clients,
        rateOpsPerSecond,
        arrivals,
        duration,
        count,
        verify,
        seed,
        listMaxKeys,
        false);
  }

  /** True for an open-loop (fixed-rate) workload. */
  public boolean openLoop() {
    return rateOpsPerSecond > 0;
  }

  /** This workload with {@code clients} clients. */
  public Workload withClients(int clients) {
    return new Workload(
        mix,
        size,
        keys,
        range,
        objects,
        prefixes,
        prefix,
        clients,
        rateOpsPerSecond,
        arrivals,
        duration,
        count,
        verify,
        seed,
        listMaxKeys,
        prefixPerClient);
  }

  /** This workload with another size and key prefix. */
  public Workload withSize(SizeSpec size, String prefix) {
    return new Workload(
        mix,
        size,
        keys,
        range,
        objects,
        prefixes,
        prefix,
        clients,
        rateOpsPerSecond,
        arrivals,
        duration,
        count,
        verify,
        seed,
        listMaxKeys,
        prefixPerClient);
  }

  /** This workload with each client on its own key space ({@code true}) or all on one. */
  public Workload withPrefixPerClient(boolean prefixPerClient) {
    return new Workload(
        mix,
        size,
        keys,
        range,
        objects,
        prefixes,
        prefix,
        clients,
        rateOpsPerSecond,
        arrivals,
        duration,
        count,
        verify,
        seed,
        listMaxKeys,
        prefixPerClient);
  }
}
