package io.racs.proxy.users;

import io.racs.proxy.s3.policy.PolicyException;
import io.racs.proxy.s3.policy.PolicyParser;
import io.racs.proxy.store.users.UserRecords;
import io.racs.proxy.store.users.UserRecords.UserRecord;
import io.racs.proxy.users.UserAccountException.Kind;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The changes {@code racs users} (and the admin API) make to the stored users, each checked before
 * anything is written and then written as one record ({@link UserRecords}): bad input (a name or
 * key of the wrong form, a duplicate access key, a user that does not exist, a malformed policy or
 * one over {@link PolicyParser#MAX_BYTES}) is an {@link IllegalArgumentException} with a one-line
 * message, and nothing changed; a {@link UserAccountException} where its kind is known (no such
 * user, a duplicate, a malformed policy).
 *
 * <p>Each change, once written, is announced ({@link UserChanges#announce}), so that with
 * coordination every proxy re-reads the users at once; without, they see it at their next re-read
 * ({@link UserDirectory}).
 *
 * <p>Thread-safe as the records are; two operators changing one user at once both write, and the
 * newer record decides (as {@code racs reshape} commands, these are meant for one at a time).
 */
public final class UserAccounts {
  /** A user name, as IAM spells them (and as a policy's principal names one). */
  public static final Pattern NAME = Pattern.compile("[A-Za-z0-9+=,.@_-]{1,64}");

  /** An access key id: what fits a SigV4 credential scope ({@code /} would end it). */
  public static final Pattern ACCESS_KEY = Pattern.compile("[A-Za-z0-9._-]{3,128}");

  /** A secret access key: printable ASCII, no spaces. */
  public static final Pattern SECRET = Pattern.compile("[\\x21-\\x7e]{8,128}");

  /** A policy's name among a user's policies. */
  public static final Pattern POLICY_NAME = Pattern.compile("[A-Za-z0-9+=,.@_-]{1,128}");

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String KEY_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  private static final String SECRET_CHARS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  private final UserRecords records;
  private final StoredSecrets secrets;
  private final Set<String> administratorKeys;
  private final UserChanges changes;

  /**
   * Changes of the users in {@code records}, their secrets stored by {@code secrets}; {@code
   * administratorKeys} (the configuration's) may not be given to a user. Announces nothing ({@link
   * UserChanges#NONE}).
   */
  public UserAccounts(UserRecords records, StoredSecrets secrets, Set<String> administratorKeys) {
    this(records, secrets, administratorKeys, UserChanges.NONE);
  }

  /** The same, announcing each change written through {@code changes}. */
  public UserAccounts(
      UserRecords records,
      StoredSecrets secrets,
      Set<String> administratorKeys,
      UserChanges changes) {
    this.records = records;
    this.secrets = secrets;
    this.administratorKeys = Set.copyOf(administratorKeys);
    this.changes = java.util.Objects.requireNonNull(changes, "changes");
  }

  /** Writes {@code record}, then tells every proxy (best effort: the change is written). */
  private void write(UserRecord record) {
    records.write(record);
    changes.announce();
  }

  /** A user just added, with its secret (shown once, never stored in the clear with a key). */
  public record Added(String name, String accessKeyId, String secretKey) {
    @Override
    public String toString() {
      return "Added[" + name + ", " + accessKeyId + ", secret hidden]";
    }
  }

  /**
   * Adds user {@code name} with the given keys, or generated ones where they are null.
   *
   * @throws IllegalArgumentException on a bad name or key, a user of that name, or a key in use
   */
  public Added add(String name, String accessKeyId, String secretKey) {
    check(NAME, name, "user name", "1 to 64 of A-Z a-z 0-9 + = , . @ _ -");
    if (accessKeyId != null) {
      check(ACCESS_KEY, accessKeyId, "access key", "3 to 128 of A-Z a-z 0-9 . _ -");
    }
    if (secretKey != null) {
      if (!SECRET.matcher(secretKey).matches()) {
        // Never echo a secret, even a bad one.
        throw new IllegalArgumentException(
            "secret key: "
                + secretKey.length()
                + " characters (expected: 8 to 128 printable"
                + " ASCII characters, no spaces)");
      }
    }
    Map<String, UserRecord> users = records.current();
    if (users.containsKey(name)) {
      throw new UserAccountException(Kind.CONFLICT, "user " + name + " already exists");
    }
    String key = accessKeyId != null ? accessKeyId : generate(KEY_CHARS, "RACS", 20);
    if (administratorKeys.contains(key)) {
      throw new UserAccountException(
          Kind.CONFLICT,
          "access key " + key + " is already in use (by the configuration's credentials)");
    }
    for (UserRecord u : users.values()) {
      if (u.accessKeyId().equals(key)) {
        throw new UserAccountException(
            Kind.CONFLICT, "access key " + key + " is already in use (by user " + u.name() + ")");
      }
    }
    String secret = secretKey != null ? secretKey : generate(SECRET_CHARS, "", 40);
    write(
        new UserRecord(
            name, key, secrets.store(key, secret), Map.of(), records.nowMillis(), false));
    return new Added(name, key, secret);
  }

  /**
   * Removes user {@code name}: its key stops working.
   *
   * @throws IllegalArgumentException when there is no such user
   */
  public void remove(String name) {
    write(existing(name).asRemoved());
  }

  /** The users, by name. */
  public List<UserRecord> list() {
    return new ArrayList<>(records.current().values());
  }

  /**
   * Attaches (or replaces) the identity policy {@code policyName} of user {@code name}, checked
   * with {@link PolicyParser#identityPolicy}.
   *
   * @throws IllegalArgumentException when there is no such user, or the name or policy is bad
   *     ({@code MalformedPolicy: <reason>})
   */
  public void attachPolicy(String name, String policyName, String json) {
    check(POLICY_NAME, policyName, "policy name", "1 to 128 of A-Z a-z 0-9 + = , . @ _ -");
    try {
      PolicyParser.identityPolicy(json);
    } catch (PolicyException e) {
      throw new UserAccountException(
          Kind.MALFORMED_POLICY, "MalformedPolicy: " + e.getMessage(), e);
    }
    UserRecord user = existing(name);
    Map<String, String> policies = new LinkedHashMap<>(user.policies());
    policies.put(policyName, json);
    write(user.withPolicies(policies));
  }

  /**
   * Detaches the policy {@code policyName} of user {@code name}.
   *
   * @throws IllegalArgumentException when there is no such user or it has no such policy
   */
  public void detachPolicy(String name, String policyName) {
    UserRecord user = existing(name);
    if (!user.policies().containsKey(policyName)) {
      throw new UserAccountException(
          Kind.NOT_FOUND, "user " + name + " has no policy " + policyName);
    }
    Map<String, String> policies = new LinkedHashMap<>(user.policies());
    policies.remove(policyName);
    write(user.withPolicies(policies));
  }

  private UserRecord existing(String name) {
    UserRecord user = records.current().get(name);
    if (user == null) {
      throw new UserAccountException(Kind.NOT_FOUND, "no such user: " + name);
    }
    return user;
  }

  private static void check(Pattern pattern, String value, String what, String expected) {
    if (value == null || !pattern.matcher(value).matches()) {
      throw new IllegalArgumentException(what + ": " + value + " (expected: " + expected + ")");
    }
  }

  private static String generate(String alphabet, String prefix, int length) {
    StringBuilder out = new StringBuilder(prefix);
    while (out.length() < length) {
      out.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return out.toString();
  }
}
