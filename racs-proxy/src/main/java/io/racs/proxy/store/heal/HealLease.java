package io.racs.proxy.store.heal;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.format.Layout;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lease kept in the repositories themselves, so that proxies over one array without ZooKeeper
 * never run two background scrubs at once (issue #19). It replaces the ZooKeeper leader for that
 * one purpose; the data path never looks at it.
 *
 * <p><b>Records.</b> A proxy that wants the lease writes a lease record {@code
 * racs/lease/<token>-<renewedMillis>-<ttlMillis>-<n>} on a write quorum ({@link QuorumWriter}),
 * where the token is random per lease object and {@code n} counts its records (so no name is ever
 * written twice: a straggling delete of an earlier record, which the quorum writer does not wait
 * for, can never remove a later one), then lists the lease records on a read quorum. It holds the
 * lease only when that listing shows no unexpired record of anyone else; otherwise it deletes its
 * record and tries again later. A holder renews every {@code ttl/3} by writing a new record (same
 * token, new time) and deleting the one before the previous, so that a reader always meets at least
 * one of its records. A record expires {@code ttl} after the time in its name, judged by the
 * reader's clock; whoever lists an expired record deletes it everywhere, so what a crashed holder
 * left is cleaned up by the next candidate. (Not under {@code l/}, as first planned: that prefix
 * holds the buckets' lifecycle records, which heal copies everywhere.)
 *
 * <p><b>Why only one holds.</b> Of two candidates that each wrote and then listed, at least one
 * listing began after the other's write had reached a write quorum, and a read quorum meets every
 * write quorum: so at least one of the two sees the other and steps back (both may, and both retry;
 * this costs a scrub round, never safety). A holder's records stay on a write quorum for as long as
 * it holds, so every later candidate sees one. The order of the records' times plays no part, so a
 * clock that runs behind or ahead cannot make a newcomer "older" than the holder.
 *
 * <p><b>Clock skew.</b> Times in names come from the writer's clock, expiry from the reader's. With
 * clocks at most {@link #MAX_SKEW} off true time, a reader may judge a record expired when only
 * {@code ttl - 2 * MAX_SKEW} really passed since it was written. A holder therefore stops holding
 * ({@link #held()} turns false, and the scrub stops before its next object, like a ZooKeeper leader
 * that lost its latch) once {@code ttl/2} passed since its last successful renewal began, by its
 * own clock; {@code ttl} must be at least {@link #MIN_TTL} so that {@code ttl/2} stays well below
 * {@code ttl - 2 * MAX_SKEW}. A holder that missed that deadline has lost the lease and must take
 * it again as a candidate.
 *
 * <p>Thread-safe: {@link #tryAcquire}, {@link #renew} and {@link #release} run one at a time;
 * {@link #held()} never waits for them.
 */
public final class HealLease {
  private static final Logger LOG = LoggerFactory.getLogger(HealLease.class);

  /** Where lease records live on every repository. */
  static final String PREFIX = "racs/lease/";

  /** The most a proxy's clock is assumed to be off true time. */
  public static final Duration MAX_SKEW = Duration.ofSeconds(30);

  /** The shortest ttl accepted: {@code ttl/2} must stay well below {@code ttl - 2 * MAX_SKEW}. */
  public static final Duration MIN_TTL = Duration.ofMinutes(3);

  /** The ttl proxies use unless told otherwise. */
  public static final Duration DEFAULT_TTL = Duration.ofMinutes(5);

  private static final SecureRandom RANDOM = new SecureRandom();

  /** A lease record's name, parsed. */
  private record Name(String token, long renewedMillis, long ttlMillis) {
    static Optional<Name> parse(String name) {
      if (!name.startsWith(PREFIX)) {
        return Optional.empty();
      }
      String[] parts = name.substring(PREFIX.length()).split("-", -1);
      if (parts.length != 4 || parts[0].isEmpty()) {
        return Optional.empty();
      }
      try {
        return Optional.of(new Name(parts[0], Long.parseLong(parts[1]), Long.parseLong(parts[2])));
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }

    boolean expiredAt(long nowMillis) {
      return nowMillis > renewedMillis + ttlMillis;
    }
  }

  /**
   * What a lease record holds, for operators who look into a repository; the decisions use its name
   * only.
   */
  record LeaseRecord(String proxyId, String token, long renewedMillis, long ttlMillis) {}

  private final StoreContext context;
  private final QuorumWriter writer;
  private final String proxyId;
  private final long ttlMillis;
  private final String token;
  private final Clock clock;
  private final Object turn = new Object();
  // The newest own record written while holding, and the one before it (kept until the next
  // renewal, so that a listing taken during a renewal meets at least one of them).
  private String current;
  private String previous;
  private volatile boolean holding;
  // The clock's time taken right before the newest own record was written.
  private volatile long renewedMillis;
  // Counts the records written, so that every name is new.
  private long written;

  private HealLease(Maintenance store, String proxyId, Duration ttl) {
    this.context = store.context();
    this.writer = new QuorumWriter(context, store.collector());
    this.proxyId = Objects.requireNonNull(proxyId, "proxyId");
    Objects.requireNonNull(ttl, "ttl");
    if (ttl.compareTo(MIN_TTL) < 0) {
      throw new IllegalArgumentException(
          "lease ttl: " + ttl + " (expected: at least " + MIN_TTL + ")");
    }
    this.ttlMillis = ttl.toMillis();
    byte[] bytes = new byte[8];
    RANDOM.nextBytes(bytes);
    this.token = HexFormat.of().formatHex(bytes);
    this.clock = context.config.clock();
  }

  /**
   * A lease over {@code store}'s repositories for the proxy {@code proxyId} (shown in its records),
   * expiring {@code ttl} after each renewal; not held until {@link #tryAcquire} says so.
   */
  public static HealLease create(Maintenance store, String proxyId, Duration ttl) {
    return new HealLease(store, proxyId, ttl);
  }

  /** How often a holder should call {@link #renew}: a third of the ttl. */
  public Duration renewEvery() {
    return Duration.ofMillis(ttlMillis / 3);
  }

  /**
   * Whether this proxy holds the lease now: it took it, and its last successful renewal began less
   * than {@code ttl/2} ago by its clock. Cheap; asked by the scrub before each object.
   */
  public boolean held() {
    return holding && clock.millis() - renewedMillis < ttlMillis / 2;
  }

  /**
   * Takes the lease if no other proxy has an unexpired record, and returns whether this proxy holds
   * it now (true at once if it already did). Deletes every expired record it lists. A failure to
   * write or to list on a quorum is a false, never an exception.
   */
  public boolean tryAcquire() {
    synchronized (turn) {
      if (held()) {
        return true;
      }
      dropOwn(); // lost by a missed renewal, or never held
      long now = clock.millis();
      String name = name(now);
      try {
        writer.write(name, record(now), "write lease record");
      } catch (StoreException e) {
        LOG.debug("lease: cannot write a record: {}", e.getMessage());
        // Some repositories may hold it: left there, it would keep the others out for a ttl.
        deleteQuietly(name);
        return false;
      }
      current = name;
      boolean alone;
      try {
        alone = othersUnexpired(clock.millis()) == 0;
      } catch (StoreException e) {
        LOG.debug("lease: cannot list the records: {}", e.getMessage());
        alone = false;
      }
      if (!alone) {
        dropOwn();
        return false;
      }
      renewedMillis = now;
      holding = true;
      return held(); // false if writing and listing took ttl/2 already
    }
  }

  /**
   * Renews the lease if this proxy holds it: writes a new record and deletes its record before the
   * previous one. Returns whether it holds the lease after that; once {@link #held()} turned false
   * the lease is lost, and only {@link #tryAcquire} takes it again.
   */
  public boolean renew() {
    synchronized (turn) {
      if (!holding) {
        return false;
      }
      if (!held()) {
        LOG.warn("lease: not renewed within {} ms: lost", ttlMillis / 2);
        dropOwn();
        return false;
      }
      long now = clock.millis();
      String name = name(now);
      try {
        writer.write(name, record(now), "renew lease record");
      } catch (StoreException e) {
        // Still held until ttl/2 has passed since the last renewal: the next attempt may succeed.
        LOG.debug("lease: cannot renew: {}", e.getMessage());
        deleteQuietly(name); // whatever part of it was written
        return held();
      }
      if (previous != null) {
        deleteQuietly(previous);
      }
      previous = current;
      current = name;
      renewedMillis = now;
      return held();
    }
  }

  /**
   * Who else holds the lease now, as its records name it ({@code proxyId}), judged as {@link
   * #tryAcquire} judges: an unexpired record of another candidacy on a read quorum's listing. Empty
   * when no other candidacy has one; "another proxy" when its record cannot be read. Read-only, for
   * the line that says why this one did not take it.
   */
  public Optional<String> holder() {
    IndexMerge merge = new IndexMerge(context.array, PREFIX, "", 1000);
    long now = clock.millis();
    Optional<String> found = Optional.empty();
    for (IndexMerge.Entry e = merge.next(); e != null && found.isEmpty(); e = merge.next()) {
      Optional<Name> parsed = Name.parse(e.name());
      if (parsed.isPresent()
          && !parsed.get().expiredAt(now)
          && !parsed.get().token().equals(token)) {
        found =
            Optional.of(
                context
                    .read(e, LeaseRecord.class)
                    .map(LeaseRecord::proxyId)
                    .orElse("another proxy"));
      }
    }
    return found;
  }

  /** Gives the lease up (deletes this proxy's records) if it holds it. */
  public void release() {
    synchronized (turn) {
      dropOwn();
    }
  }

  /** Not holding, and this proxy's records deleted (best effort: they expire anyway). */
  private void dropOwn() {
    holding = false;
    for (String name : new String[] {previous, current}) {
      if (name != null) {
        deleteQuietly(name);
      }
    }
    previous = null;
    current = null;
  }

  /**
   * Lists the lease records on a read quorum and counts the unexpired ones of other candidacies at
   * {@code nowMillis}; deletes the expired ones everywhere.
   */
  private int othersUnexpired(long nowMillis) {
    IndexMerge merge = new IndexMerge(context.array, PREFIX, "", 1000);
    List<String> expired = new ArrayList<>();
    int others = 0;
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      Optional<Name> parsed = Name.parse(e.name());
      if (parsed.isEmpty()) {
        continue; // not a lease record this code writes
      }
      if (parsed.get().expiredAt(nowMillis)) {
        expired.add(e.name());
      } else if (!parsed.get().token().equals(token)) {
        others++;
      }
    }
    context.requireReadQuorum(merge, "list lease records");
    for (String name : expired) {
      deleteQuietly(name);
    }
    return others;
  }

  private void deleteQuietly(String name) {
    try {
      writer.deleteEverywhere(name);
    } catch (RuntimeException e) {
      // It expires anyway, and the next candidate that lists it deletes it.
      LOG.debug("lease: cannot delete {}: {}", name, e.toString());
    }
  }

  private String name(long nowMillis) {
    return PREFIX
        + token
        + "-"
        + String.format(Locale.ROOT, "%015d", nowMillis)
        + "-"
        + ttlMillis
        + "-"
        + written++;
  }

  private byte[] record(long nowMillis) {
    return Layout.encode(new LeaseRecord(proxyId, token, nowMillis, ttlMillis));
  }

  /** The names of the lease records the repositories list now (for tests). */
  List<String> records() {
    IndexMerge merge = new IndexMerge(context.array, PREFIX, "", 1000);
    List<String> names = new ArrayList<>();
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      names.add(e.name());
    }
    return names;
  }

  @Override
  public String toString() {
    return "HealLease[" + proxyId + " " + token + (holding ? " holding" : "") + "]";
  }
}
