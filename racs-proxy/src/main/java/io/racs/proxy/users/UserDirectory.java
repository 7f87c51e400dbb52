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
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who an access key belongs to, for every request: the configuration's keys are administrators
 * ({@link Principal#administrator()}) and win over a stored user of the same key; then the users
 * stored in the array ({@link UserRecords}), as the last re-read found them. The re-read runs in
 * the background every {@code refresh} (one listing of the user records on every repository; the
 * records themselves are read once each), so a user added or removed through any proxy or {@code
 * racs users} is seen here within that interval plus one listing, and no request ever waits for it.
 *
 * <p>Fails closed: a user whose secret does not open (sealed with a master key this proxy does not
 * hold) or one of whose policies no longer parses is left out, never served with less than its
 * policies say. When a re-read fails (fewer than a read quorum of repositories answer), the users
 * last read stay in force until one succeeds; the array then serves no data anyway.
 *
 * <p>Thread-safe; {@link #secretKey} and {@link #of} read one immutable map and never block.
 */
public final class UserDirectory implements CredentialStore, Principals, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UserDirectory.class);

  /** A stored user as requests see it. */
  private record Resolved(String secret, Principal principal) {}

  private final Map<String, String> administrators;
  private final Object refreshing = new Object();
  // Set once by attach, under refreshing.
  private UserRecords records;
  private StoredSecrets secrets;
  private volatile ScheduledExecutorService refresher;
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
   * (a failure is logged, and the administrators work meanwhile) and then every {@code refresh} in
   * the background; {@link Duration#ZERO}: read now only. Called once; after {@link #close}, reads
   * nothing.
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
      if (!refresh.isZero()) {
        refresher =
            Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread t = new Thread(r, "racs-users");
                  t.setDaemon(true);
                  return t;
                });
      }
    }
    refreshQuietly();
    if (refresher != null) {
      long millis = Math.max(1, refresh.toMillis());
      refresher.scheduleWithFixedDelay(this::refreshQuietly, millis, millis, TimeUnit.MILLISECONDS);
      if (closed) {
        refresher.shutdownNow(); // closed while attaching
      }
    }
  }

  /**
   * Reads the stored users now (what the background does each interval), e.g. right after this
   * proxy changed one.
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

  private void refreshQuietly() {
    try {
      refresh();
      if (failing) {
        LOG.info("users: the user records are read again");
        failing = false;
      }
    } catch (RuntimeException e) {
      if (!failing) {
        LOG.warn("users: cannot read the user records; the users last read stay: {}", e.toString());
        failing = true;
      }
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
    return user == null ? Optional.empty() : Optional.of(user.secret());
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
