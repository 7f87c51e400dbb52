package io.racs.proxy.store.array;

import java.util.Objects;

/**
 * One slot's state as operators should see it ({@code /health/ready}): whether its repository can
 * take part in reads and writes now, and if not, why, in one line.
 *
 * @param slot the slot
 * @param name the repository's configured name
 * @param state what the repository can do
 * @param reason why it is not {@link State#UP}, in one line; empty when it is
 */
public record RepositoryHealth(int slot, String name, State state, String reason) {
  /** What a repository can do now. */
  public enum State {
    /** Answering, and a full member of the array. */
    UP,
    /** Answering and taking writes, but adopted as a replacement that heal has not filled yet. */
    REBUILDING,
    /** Not answering, or kept out of the array (the reason says which). */
    UNAVAILABLE,
    /** Refusing writes for lack of space. */
    FULL,
    /** Refusing access: credentials, permissions, or a read-only file system. */
    ACCESS_DENIED,
    /** Failing in some other way (the reason says how). */
    FAILING
  }

  /** Checks the fields and keeps the reason on one line. */
  public RepositoryHealth {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    reason = reason == null ? "" : reason.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
  }

  /** Whether the repository takes writes now (so counts toward the write quorum). */
  public boolean writable() {
    return state == State.UP || state == State.REBUILDING;
  }
}
