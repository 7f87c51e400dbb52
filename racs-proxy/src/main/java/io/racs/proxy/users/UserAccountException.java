package io.racs.proxy.users;

/**
 * A change of the stored users that {@link UserAccounts} refused, with what kind of refusal it is,
 * so that the admin API answers 404 or 409 where the CLI exits 2 alike: nothing changed either way.
 * Bad input that fits no other kind (a name or key of the wrong form) is a plain {@link
 * IllegalArgumentException}. The message is one line and never holds a secret.
 */
public final class UserAccountException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** What was refused. */
  public enum Kind {
    /** There is no such user, or the user has no such policy. */
    NOT_FOUND,
    /** A user of that name exists, or the access key is in use. */
    CONFLICT,
    /** The policy document does not parse, or is over 20 KB ({@code MalformedPolicy: …}). */
    MALFORMED_POLICY
  }

  private final Kind kind;

  /** A refusal of {@code kind} that says {@code message}. */
  public UserAccountException(Kind kind, String message) {
    this(kind, message, null);
  }

  /** A refusal of {@code kind} that says {@code message}, caused by {@code cause}. */
  public UserAccountException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** What was refused. */
  public Kind kind() {
    return kind;
  }
}
