package io.racs.repos;

import java.util.Objects;

/**
 * The one exception a {@link Repository} throws for a storage failure, carrying a {@link Kind} that
 * tells the caller what to do about it. Backends translate their provider's errors into it exactly
 * once; decorators pass it through unchanged.
 */
public class RepositoryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, as far as a caller needs to know. */
  public enum Kind {
    /**
     * No object under the key, in storage that answered. Never for missing storage (a directory or
     * bucket gone): that is {@link #UNAVAILABLE}, since callers read this kind as "no such object".
     */
    NOT_FOUND(false),
    /**
     * The repository cannot answer: the provider cannot be reached or refuses service right now
     * (connection refused, 5xx), or its storage is missing or not its own (a root directory
     * removed, unmounted or replaced, a bucket deleted).
     */
    UNAVAILABLE(true),
    /** The provider did not answer in time. */
    TIMEOUT(true),
    /** The provider returned data that fails its own integrity check. */
    CORRUPT(false),
    /** The provider is out of space or quota. */
    FULL(false),
    /** The credentials or the file permissions do not allow the operation. */
    ACCESS_DENIED(false),
    /** A condition of the request did not hold (HTTP 412). */
    PRECONDITION_FAILED(false),
    /** Anything else, including a request body that failed or had the wrong length. */
    UNEXPECTED(false);

    private final boolean transient_;

    Kind(boolean transient_) {
      this.transient_ = transient_;
    }

    /** True for failures that may go away by themselves, so that a retry is worthwhile. */
    public boolean isTransient() {
      return transient_;
    }
  }

  private final Kind kind;

  /** A failure of {@code kind}; the message should name the repository and the key. */
  public RepositoryException(Kind kind, String message) {
    this(kind, message, null);
  }

  /** A failure of {@code kind} caused by {@code cause}. */
  public RepositoryException(Kind kind, String message, Throwable cause) {
    super(Objects.requireNonNull(kind, "kind") + ": " + message, cause);
    this.kind = kind;
  }

  /** What went wrong. */
  public Kind kind() {
    return kind;
  }
}
