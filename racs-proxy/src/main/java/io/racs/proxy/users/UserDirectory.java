package io.racs.proxy.users;

import io.racs.proxy.s3.auth.CredentialStore;
import io.racs.proxy.s3.policy.Policy;
import io.racs.proxy.s3.policy.PolicyParser;
import io.racs.proxy.s3.policy.Principal;
import io.racs.proxy.s3.policy.Principals;
import io.racs.proxy.store.users.UserRecords;
import io.racs.proxy.store.users.UserRecords.UserRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who an access key belongs to, for every request: the configuration's keys are administrators
 * ({@link Principal#administrator()}) and win over a stored user of the same key; then the users
 * stored in the array ({@link UserRecords}), as the last re-read found them. A re-read is one
 * listing of the user records on every repository (the records themselves are read once each, as
 * they never change), and it runs in the background, on this directory's own thread, when:
 *
 * <ul>
 *   <li>a change is announced ({@link #changed}: with coordination, every change of a user made
 *       through any proxy or {@code racs users}, see {@link UserChanges}): at once, so a change is
 *       seen here within one listing of being written, and acknowledged once that re-read succeeded
 *       (the one who made the change waits for every proxy's acknowledgement);
 *   <li>a request names an access key this directory does not know ({@link #secretKey}): so that a
 *       user just added works within a second without coordination. The re-read is coalesced (the
 *       misses while one waits share it) and rate-limited to one every {@link
 *       #MISS_REREAD_INTERVAL}, so a flood of bad keys costs at most one listing per repository per
 *       interval. The request that missed is not held (it is checked on an event-loop thread, which
 *       must not wait): it is refused with {@code InvalidAccessKeyId}, and the key works from the
 *       re-read on;
 *   <li>every {@code refresh} (the periodic re-read, {@code server.usersRefresh}): the only way a
 *       removal or a policy change is seen without coordination, and with it the backstop for an
 *       announcement lost with the ZooKeeper session.
 * </ul>
 *
 * <p>Fails closed: a user whose secret does not open (sealed with a master key this proxy does not
 * hold) or one of whose policies no longer parses is left out, never served with less than its
 * policies say. When a re-read fails (fewer than a read quorum of repositories answer), the users
 * last read stay in force until one succeeds; the array then serves no data anyway.
 *
 * <p>Thread-safe; {@link #secretKey} and {@link #of} read one immutable map and never block (a miss
 * only schedules a re-read).
 */
public final class UserDirectory implements CredentialStore, Principals, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UserDirectory.class);

  /**
   * The least time between two re-reads for unknown keys: a new key waits at most this (plus one
   * listing) after its first request, and a flood of bad keys costs at most one listing per
   * repository this often.
   */
  public static final Duration MISS_REREAD_INTERVAL = Duration.ofSeconds(1);

  /** A stored user as requests see it. */
  private record Resolved(String secret, Principal principal) {}

  private final Map<String, String> administrators;
  private final Object refreshing = new Object();
  // Set once by attach, under refreshing.
  private UserRecords records;
  private StoredSecrets secrets;
  private volatile ScheduledExecutorService refresher;
  // The re-reads asked for and not started yet, one of each kind at most; under scheduling.
  private final Object scheduling = new Object();
  private boolean changePending;
  private boolean missPending;
  private long lastMissRereadNanos;
  private boolean missedBefore;
  // The announcements the re-read that waits will acknowledge; under scheduling.
  private final List<Runnable> acknowledgements = new ArrayList<>();
  private volatile boolean closed;
  private volatile Map<String, Resolved> byKey = Map.of();
  // The records behind byKey, resolved: a record unchanged since the last read is not resolved
  // again (its secret opened, its policies parsed).
  private Map<UserRecord, Optional<Resolved>> resolved = new HashMap<>();
  private volatile boolean failing;

  private UserDirectory(Map<String, String> administrators) {
    this.administrators = Map.copyOf(administrators);
  }

  /**
   * A directory of {@code administrators} (access key to secret) alone, until {@link #attach} gives
   * it the stored users: what a proxy serves while its array is not open yet.
   */
  public static UserDirectory of(Map<String, String> administrators) {
    return new UserDirectory(administrators);
  }

  /**
   * A directory of {@code administrators} and the users of {@code records}, as {@link #of} then
   * {@link #attach}.
   */
  public static UserDirectory start(
      Map<String, String> administrators,
      UserRecords records,
      StoredSecrets secrets,
      Duration refresh) {
    UserDirectory directory = of(administrators);
    directory.attach(records, secrets, refresh);
    return directory;
  }

  /**
   * Serves the users of {@code records} too, their secrets opened by {@code secrets}: read once now
   * (a failure is logged, and the administrators work meanwhile) and then in the background: every
   * {@code refresh} ({@link Duration#ZERO}: never periodically), on an unknown key and when {@link
   * #changed}. Called once; after {@link #close}, reads nothing.
   */
  public void attach(UserRecords records, StoredSecrets secrets, Duration refresh) {
    if (refresh.isNegative()) {
      throw new IllegalArgumentException("refresh: " + refresh + " (expected: >= 0)");
    }
    synchronized (refreshing) {
      if (this.records != null) {
        throw new IllegalStateException("users: attached already");
      }
      if (closed) {
        return;
      }
      this.records = records;
      this.secrets = secrets;
      refresher =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "racs-users");
                t.setDaemon(true);
                return t;
              });
    }
    refreshQuietly();
    ScheduledExecutorService r = refresher;
    if (!refresh.isZero()) {
      long millis = Math.max(1, refresh.toMillis());
      try {
        r.scheduleWithFixedDelay(this::refreshQuietly, millis, millis, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        return; // closed meanwhile
      }
    }
    if (closed) {
      r.shutdownNow(); // closed while attaching
    }
  }

  /**
   * Tells the directory that the stored users changed (an announcement, {@link UserChanges}): they
   * are re-read at once in the background; announcements that arrive while one waits share it.
   * Never blocks; before {@link #attach} and after {@link #close}, does nothing.
   */
  public void changed() {
    changed(() -> {});
  }

  /**
   * {@link #changed()}, running {@code acknowledge} once a re-read that began after this call has
   * succeeded (never if it fails: the announcer's wait ends at its bound). Before {@link #attach}
   * and after {@link #close} it acknowledges at once: the first read of an attach that follows sees
   * the change, and a closed directory serves nobody.
   */
  public void changed(Runnable acknowledge) {
    synchronized (scheduling) {
      if (refresher == null || closed) {
        acknowledge.run();
        return;
      }
      acknowledgements.add(acknowledge);
      if (changePending) {
        return; // the re-read that waits begins after this call, and acknowledges it
      }
      changePending = true;
    }
    rereadIn(
        0,
        () -> {
          changePending = false;
          List<Runnable> covered = List.copyOf(acknowledgements);
          acknowledgements.clear();
          return covered;
        });
  }

  /** An unknown key was asked for: a re-read, coalesced and at most one per interval. */
  private void missed() {
    long delayNanos;
    synchronized (scheduling) {
      if (missPending || refresher == null) {
        return;
      }
      long now = System.nanoTime();
      long next = lastMissRereadNanos + MISS_REREAD_INTERVAL.toNanos();
      delayNanos = !missedBefore || next - now <= 0 ? 0 : next - now;
      missPending = true;
      missedBefore = true;
      lastMissRereadNanos = now + delayNanos;
    }
    rereadIn(
        delayNanos,
        () -> {
          missPending = false;
          return List.of();
        });
  }

  /**
   * Re-reads on the background thread in {@code delayNanos}, first running {@code started} under
   * {@code scheduling} (so that what is asked for from then on asks for another re-read), and once
   * the re-read succeeded the acknowledgements {@code started} handed over; once closed, nothing.
   */
  private void rereadIn(long delayNanos, Supplier<List<Runnable>> started) {
    ScheduledExecutorService r = refresher;
    if (r == null || closed) {
      return;
    }
    try {
      r.schedule(
          () -> {
            List<Runnable> covered;
            synchronized (scheduling) {
              covered = started.get();
            }
            if (refreshQuietly()) {
              covered.forEach(Runnable::run);
            }
          },
          delayNanos,
          TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // Closed meanwhile: the users last read stay, as after close.
    }
  }

  /**
   * Reads the stored users now, on the caller's thread (what the background does), e.g. in a test.
   *
   * @throws io.racs.proxy.store.api.StoreException when fewer than a read quorum answered; the
   *     users last read stay
   */
  public void refresh() {
    synchronized (refreshing) {
      if (records == null || closed) {
        return; // nothing attached yet, or closed
      }
      Map<String, UserRecord> users = records.current();
      Map<UserRecord, Optional<Resolved>> next = new HashMap<>();
      Map<String, Resolved> keys = new HashMap<>();
      Map<String, String> owners = new HashMap<>();
      for (UserRecord user : users.values()) {
        Optional<Resolved> r = resolved.get(user);
        if (r == null) {
          r = resolve(user);
        }
        next.put(user, r);
        if (r.isEmpty() || administrators.containsKey(user.accessKeyId())) {
          continue; // the configuration's key wins
        }
        String owner = owners.putIfAbsent(user.accessKeyId(), user.name());
        if (owner == null) {
          keys.put(user.accessKeyId(), r.get());
        } else {
          // Two operators gave one key to two users at once: the first created keeps it.
          UserRecord other = users.get(owner);
          if (user.createdMillis() < other.createdMillis()) {
            keys.put(user.accessKeyId(), r.get());
            owners.put(user.accessKeyId(), user.name());
          }
        }
      }
      resolved = next;
      byKey = Map.copyOf(keys);
    }
  }

  /** {@link #refresh}, logging a failure once; says whether it read the users. */
  private boolean refreshQuietly() {
    try {
      refresh();
      if (failing) {
        LOG.info("users: the user records are read again");
        failing = false;
      }
      return !closed;
    } catch (RuntimeException e) {
      if (!failing && !closed) { // closed: the store may be closing under the re-read
        LOG.warn("users: cannot read the user records; the users last read stay: {}", e.toString());
        failing = true;
      }
      return false;
    }
  }

  private Optional<Resolved> resolve(UserRecord user) {
    try {
      String secret = secrets.open(user.accessKeyId(), user.secret());
      List<Policy> policies = new ArrayList<>();
      for (Map.Entry<String, String> p : user.policies().entrySet()) {
        policies.add(PolicyParser.identityPolicy(p.getValue()));
      }
      return Optional.of(new Resolved(secret, new Principal(user.name(), false, policies)));
    } catch (IllegalStateException | IllegalArgumentException e) {
      LOG.warn("users: user {} is refused: {}", user.name(), e.getMessage());
      return Optional.empty();
    }
  }

  @Override
  public Optional<String> secretKey(String accessKeyId) {
    String admin = administrators.get(accessKeyId);
    if (admin != null) {
      return Optional.of(admin);
    }
    Resolved user = byKey.get(accessKeyId);
    if (user == null) {
      if (accessKeyId != null && UserAccounts.ACCESS_KEY.matcher(accessKeyId).matches()) {
        missed(); // a user added since the last re-read? (a key of another form never can be)
      }
      return Optional.empty();
    }
    return Optional.of(user.secret());
  }

  @Override
  public Optional<Principal> of(String accessKeyId) {
    if (administrators.containsKey(accessKeyId)) {
      return Optional.of(new Principal(accessKeyId, true, List.of()));
    }
    Resolved user = byKey.get(accessKeyId);
    return user == null ? Optional.empty() : Optional.of(user.principal());
  }

  /** How many stored users this directory serves now. */
  public int storedUsers() {
    return byKey.size();
  }

  /** Stops the background re-read; the users last read stay. */
  @Override
  public void close() {
    closed = true; // not under the lock: a re-read in progress may hold it for a listing
    ScheduledExecutorService r = refresher;
    if (r != null) {
      r.shutdownNow();
    }
  }

  @Override
  public String toString() {
    return "UserDirectory[administrators="
        + administrators.keySet()
        + ", users="
        + byKey.size()
        + "]";
  }
}
