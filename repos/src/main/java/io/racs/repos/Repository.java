package io.racs.repos;

import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A flat, independent blob namespace: one provider, one account and bucket (or one directory).
 *
 * <p><b>Keys.</b> A key is 1 to 1024 bytes of well-formed UTF-8, exactly as S3 allows: any
 * character, including {@code ..}, {@code //}, a leading or trailing {@code /}, {@code %} and
 * control characters. The namespace is flat: {@code /} is an ordinary character, there are no
 * directories, and {@code a} and {@code a/b} are two independent objects. An invalid key (null,
 * empty, longer than 1024 bytes, an unpaired surrogate) is a programming error and fails with
 * {@link IllegalArgumentException} before any I/O. A backend may also refuse, with {@link
 * IllegalArgumentException}, a valid key that its provider cannot hold; the {@code s3} backend does
 * so when the escaped form of a key exceeds S3's own 1024-byte limit (see {@link KeyCodec}). {@link
 * #accepts(String)} tells a caller in advance.
 *
 * <p><b>Order.</b> Listings return keys in UTF-8 binary order (unsigned byte order of the UTF-8
 * encoding, which is also code point order), the order of S3's ListObjectsV2; see {@link
 * Keys#ORDER}.
 *
 * <p><b>Missing.</b> An object exists from the moment a {@link #put} returns until a {@link
 * #delete} of its key returns. {@link #get} of a missing key fails with {@link
 * RepositoryException.Kind#NOT_FOUND}; {@link #head} answers {@link Optional#empty()}; {@link
 * #delete} of a missing key succeeds. Writes are all-or-nothing: a put that fails leaves the
 * previous object (or its absence) unchanged and never a partial object; readers never see a torn
 * or mixed body. Concurrent puts of one key are serialised by the backend: the last one to complete
 * wins. A backend is only as strongly consistent as its provider (AWS S3 and MinIO are
 * read-after-write consistent).
 *
 * <p><b>Missing storage is not a missing object.</b> When the storage itself cannot answer — a root
 * directory removed, unmounted, replaced by a file or by another directory, a bucket deleted —
 * every method fails with {@link RepositoryException.Kind#UNAVAILABLE}: no {@code NOT_FOUND}, no
 * empty {@link #head}, no empty listing and no successful delete, since a caller takes those for
 * "no such object" and would answer a client wrongly. {@code NOT_FOUND} and emptiness are reserved
 * for storage that answered and holds no such object.
 *
 * <p><b>Errors.</b> Every failure of the storage behind the repository is a {@link
 * RepositoryException} carrying a {@link RepositoryException.Kind}; nothing else escapes apart from
 * {@link IllegalArgumentException} for bad arguments and {@link IllegalStateException} after {@link
 * #close()}. {@code UNAVAILABLE} and {@code TIMEOUT} are transient and worth retrying; backends
 * already retry where their provider's protocol makes that safe.
 *
 * <p><b>Threading.</b> Implementations are thread-safe; every method may be called concurrently
 * from any number of threads. Calls block: callers are expected to run them on virtual threads.
 * Returned {@link ObjectStream}s are not thread-safe and belong to the caller, who must close them.
 *
 * <p><b>Lifecycle.</b> A repository is usable from construction until {@link #close()}, which
 * releases its resources and is idempotent; no method has to be called first. Constructing one does
 * no I/O, so a repository whose storage is missing or down can still be built, and reports the
 * problem from its calls (and from {@link #probe()}). Streams obtained earlier should be closed
 * before {@link #close()}.
 */
public interface Repository extends AutoCloseable {
  /** Upper bound for {@code maxKeys} in {@link #list}: S3's own page limit. */
  int MAX_LIST_PAGE = 1000;

  /** The name this repository was configured with; stable and unique within a repository set. */
  String name();

  /**
   * Describes the repository for reports and logs: at least {@code type} and {@code location}, plus
   * every setting that changes what its measurements mean (for example {@code durable=false} on an
   * {@code fs} repository, or the delay a latency decorator adds). Never holds secrets. The map
   * iterates in a stable order.
   */
  Map<String, String> describe();

  /**
   * Stores {@code body} under {@code key}, replacing any object there, and returns what was stored.
   *
   * <p>The body is read to its end (or to {@code lengthBytes}) on the calling thread and is not
   * closed; memory use is bounded whatever the length. When {@code lengthBytes} is not {@code -1}
   * the body must hold exactly that many bytes: a shorter or longer body fails the put with kind
   * {@code UNEXPECTED} and stores nothing. A body that throws fails the put the same way, with the
   * body's exception as the cause.
   *
   * @param lengthBytes the exact body length, or {@code -1} when unknown
   * @return the stored object's description: its key, size, ETag if the backend has one, and
   *     modification time
   * @throws RepositoryException on any storage failure; nothing is then visible under {@code key}
   *     that was not there before
   */
  ObjectInfo put(String key, InputStream body, long lengthBytes);

  /**
   * Opens the whole object for reading. Equivalent to {@code get(key, 0, -1)}.
   *
   * @throws RepositoryException {@code NOT_FOUND} when there is no object under {@code key}
   */
  default ObjectStream get(String key) {
    return get(key, 0, -1);
  }

  /**
   * Opens bytes {@code [offset, offset + lengthBytes)} of the object for reading, clipped to its
   * size: a range that starts at or beyond the end reads as empty. The object is read as it was
   * when the call returned, even if it is overwritten or deleted while the stream is open (AWS S3
   * and MinIO may break such a stream off instead, with {@code UNAVAILABLE}).
   *
   * <p>Failures while reading the stream are thrown from its read methods as {@link
   * RepositoryException} (unchecked). The caller must close the stream; closing it early is cheap.
   *
   * @param offset first byte, {@code >= 0}
   * @param lengthBytes number of bytes, {@code >= 0}, or {@code -1} for "to the end"
   * @throws RepositoryException {@code NOT_FOUND} when there is no object under {@code key}
   */
  ObjectStream get(String key, long offset, long lengthBytes);

  /**
   * Describes the object under {@code key} without reading it.
   *
   * @return the object's description, or empty when there is none
   * @throws RepositoryException on any storage failure other than absence
   */
  Optional<ObjectInfo> head(String key);

  /**
   * Removes the object under {@code key}. Deleting a missing key succeeds: the result is the same.
   *
   * @throws RepositoryException on any storage failure; the object is then either still there or
   *     gone
   */
  void delete(String key);

  /**
   * Removes the object under {@code key} like {@link #delete}, except that the removal need not be
   * durable when this returns: after a crash the object may be back. For garbage whose return is
   * harmless (superseded versions, abandoned writes), so that collecting it does not add syncs to
   * the writes it runs beside. A repository with nothing cheaper simply deletes.
   *
   * @throws RepositoryException on any storage failure; the object is then either still there or
   *     gone
   */
  default void discard(String key) {
    delete(key);
  }

  /**
   * Lists up to {@code maxKeys} objects whose keys start with {@code prefix} and sort strictly
   * after {@code startAfter}, in UTF-8 binary order. To page, pass the page's {@link
   * ListPage#nextStartAfter()} as the next {@code startAfter}. A listing reflects every put and
   * delete that returned before it started; changes made while paging may or may not show.
   *
   * @param prefix keys must start with this; {@code ""} for all
   * @param startAfter keys must sort after this; {@code ""} to start at the beginning (need not be
   *     an existing key)
   * @param maxKeys page size, 1 to {@link #MAX_LIST_PAGE}
   * @throws RepositoryException on any storage failure, {@code UNAVAILABLE} when the storage itself
   *     is missing: a listing is empty only when the storage answered that it holds nothing
   */
  ListPage list(String prefix, String startAfter, int maxKeys);

  /**
   * Checks that the repository is reachable and usable (the directory exists and is writable, the
   * bucket exists and the credentials are accepted), with one cheap request.
   *
   * @throws RepositoryException naming what is wrong: {@code UNAVAILABLE} (also when the directory
   *     or bucket is missing or not the one first used), {@code TIMEOUT}, or {@code ACCESS_DENIED}
   */
  void probe();

  /**
   * Finds what this repository's own writes leave behind when a process dies in the middle of one
   * (an {@code fs} repository's temporary files), older than {@code grace}, and removes it unless
   * {@code dryRun}. Such leftovers are invisible to every other method; younger ones may belong to
   * a write still running, in this process or another. A backend whose writes leave nothing behind
   * finds nothing.
   *
   * @param grace leftovers younger than this are left alone; not negative
   * @param dryRun count only
   * @return how many leftovers were found (and, unless {@code dryRun}, removed)
   * @throws RepositoryException on any storage failure
   */
  default long purgeLeftovers(Duration grace, boolean dryRun) {
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace: " + grace + " (expected: >= 0)");
    }
    return 0;
  }

  /**
   * Tells whether this repository can hold {@code key}: true for every valid key on a backend that
   * takes them all ({@code memory}, {@code fs}, {@code s3} with raw keys); false when the backend's
   * escaped form of the key would exceed its provider's limit, in which case every method given
   * that key fails with {@link IllegalArgumentException}. Callers whose own key schemes can produce
   * long keys use it to decide when to shorten them.
   *
   * @throws IllegalArgumentException when {@code key} is not a valid key at all
   */
  default boolean accepts(String key) {
    Keys.check(key);
    return true;
  }

  /** Releases the repository's resources. Idempotent; later calls to other methods may fail. */
  @Override
  void close();
}
