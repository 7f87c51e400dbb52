package io.racs.proxy.store.api;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.Sealing;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * S3-shaped object storage over an erasure-coded array of repositories: the one interface the S3
 * layer calls, multipart uploads ({@link MultipartStore}) among its calls. It knows nothing of
 * HTTP.
 *
 * <p><b>Consistency.</b> Every mutation writes a new version; a version becomes visible only once
 * it is durable on a write quorum of repositories, and then the newest visible version of a key is
 * its current one (a delete marker hides the key). A call that throws has not made anything new
 * visible (a failed PUT leaves the previous version current).
 *
 * <p><b>Failures.</b> Everything a client should hear about is a {@link StoreException}; losing
 * quorum is {@link StoreException.Code#INSUFFICIENT_SHARDS} naming each repository's cause. Bodies
 * are read on the calling thread; if a body throws a {@link StoreException} (a checksum mismatch
 * found by the caller's wrapper, say) the operation fails with it unchanged, and any other body
 * failure is {@link StoreException.Code#INCOMPLETE_BODY}.
 *
 * <p><b>Threading.</b> Thread-safe; calls block (run them on virtual threads). Streams returned by
 * {@link #get} belong to the caller, who must close them.
 */
public interface ObjectStore extends MultipartStore, AutoCloseable {
  /** A bucket as listed. */
  record BucketInfo(String name, Instant created) {}

  /**
   * What a PUT or multipart upload stores besides the bytes.
   *
   * @param contentHeaders the standard object headers to keep (see {@link
   *     VersionMeta#contentHeaders()})
   * @param tags the object's tags (validated by the caller; see {@link VersionMeta#tags()})
   * @param sealing whether and with whose key the bytes are encrypted before they are striped
   * @param lock the version's object lock ({@link VersionMeta#lock()}); null outside lock buckets
   */
  record PutOptions(
      String contentType,
      Map<String, String> userMetadata,
      Supplier<Map<String, String>> checksums,
      Map<String, String> contentHeaders,
      Map<String, String> tags,
      Sealing sealing,
      ObjectLock lock) {
    /** Copies the metadata. */
    public PutOptions {
      tags = tags == null ? Map.of() : Map.copyOf(tags);
      contentType = contentType == null ? "binary/octet-stream" : contentType;
      userMetadata = userMetadata == null ? Map.of() : Map.copyOf(userMetadata);
      checksums = checksums == null ? Map::of : checksums;
      contentHeaders = contentHeaders == null ? Map.of() : Map.copyOf(contentHeaders);
      sealing = sealing == null ? Sealing.NONE : sealing;
    }

    /** Options with tags, stored as sent. */
    public PutOptions(
        String contentType,
        Map<String, String> userMetadata,
        Supplier<Map<String, String>> checksums,
        Map<String, String> contentHeaders,
        Map<String, String> tags) {
      this(contentType, userMetadata, checksums, contentHeaders, tags, null, null);
    }

    /** Options without tags, stored as sent. */
    public PutOptions(
        String contentType,
        Map<String, String> userMetadata,
        Supplier<Map<String, String>> checksums,
        Map<String, String> contentHeaders) {
      this(contentType, userMetadata, checksums, contentHeaders, null, null, null);
    }

    /** These options with another sealing. */
    public PutOptions withSealing(Sealing s) {
      return new PutOptions(contentType, userMetadata, checksums, contentHeaders, tags, s, lock);
    }

    /** These options with another object lock. */
    public PutOptions withLock(ObjectLock l) {
      return new PutOptions(contentType, userMetadata, checksums, contentHeaders, tags, sealing, l);
    }

    /** Defaults: {@code binary/octet-stream}, no metadata, no checksums. */
    public static PutOptions defaults() {
      return new PutOptions(null, null, null, null, null, null, null);
    }
  }

  /**
   * A condition on a key's current version that a write checks just before it commits (after its
   * body was read and its data stored), so that the version it sees is as recent as the store can
   * make it. {@code current} is the key's current version, empty when the key has none or its
   * newest version is a delete marker.
   *
   * <p>The condition refuses the write by throwing any unchecked exception; the write then removes
   * what it stored and rethrows that exception unchanged (so the S3 layer can throw its own error).
   *
   * <p>It is a check, not a lock: a write that commits between the check and the commit is not
   * seen. Repositories offer no compare-and-swap across a quorum, so two conditional writes of one
   * key that overlap can both pass their checks; the window is one quorum write long.
   */
  @FunctionalInterface
  interface WriteCondition {
    /** No condition. */
    WriteCondition NONE = current -> {};

    /** Throws when the write must not happen. */
    void check(Optional<VersionMeta> current);
  }

  /** A readable object version: its metadata and the requested bytes. */
  interface ObjectReader extends AutoCloseable {
    /** The version read. */
    VersionMeta meta();

    /** Bytes the body holds. */
    long rangeLength();

    /** The bytes; read failures are {@link StoreException}s. */
    InputStream body();

    @Override
    void close();
  }

  /** A listing request; {@code startAfter} is exclusive, {@code delimiter} may be null. */
  record ListRequest(String prefix, String delimiter, String startAfter, int maxKeys) {}

  /** A listing page: objects and common prefixes in key order. */
  record ListResult(
      List<VersionMeta> objects,
      List<String> commonPrefixes,
      boolean truncated,
      Optional<String> nextStartAfter) {}

  /**
   * A request for a page of versions (ListObjectVersions): keys after {@code keyMarker}, or with
   * {@code versionIdMarker} the versions of {@code keyMarker} older than that one and then the keys
   * after it; {@code delimiter} may be null.
   */
  record VersionListRequest(
      String prefix, String delimiter, String keyMarker, String versionIdMarker, int maxKeys) {}

  /** A version (or delete marker) as listed, and whether it is its key's current one. */
  record ListedVersion(VersionMeta meta, boolean latest) {}

  /**
   * A page of versions: every version and delete marker of each key, newest first, keys in order,
   * and common prefixes; when truncated, the key and version id to continue after.
   */
  record VersionListResult(
      List<ListedVersion> versions,
      List<String> commonPrefixes,
      boolean truncated,
      Optional<String> nextKeyMarker,
      Optional<String> nextVersionIdMarker) {}

  /**
   * Tags set on one version of a key after it was written (see {@link #putObjectTagging}).
   *
   * @param tags key to value; empty once they were deleted
   */
  record ObjectTagging(String versionId, Map<String, String> tags) {
    /** Copies the tags. */
    public ObjectTagging {
      tags = Map.copyOf(tags);
    }

    /**
     * The tags of {@code version}: those the newest of {@code taggings} (as {@link #objectTaggings}
     * lists them) set on it, or else those it was written with.
     */
    public static Map<String, String> of(VersionMeta version, List<ObjectTagging> taggings) {
      for (ObjectTagging t : taggings) {
        if (t.versionId().equals(version.versionId())) {
          return t.tags();
        }
      }
      return version.tags();
    }
  }

  /**
   * The version id S3 gives the {@code null} version: a version written while its bucket's
   * versioning was not {@code Enabled} ({@link VersionMeta#nullVersion()}). {@link #version} and
   * {@link #removeVersion} take it, and a listing of versions may continue after it.
   */
  String NULL_VERSION = "null";

  /** A bucket's versioning state, as GetBucketVersioning tells it. */
  enum Versioning {
    /** Never turned on: every version is the {@code null} version, superseded ones collected. */
    OFF,
    /** Every write gets a version id of its own, and every version stays. */
    ENABLED,
    /**
     * Every write is the {@code null} version and replaces the key's earlier {@code null} version;
     * versions with ids of their own stay.
     */
    SUSPENDED
  }

  /** True when {@code versionId} is well formed: an id this store could have minted. */
  static boolean wellFormedVersionId(String versionId) {
    return VersionId.valid(versionId);
  }

  // ---- buckets ----

  /** Creates a bucket; {@code BUCKET_ALREADY_EXISTS} if it exists. */
  void createBucket(String bucket);

  /** Deletes an empty bucket; {@code NO_SUCH_BUCKET}, {@code BUCKET_NOT_EMPTY}. */
  void deleteBucket(String bucket);

  /** True when the bucket exists. */
  boolean bucketExists(String bucket);

  /** All buckets, by name. */
  List<BucketInfo> listBuckets();

  /**
   * Sets the CORS configuration of a bucket (a document the caller validated), replacing any
   * earlier one, on a write quorum; {@code NO_SUCH_BUCKET}, {@code INSUFFICIENT_SHARDS}.
   */
  void putBucketCors(String bucket, String configuration);

  /**
   * The CORS configuration of a bucket, empty when it has none (or only one deleted, or one set
   * before the bucket was deleted and created again); read from a read quorum: {@code
   * NO_SUCH_BUCKET}, {@code INSUFFICIENT_SHARDS}.
   */
  Optional<String> bucketCors(String bucket);

  /** Removes the CORS configuration of a bucket (none is no error); {@code NO_SUCH_BUCKET}. */
  void deleteBucketCors(String bucket);

  /**
   * Sets the tag set of a bucket (a document the caller validated), replacing any earlier one, on a
   * write quorum; {@code NO_SUCH_BUCKET}, {@code INSUFFICIENT_SHARDS}. Kept like the CORS
   * configuration: a bucket created again does not inherit it.
   */
  void putBucketTagging(String bucket, String tagging);

  /** The tag set of a bucket, empty when it has none; as {@link #bucketCors}. */
  Optional<String> bucketTagging(String bucket);

  /** Removes the tag set of a bucket (none is no error); {@code NO_SUCH_BUCKET}. */
  void deleteBucketTagging(String bucket);

  /**
   * Sets the default encryption configuration of a bucket (a document the caller validated),
   * replacing any earlier one; kept like the CORS configuration.
   */
  void putBucketEncryption(String bucket, String configuration);

  /** The default encryption configuration of a bucket, empty when it has none. */
  Optional<String> bucketEncryption(String bucket);

  /**
   * {@link #bucketEncryption} for a write to apply: a store may answer from a cache of a second or
   * so, which it drops when the configuration changes through it and, with coordination, as soon as
   * it hears of a change through another proxy. By default it reads anew each time.
   */
  default Optional<String> bucketEncryptionRecently(String bucket) {
    return bucketEncryption(bucket);
  }

  /** Removes the default encryption configuration of a bucket (none is no error). */
  void deleteBucketEncryption(String bucket);

  /**
   * Sets the lifecycle configuration of a bucket (a document the caller validated), replacing any
   * earlier one, on a write quorum; kept like the CORS configuration. The store does not read it:
   * the caller carries the rules out.
   */
  void putBucketLifecycle(String bucket, String configuration);

  /** The lifecycle configuration of a bucket, empty when it has none; as {@link #bucketCors}. */
  Optional<String> bucketLifecycle(String bucket);

  /** Removes the lifecycle configuration of a bucket (none is no error); {@code NO_SUCH_BUCKET}. */
  void deleteBucketLifecycle(String bucket);

  /**
   * Turns versioning on for a bucket ({@code NO_SUCH_BUCKET} if it does not exist): from then on
   * every version of every key stays (none is collected as superseded), and a delete writes a
   * delete marker even when the key has no current version. It cannot be turned off, only
   * suspended.
   */
  default void enableVersioning(String bucket) {
    setVersioning(bucket, Versioning.ENABLED);
  }

  /**
   * Sets a bucket's versioning to {@code ENABLED} or {@code SUSPENDED} ({@code NO_SUCH_BUCKET} if
   * it does not exist). A suspended bucket keeps every version it has, writes each new version (and
   * delete marker) as the key's {@code null} version, and drops the key's earlier {@code null}
   * version once the new one has settled.
   */
  void setVersioning(String bucket, Versioning state);

  /**
   * The bucket's versioning state; {@code NO_SUCH_BUCKET} if it does not exist. Changed through
   * another proxy, it may take up to a second to be seen here.
   */
  Versioning versioning(String bucket);

  /**
   * True when versioning was ever turned on for the bucket (it is enabled or suspended): versions
   * are then kept and named by their ids; {@code NO_SUCH_BUCKET} if it does not exist. Turned on
   * through another proxy, it may take up to a second to be seen here; versions are kept from the
   * moment it was turned on all the same.
   */
  boolean versioned(String bucket);

  // ---- objects ----

  /**
   * Stores a new version of {@code key} from {@code body} ({@code lengthBytes} or -1 if unknown).
   */
  default VersionMeta put(
      String bucket, String key, InputStream body, long lengthBytes, PutOptions options) {
    return put(bucket, key, body, lengthBytes, options, WriteCondition.NONE);
  }

  /** {@link #put(String, String, InputStream, long, PutOptions)} if {@code condition} holds. */
  VersionMeta put(
      String bucket,
      String key,
      InputStream body,
      long lengthBytes,
      PutOptions options,
      WriteCondition condition);

  /**
   * Opens the current version, or bytes {@code [offset, offset + length)} of it (length -1: to the
   * end), or only part {@code partNumber} when it is positive. Failures that can be known before
   * the first byte (no such key, range, lost quorum) are thrown here, not from the stream.
   */
  default ObjectReader get(String bucket, String key, long offset, long length, int partNumber) {
    return get(bucket, key, offset, length, partNumber, null);
  }

  /**
   * {@link #get(String, String, long, long, int)} with the customer's key for a version sealed with
   * one (SSE-C; null when the request gave none): {@code CUSTOMER_KEY_REQUIRED} when it needs one
   * and none was given, {@code CUSTOMER_KEY_MISMATCH} for another key, {@code ENCRYPTION_MISMATCH}
   * for a key given for a version not sealed with one.
   */
  ObjectReader get(
      String bucket, String key, long offset, long length, int partNumber, CustomerKey customerKey);

  /**
   * Opens bytes {@code [offset, offset + length)} (length -1: to the end) of exactly the version
   * {@code version}, as returned by {@link #head}: so that a caller that sent that version's
   * headers streams that version's bytes, even when a newer one was written meanwhile. If the
   * version was superseded and collected since, opening fails ({@code INSUFFICIENT_SHARDS}, which
   * clients retry) rather than returning other bytes.
   */
  default ObjectReader read(VersionMeta version, long offset, long length) {
    return read(version, offset, length, null);
  }

  /** {@link #read(VersionMeta, long, long)} with a customer's key, as {@link #get} takes one. */
  ObjectReader read(VersionMeta version, long offset, long length, CustomerKey customerKey);

  /**
   * Checks that a request holding {@code customerKey} (null for none) may read {@code version}, as
   * {@link #get} checks it, without reading any bytes (for HEAD).
   */
  void checkKey(VersionMeta version, CustomerKey customerKey);

  /**
   * Exactly the version {@code versionId} of a key, a delete marker included, judged by the one
   * visibility rule ({@link VersionResolver}); {@link #NULL_VERSION} names the key's {@code null}
   * version. {@code NO_SUCH_VERSION} if the key has no such version, {@code NO_SUCH_BUCKET} if the
   * bucket does not exist. Its bytes are read with {@link #read}.
   */
  VersionMeta version(String bucket, String key, String versionId);

  /** The current version's metadata; {@code NO_SUCH_KEY} if none. */
  VersionMeta head(String bucket, String key);

  /**
   * Writes a delete marker (deleting a missing key succeeds) and returns it; empty when none was
   * written because the bucket is not versioned and the key had no version to hide. That version's
   * record goes unread (a round trip saved), so in a bucket not versioned a key whose current
   * version is a delete marker gets another one, unless this store has read that marker before.
   */
  default Optional<VersionMeta> delete(String bucket, String key) {
    return delete(bucket, key, WriteCondition.NONE);
  }

  /**
   * {@link #delete(String, String)} if {@code condition} holds; the condition is checked even when
   * the key has no version to hide.
   */
  Optional<VersionMeta> delete(String bucket, String key, WriteCondition condition);

  /** Lists current versions. */
  ListResult list(String bucket, ListRequest request);

  /**
   * Lists every version and delete marker of a versioned bucket's keys, each judged by the one
   * visibility rule ({@link VersionResolver}); {@code NO_SUCH_BUCKET}, and {@code
   * INSUFFICIENT_SHARDS} rather than a short listing.
   */
  VersionListResult listVersions(String bucket, VersionListRequest request);

  /**
   * Removes exactly the version {@code versionId} of a key (a delete marker included) for good, in
   * a versioned bucket: once this returns, no read sees it, whichever repositories are unavailable;
   * removing the newest version makes the one before it current. Returns the version removed, or
   * empty when the key has no such version (nothing changes). The removal is a record committed on
   * a write quorum ({@link Layout#removalRecord}); the version's entries and data are deleted after
   * it, in the background and by heal. {@link #NULL_VERSION} removes the key's {@code null} version
   * (and any earlier {@code null} record it superseded and that is not yet collected).
   */
  Optional<VersionMeta> removeVersion(String bucket, String key, String versionId);

  /**
   * Copies the current version of a source key to a new version of the target key, on the server.
   * With {@code replace} null the metadata is copied; otherwise it replaces it.
   */
  default VersionMeta copy(
      String sourceBucket, String sourceKey, String bucket, String key, PutOptions replace) {
    return copy(sourceBucket, sourceKey, bucket, key, replace, WriteCondition.NONE);
  }

  /** {@link #copy(String, String, String, String, PutOptions)} if {@code condition} holds. */
  VersionMeta copy(
      String sourceBucket,
      String sourceKey,
      String bucket,
      String key,
      PutOptions replace,
      WriteCondition condition);

  /**
   * Copies exactly the version {@code source} (as {@link #version} returned it) to a new version of
   * the target key; {@code replace} and {@code condition} as in the other copy. If the version was
   * deleted since, opening it fails rather than copying other bytes.
   */
  default VersionMeta copy(
      VersionMeta source, String bucket, String key, PutOptions replace, WriteCondition condition) {
    return copy(source, null, bucket, key, replace, Sealing.NONE, condition);
  }

  /**
   * Copies exactly the version {@code source}, opened with {@code sourceKey} when it is sealed with
   * a customer's key, to a new version sealed as {@code target} asks (S3 does not carry a source's
   * encryption over to its copy); {@code replace} and {@code condition} as in the other copy.
   */
  VersionMeta copy(
      VersionMeta source,
      CustomerKey sourceKey,
      String bucket,
      String key,
      PutOptions replace,
      Sealing target,
      WriteCondition condition);

  /**
   * Replaces the tags of exactly {@code version} (as {@link #head} or {@link #version} returned it;
   * not a delete marker) with {@code tags} (validated by the caller; empty removes them), on a
   * write quorum; {@code INSUFFICIENT_SHARDS}. The version's record is not changed: a tag-set
   * record of its own is written, and {@link #objectTaggings} finds it.
   */
  void putObjectTagging(VersionMeta version, Map<String, String> tags);

  /**
   * The tag sets later set on versions of {@code key}, the newest per version first; read from a
   * read quorum ({@code INSUFFICIENT_SHARDS}). Independent of which version is current, so a caller
   * may ask for them while it resolves the version.
   */
  List<ObjectTagging> objectTaggings(String bucket, String key);

  /** Object lock: bucket configurations, retention and legal hold of versions. */
  ObjectLocks locks();

  /** Bucket policies: one access policy document per bucket. */
  BucketPolicies policies();

  @Override
  void close();
}
