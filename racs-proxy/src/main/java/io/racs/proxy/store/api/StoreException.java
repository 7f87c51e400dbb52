package io.racs.proxy.store.api;

import io.racs.proxy.store.format.VersionMeta;
import java.util.List;
import java.util.Objects;

/**
 * The one exception the object store throws for a failure a client should hear about, carrying a
 * {@link Code} the S3 layer translates into an S3 error, and, for lost quorum, what went wrong on
 * each repository.
 */
public class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, in the store's terms. */
  public enum Code {
    /** The bucket does not exist. */
    NO_SUCH_BUCKET,
    /** The bucket exists already (this store has one owner, so it is always ours). */
    BUCKET_ALREADY_EXISTS,
    /** The bucket still holds objects or uploads. */
    BUCKET_NOT_EMPTY,
    /** The key has no current version (never written, or deleted). */
    NO_SUCH_KEY,
    /** The key has no version of the id asked for (never written, or permanently deleted). */
    NO_SUCH_VERSION,
    /** The multipart upload does not exist (never started, completed or aborted). */
    NO_SUCH_UPLOAD,
    /** A part named in a completion was not uploaded, or its ETag does not match. */
    INVALID_PART,
    /** Parts in a completion are not in ascending order. */
    INVALID_PART_ORDER,
    /** A part other than the last is smaller than the minimum part size. */
    ENTITY_TOO_SMALL,
    /** The requested range or part number is outside the object. */
    INVALID_RANGE,
    /** A checksum the client sent does not match the body. */
    BAD_DIGEST,
    /** An argument is invalid (bucket name, key, part number...). */
    INVALID_ARGUMENT,
    /** Fewer repositories than needed answered: the operation did not take effect. */
    INSUFFICIENT_SHARDS,
    /**
     * A write lost its quorum because repositories are out of space (the others alone would have
     * made it): it did not take effect, and will not until space is freed.
     */
    INSUFFICIENT_STORAGE,
    /** The request body failed or ended early. */
    INCOMPLETE_BODY,
    /**
     * A change that must be serialised across proxies (creating or deleting a bucket) was refused
     * because the coordination service is not reachable: it did not take effect.
     */
    COORDINATION_UNAVAILABLE,
    /**
     * A new write was refused because this proxy could not read the array record for longer than
     * the layout ttl (docs/reshape.md §6): the layout it would write in may be stale. It did not
     * take effect; reads are not refused for it.
     */
    LAYOUT_UNKNOWN,
    /** The repositories hold something this store cannot use (wrong array, unknown format). */
    INCONSISTENT,
    /** A write asked for encryption by the proxy's key, and the proxy has no key configured. */
    ENCRYPTION_NOT_CONFIGURED,
    /** The version is encrypted with a customer's key and the request gave none. */
    CUSTOMER_KEY_REQUIRED,
    /** The version is encrypted with another customer key than the one the request gave. */
    CUSTOMER_KEY_MISMATCH,
    /** The request gave a customer key for a version that is not encrypted with one. */
    ENCRYPTION_MISMATCH,
    /** The version is kept by its retention or legal hold: it may not be removed or unlocked. */
    OBJECT_LOCKED,
    /** An object lock request on a bucket (or version) without object lock. */
    OBJECT_LOCK_NOT_ENABLED,
    /** A change the bucket's state forbids (suspending versioning under object lock). */
    INVALID_BUCKET_STATE
  }

  /** What one repository (by slot and name) said when an operation needed it. */
  public record ShardFailure(int slot, String repository, String cause) {
    @Override
    public String toString() {
      return "slot " + slot + " (" + repository + "): " + cause;
    }
  }

  private final Code code;

  @SuppressWarnings("serial") // an immutable List.copyOf of records; never serialised in practice
  private final List<ShardFailure> failures;

  /** A failure with no per-repository detail. */
  public StoreException(Code code, String message) {
    this(code, message, List.of(), null);
  }

  /** A failure caused by {@code cause}. */
  public StoreException(Code code, String message, Throwable cause) {
    this(code, message, List.of(), cause);
  }

  /** A failure with the per-repository causes that made it. */
  public StoreException(Code code, String message, List<ShardFailure> failures, Throwable cause) {
    super(message + (failures.isEmpty() ? "" : " " + failures), cause);
    this.code = Objects.requireNonNull(code, "code");
    this.failures = List.copyOf(failures);
  }

  /**
   * {@code NO_SUCH_KEY} for a key whose current version is a delete marker: the marker, which S3
   * names in its answer in a versioned bucket.
   */
  public static final class DeletedKey extends StoreException {
    private static final long serialVersionUID = 1L;

    @SuppressWarnings("serial") // an immutable record; never serialised in practice
    private final VersionMeta marker;

    /** The key {@code what} is hidden by {@code marker}. */
    public DeletedKey(String what, VersionMeta marker) {
      super(Code.NO_SUCH_KEY, what + " (delete marker)");
      this.marker = Objects.requireNonNull(marker, "marker");
    }

    /** The delete marker that is the key's current version. */
    public VersionMeta marker() {
      return marker;
    }
  }

  /** The kind of failure. */
  public Code code() {
    return code;
  }

  /** What each repository that failed said; empty unless the code is about quorum. */
  public List<ShardFailure> failures() {
    return failures;
  }
}
