package io.racs.proxy.store.users;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.heal.Maintenance;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The user records of one array ({@link Layout#userRecord}): every change of a user (added, a
 * policy attached or detached, removed) writes a new record of the whole user under a new name on a
 * write quorum through the {@link QuorumWriter}; no record name is ever written twice. Read on a
 * read quorum, a user's newest record that may be on a write quorum decides (a record of a write
 * that failed on too many repositories never counts), as {@code reshape.ArrayRecords} reads the
 * array records; heal copies them to repositories that lack them ("copy user records").
 *
 * <p>Thread-safe; records never change once written, so each one is read from a repository once and
 * kept (bounded). Two writers racing each other both write, and the newer record decides.
 */
public final class UserRecords {
  private static final int MAX_CACHED_RECORDS = 100_000;

  /**
   * One user as one record wrote it.
   *
   * @param name the user's name
   * @param accessKeyId its access key id
   * @param secret its secret as stored (opaque here: sealed or not, {@code io.racs.proxy.users}
   *     says)
   * @param policies its identity policy documents by policy name, as attached
   * @param createdMillis when the user was added
   * @param removed true for the record of a removal (which keeps the name, key and creation time
   *     only)
   */
  public record UserRecord(
      String name,
      String accessKeyId,
      String secret,
      Map<String, String> policies,
      long createdMillis,
      boolean removed) {
    /** Checks the fields and copies the policies, keeping their order. */
    public UserRecord {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(accessKeyId, "accessKeyId");
      Objects.requireNonNull(secret, "secret");
      if (name.isEmpty() || name.indexOf(Layout.SEPARATOR) >= 0 || name.indexOf('/') >= 0) {
        throw new IllegalArgumentException(
            "name: " + name + " (expected: non-empty, no NUL, no /)");
      }
      policies =
          policies == null
              ? Map.of()
              : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(policies));
    }

    /** Never shows the secret, even in its stored form. */
    @Override
    public String toString() {
      return "UserRecord["
          + name
          + ", "
          + accessKeyId
          + ", policies="
          + policies.keySet()
          + (removed ? ", removed" : "")
          + "]";
    }

    /** This user with other policies. */
    public UserRecord withPolicies(Map<String, String> policies) {
      return new UserRecord(name, accessKeyId, secret, policies, createdMillis, removed);
    }

    /** The record of this user's removal: its name, key and creation time, no secret or policy. */
    public UserRecord asRemoved() {
      return new UserRecord(name, accessKeyId, "", Map.of(), createdMillis, true);
    }
  }

  private final StoreContext context;
  private final QuorumWriter writer;
  private final ConcurrentHashMap<String, UserRecord> read = new ConcurrentHashMap<>();

  public UserRecords(Maintenance store) {
    this.context = store.context();
    this.writer = new QuorumWriter(context, store.collector());
  }

  /**
   * Every user as its deciding record has it, by name in name order; removed users are left out.
   *
   * @throws StoreException {@code INSUFFICIENT_SHARDS} when fewer than a read quorum of
   *     repositories answered, or no repository listing a deciding record could be read
   */
  public Map<String, UserRecord> current() {
    IndexMerge merge = new IndexMerge(context.array, Layout.USER_RECORDS, "", IndexMerge.maxPage());
    Map<String, UserRecord> users = new LinkedHashMap<>();
    String decided = null; // the user whose deciding record was found already
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      String name = e.name();
      int separator = name.lastIndexOf(Layout.SEPARATOR);
      if (separator < Layout.USER_RECORDS.length()) {
        continue; // not a user record's name: nothing this store wrote
      }
      // Ordered by commit, not by clock: the next record's id is newer than every one listed.
      context.ids.observe(name.substring(separator + 1));
      String user = name.substring(Layout.USER_RECORDS.length(), separator);
      if (user.equals(decided)
          || !merge.index().mayCount(VersionResolver.possibleHolders(merge, e))) {
        continue; // an older record of a user decided, or a write that failed
      }
      decided = user;
      UserRecord record = record(e);
      if (!record.removed()) {
        users.put(user, record);
      }
    }
    context.requireReadQuorum(merge, "read the user records");
    return users;
  }

  private UserRecord record(IndexMerge.Entry e) {
    UserRecord cached = read.get(e.name());
    if (cached != null) {
      return cached;
    }
    UserRecord record =
        context
            .read(e, UserRecord.class)
            .orElseThrow(
                () ->
                    new StoreException(
                        StoreException.Code.INSUFFICIENT_SHARDS,
                        "user record " + e.name() + ": no repository listing it could be read"));
    if (read.size() >= MAX_CACHED_RECORDS) {
      read.clear(); // users are few; this only bounds a pathological churn
    }
    read.put(e.name(), record);
    return record;
  }

  /**
   * Writes {@code record} under a new name on a write quorum: newer than every record {@link
   * #current} listed (call it first), whatever the clocks of the proxies that wrote them.
   *
   * @throws StoreException {@code INSUFFICIENT_SHARDS} when fewer than a write quorum took it (it
   *     then does not count)
   */
  public void write(UserRecord record) {
    String name = Layout.userRecord(record.name(), context.ids.next());
    writer.write(
        name,
        Layout.encode(record),
        (record.removed() ? "remove" : "write") + " user " + record.name());
    read.put(name, record);
  }

  /** The time on the store's clock, for a new user's creation time. */
  public long nowMillis() {
    return context.config.clock().millis();
  }
}
