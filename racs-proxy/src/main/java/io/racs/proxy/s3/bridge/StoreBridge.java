package io.racs.proxy.s3.bridge;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.sse.SseRequest;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.VersionMeta;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one bridge between the S3 layer and the object store: every handler call into the store goes
 * through here, and every store failure comes back as the S3 error a client expects, translated in
 * one place ({@link StoreErrors#translate}). What the store answers comes back in the S3 layer's
 * own view ({@link ObjectVersion}, {@link ObjectListing}...), mapped from the store's records by
 * {@link StoreViews}, so no handler sees those.
 *
 * <p>A request body the S3 layer refuses while the store reads it (a signature, checksum or size
 * that is wrong) keeps the error the S3 layer raised: the bridge hands the store a watched body and
 * recognises the refusal itself when the store call fails, so the error does not travel through the
 * store (see {@link WatchedBody}).
 */
public final class StoreBridge {
  // Tag-set lookups run beside the version lookups of GET and HEAD; one virtual thread each.
  private static final ExecutorService TAG_LOOKUPS = Executors.newVirtualThreadPerTaskExecutor();

  private static final Logger LOG = LoggerFactory.getLogger(StoreBridge.class);

  private final ObjectStore store;

  /** Bridges to {@code store}. */
  public StoreBridge(ObjectStore store) {
    this.store = store;
  }

  /** The object lock calls (bucket configurations, retention, legal hold). */
  public LockBridge locks() {
    return new LockBridge(store.locks());
  }

  /** True when {@code versionId} is well formed for the store: an id it could have minted. */
  public static boolean wellFormedVersionId(String versionId) {
    return ObjectStore.wellFormedVersionId(versionId);
  }

  /** Runs a store call, translating its failures. */
  static <T> T call(String resource, Supplier<T> call) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      throw StoreErrors.translate(e, resource);
    }
  }

  /**
   * Runs a store call that reads {@code body}: when the call fails after the body was refused, the
   * answer is the body's refusal (see {@link WatchedBody}), whatever the store made of it.
   */
  private <T> T call(String resource, WatchedBody body, Supplier<T> call) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      S3Exception refusal = body.refusal();
      throw StoreErrors.translate(refusal != null ? refusal : e, resource);
    }
  }

  static void run(String resource, Runnable call) {
    call(
        resource,
        () -> {
          call.run();
          return null;
        });
  }

  // ---- buckets ----

  /** All buckets, by name. */
  public List<Bucket> listBuckets() {
    return call("/", () -> store.listBuckets().stream().map(StoreViews::bucket).toList());
  }

  /** Creates a bucket; {@code BucketAlreadyOwnedByYou} if it exists. */
  public void createBucket(String bucket) {
    run("/" + bucket, () -> store.createBucket(bucket));
  }

  /** Deletes an empty bucket; {@code NoSuchBucket}, {@code BucketNotEmpty}. */
  public void deleteBucket(String bucket) {
    run("/" + bucket, () -> store.deleteBucket(bucket));
  }

  /** True when the bucket exists. */
  public boolean bucketExists(String bucket) {
    return call("/" + bucket, () -> store.bucketExists(bucket));
  }

  /**
   * Stores a bucket's {@code kind} of configuration document (validated and rendered by the
   * handler), replacing any earlier one; {@code NoSuchBucket}.
   */
  public void putBucketDocument(String bucket, BucketDocument kind, String document) {
    run(
        "/" + bucket,
        () -> {
          switch (kind) {
            case CORS -> store.putBucketCors(bucket, document);
            case TAGGING -> store.putBucketTagging(bucket, document);
            case LIFECYCLE -> store.putBucketLifecycle(bucket, document);
            case ENCRYPTION -> store.putBucketEncryption(bucket, document);
            case POLICY -> store.policies().put(bucket, document);
          }
        });
  }

  /**
   * A bucket's {@code kind} of configuration document, empty when it has none; {@code
   * NoSuchBucket}.
   */
  public Optional<String> bucketDocument(String bucket, BucketDocument kind) {
    return call(
        "/" + bucket,
        () ->
            switch (kind) {
              case CORS -> store.bucketCors(bucket);
              case TAGGING -> store.bucketTagging(bucket);
              case LIFECYCLE -> store.bucketLifecycle(bucket);
              case ENCRYPTION -> store.bucketEncryption(bucket);
              case POLICY -> store.policies().get(bucket);
            });
  }

  /** Removes a bucket's {@code kind} of configuration document; {@code NoSuchBucket}. */
  public void deleteBucketDocument(String bucket, BucketDocument kind) {
    run(
        "/" + bucket,
        () -> {
          switch (kind) {
            case CORS -> store.deleteBucketCors(bucket);
            case TAGGING -> store.deleteBucketTagging(bucket);
            case LIFECYCLE -> store.deleteBucketLifecycle(bucket);
            case ENCRYPTION -> store.deleteBucketEncryption(bucket);
            case POLICY -> store.policies().delete(bucket);
          }
        });
  }

  /**
   * The bucket's default encryption configuration as writes apply it (possibly cached for a second,
   * coherent across proxies with coordination), empty when it has none.
   */
  public Optional<String> bucketEncryptionRecently(String bucket) {
    return call("/" + bucket, () -> store.bucketEncryptionRecently(bucket));
  }

  /**
   * The bucket's policy as requests are judged by it (possibly cached for a second, coherent across
   * proxies with coordination), empty when it has none or the bucket does not exist.
   */
  public Optional<String> bucketPolicyRecently(String bucket) {
    try {
      return call("/" + bucket, () -> store.policies().getRecently(bucket));
    } catch (S3Exception e) {
      if (e.code() == S3ErrorCode.NO_SUCH_BUCKET) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** Turns versioning on for a bucket; {@code NoSuchBucket}. */
  public void enableVersioning(String bucket) {
    run("/" + bucket, () -> store.enableVersioning(bucket));
  }

  /**
   * Suspends versioning of a bucket: later writes are the null version, earlier versions stay;
   * {@code NoSuchBucket}.
   */
  public void suspendVersioning(String bucket) {
    run("/" + bucket, () -> store.setVersioning(bucket, ObjectStore.Versioning.SUSPENDED));
  }

  /**
   * The bucket's versioning status as GetBucketVersioning answers it: {@code Enabled}, {@code
   * Suspended}, or null when it was never versioned; {@code NoSuchBucket}.
   */
  public String versioningStatus(String bucket) {
    return call("/" + bucket, () -> StoreViews.versioningStatus(store.versioning(bucket)));
  }

  /** True when versioning was turned on for the bucket; {@code NoSuchBucket}. */
  public boolean versioned(String bucket) {
    return call("/" + bucket, () -> store.versioned(bucket));
  }

  // ---- objects ----
  // A write's condition is checked by the store right before the write commits; the S3Exception
  // a condition throws comes back unchanged.

  /**
   * Stores a new version of {@code key} from {@code body} ({@code length} bytes, or -1 if unknown),
   * if {@code condition} holds. A body the S3 layer refuses keeps its S3 error (see {@link
   * WatchedBody}).
   */
  public ObjectVersion put(
      String bucket,
      String key,
      InputStream body,
      long length,
      PutOptions options,
      WriteCondition condition) {
    WatchedBody watched = new WatchedBody(body);
    return call(
        resource(bucket, key),
        watched,
        () ->
            written(
                store.put(
                    bucket,
                    key,
                    watched,
                    length,
                    StoreViews.options(options),
                    StoreViews.condition(condition))));
  }

  /**
   * Exactly the version {@code versionId} of a key in a versioned bucket, a delete marker included;
   * {@code NoSuchVersion} if the key has no such version.
   */
  public ObjectVersion version(String bucket, String key, String versionId) {
    return call(
        resource(bucket, key),
        () -> {
          Future<List<ObjectStore.ObjectTagging>> taggings = taggings(bucket, key);
          return tagged(ObjectVersion.versioned(store.version(bucket, key, versionId)), taggings);
        });
  }

  /**
   * The current version; {@code NoSuchKey} if none. In a versioned bucket a key whose current
   * version is a delete marker answers, as S3 does, {@code x-amz-delete-marker: true} and the
   * marker's {@code x-amz-version-id} with its 404.
   */
  public ObjectVersion head(String bucket, String key) {
    return call(
        resource(bucket, key),
        () ->
            naming(
                bucket,
                () -> {
                  Future<List<ObjectStore.ObjectTagging>> taggings = taggings(bucket, key);
                  return tagged(written(store.head(bucket, key)), taggings);
                }));
  }

  /** Runs a read of a key's current version, naming the delete marker that hides it, if any. */
  private <T> T naming(String bucket, Supplier<T> read) {
    try {
      return read.get();
    } catch (StoreException.DeletedKey deleted) {
      boolean versioned;
      try {
        versioned = store.versioned(bucket);
      } catch (RuntimeException e) {
        versioned = false; // the 404 stands; only its headers are missing
      }
      if (!versioned) {
        throw deleted;
      }
      throw StoreErrors.translate(deleted, resource(bucket, deleted.marker().key()))
          .withHeader("x-amz-delete-marker", "true")
          .withHeader("x-amz-version-id", ObjectVersion.s3VersionId(deleted.marker()));
    }
  }

  /**
   * Replaces the tags of exactly {@code version} (not a delete marker) with {@code tags}, validated
   * by the caller; empty removes them.
   */
  public void putObjectTagging(ObjectVersion version, Map<String, String> tags) {
    VersionMeta stored = version.stored();
    run(resource(stored.bucket(), stored.key()), () -> store.putObjectTagging(stored, tags));
  }

  /**
   * Starts looking up the tag sets set on versions of a key after they were written, beside the
   * lookup of the version itself, so that a GET or HEAD still costs one repository round trip.
   */
  private Future<List<ObjectStore.ObjectTagging>> taggings(String bucket, String key) {
    return TAG_LOOKUPS.submit(() -> store.objectTaggings(bucket, key));
  }

  /**
   * {@code version} with the tags it has now. A failed lookup fails the request (a 503 that clients
   * retry) rather than answer with tags that may have been replaced.
   */
  private static ObjectVersion tagged(
      ObjectVersion version, Future<List<ObjectStore.ObjectTagging>> taggings) {
    try {
      return version.withTaggings(taggings.get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      taggings.cancel(true);
      throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, "interrupted");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * Opens the current version, or bytes {@code [offset, offset + length)} of it (length -1: to the
   * end), or only part {@code partNumber} when it is positive. Failures that can be known before
   * the first byte (no such key, range, lost quorum) are thrown here, not from the body. A version
   * encrypted with a customer's key needs {@code customerKey} (null when the request gave none):
   * InvalidRequest without the key, AccessDenied with another.
   */
  public ObjectReader get(
      String bucket,
      String key,
      long offset,
      long length,
      int partNumber,
      CustomerKey customerKey) {
    return call(
        resource(bucket, key),
        () ->
            naming(
                bucket,
                () -> {
                  Future<List<ObjectStore.ObjectTagging>> taggings = taggings(bucket, key);
                  ObjectStore.ObjectReader reader =
                      store.get(bucket, key, offset, length, partNumber, customerKey);
                  try {
                    return new ObjectReader(reader, tagged(written(reader.meta()), taggings));
                  } catch (RuntimeException e) {
                    reader.close();
                    throw e;
                  }
                }));
  }

  /**
   * Checks that a request holding {@code customerKey} (null for none) may read {@code version}, as
   * a GET would check it (for HEAD, and before a copy answers anything).
   */
  public void checkKey(ObjectVersion version, CustomerKey customerKey) {
    VersionMeta stored = version.stored();
    run(resource(stored.bucket(), stored.key()), () -> store.checkKey(stored, customerKey));
  }

  /**
   * Opens bytes {@code [offset, offset + length)} of exactly {@code version}, as {@link #head}
   * returned it: a response whose headers came from that version streams that version's bytes, even
   * when a newer one was written meanwhile (a version collected since fails with a retryable 503).
   * {@code customerKey} as {@link #get} takes it.
   */
  public ObjectReader read(
      ObjectVersion version, long offset, long length, CustomerKey customerKey) {
    VersionMeta stored = version.stored();
    return call(
        resource(stored.bucket(), stored.key()),
        () -> new ObjectReader(store.read(stored, offset, length, customerKey), version));
  }

  /**
   * Writes a delete marker if {@code condition} holds (deleting a missing key succeeds) and returns
   * it when the bucket is versioned (S3 answers its version id then); empty otherwise.
   */
  public Optional<ObjectVersion> delete(String bucket, String key, WriteCondition condition) {
    return call(
        resource(bucket, key),
        () ->
            store
                .delete(bucket, key, StoreViews.condition(condition))
                .map(this::written)
                .filter(v -> v.versionId() != null));
  }

  /**
   * The S3 view of a version just written, or read as the current one ({@link StoreViews#current}).
   * A write has succeeded whatever happens here, and a read has its bytes, so a bucket whose state
   * cannot be read just now answers without the version id rather than fail (the version is kept
   * all the same: the collector reads the state again before it deletes anything). The state is
   * cached for a second, so this costs no round trip per request.
   */
  private ObjectVersion written(VersionMeta stored) {
    boolean versioned;
    try {
      versioned = store.versioned(stored.bucket());
    } catch (RuntimeException e) {
      LOG.debug("versioning of {} unknown: {}", stored.bucket(), e.toString());
      versioned = false;
    }
    return StoreViews.current(stored, versioned);
  }

  /**
   * Lists current versions whose key starts with {@code prefix}, after {@code startAfter}
   * (exclusive), rolling keys up to {@code delimiter} (null for none) into common prefixes.
   */
  public ObjectListing list(
      String bucket, String prefix, String delimiter, String startAfter, int maxKeys) {
    return call(
        "/" + bucket,
        () ->
            StoreViews.listing(
                store.list(
                    bucket, new ObjectStore.ListRequest(prefix, delimiter, startAfter, maxKeys))));
  }

  /**
   * Lists every version and delete marker of a versioned bucket whose key starts with {@code
   * prefix}: after {@code keyMarker}, or after its version {@code versionIdMarker} (null: after all
   * of the key's versions).
   */
  public VersionListing listVersions(
      String bucket,
      String prefix,
      String delimiter,
      String keyMarker,
      String versionIdMarker,
      int maxKeys) {
    return call(
        "/" + bucket,
        () ->
            StoreViews.versionListing(
                store.listVersions(
                    bucket,
                    new ObjectStore.VersionListRequest(
                        prefix, delimiter, keyMarker, versionIdMarker, maxKeys))));
  }

  /**
   * Removes exactly the version {@code versionId} of a key in a versioned bucket for good, and
   * returns it; empty when the key has no such version (nothing changed).
   */
  public Optional<ObjectVersion> removeVersion(String bucket, String key, String versionId) {
    return call(
        resource(bucket, key),
        () -> store.removeVersion(bucket, key, versionId).map(ObjectVersion::versioned));
  }

  /**
   * Copies exactly the version {@code source} (as {@link #version} or {@link #head} returned it) to
   * a new version of the target key, on the server, if {@code condition} holds. With {@code
   * replace} null the metadata is copied; otherwise it replaces it. The source is opened with
   * {@code sse}'s copy-source key and the copy encrypted as {@code sse} asks (S3 does not carry a
   * source's encryption over to its copy).
   */
  public ObjectVersion copy(
      ObjectVersion source,
      String bucket,
      String key,
      PutOptions replace,
      SseRequest sse,
      WriteCondition condition) {
    return call(
        resource(bucket, key),
        () ->
            written(
                store.copy(
                    source.stored(),
                    sse.copySourceKey(),
                    bucket,
                    key,
                    replace == null ? null : StoreViews.options(replace),
                    StoreViews.sealing(sse),
                    StoreViews.condition(condition))));
  }

  // ---- multipart ----

  /**
   * Starts an upload and returns its id; its record keeps the checksum algorithm and type named
   * ({@code checksumAlgorithm} null for none), which {@link MultipartUpload} gives back.
   */
  public String createMultipartUpload(
      String bucket,
      String key,
      PutOptions options,
      String checksumAlgorithm,
      String checksumType) {
    return call(
        resource(bucket, key),
        () ->
            store.createMultipartUpload(
                bucket,
                key,
                StoreViews.options(options),
                StoreViews.uploadChecksum(checksumAlgorithm, checksumType)));
  }

  /**
   * Stores one part from {@code body}; a part uploaded again replaces the earlier one. {@code
   * checksums} is asked for once the body was read to its end. An upload encrypted with a
   * customer's key needs it again for every part ({@code customerKey}, null for none). A body the
   * S3 layer refuses keeps its S3 error (see {@link WatchedBody}). {@code check} sees the upload
   * before the body is read; an {@code S3Exception} it throws refuses the part, storing nothing.
   */
  public UploadedPart uploadPart(
      String bucket,
      String key,
      String uploadId,
      int partNumber,
      InputStream body,
      long length,
      Supplier<Map<String, String>> checksums,
      CustomerKey customerKey,
      Consumer<MultipartUpload> check) {
    WatchedBody watched = new WatchedBody(body);
    return call(
        resource(bucket, key),
        watched,
        () ->
            StoreViews.part(
                store.uploadPart(
                    bucket,
                    key,
                    uploadId,
                    partNumber,
                    watched,
                    length,
                    checksums,
                    customerKey,
                    upload -> check.accept(StoreViews.upload(upload)))));
  }

  /** The upload and its parts uploaded so far, by number. */
  public PartListing parts(String bucket, String key, String uploadId) {
    return call(resource(bucket, key), () -> StoreViews.parts(store.parts(bucket, key, uploadId)));
  }

  /**
   * Commits the named parts as a new version if {@code condition} holds; writes no data again. When
   * the condition fails, the upload and its parts stay as they were.
   *
   * @param objectChecksums derives the whole object's checksums (S3's composite or full-object
   *     checksums) from the upload and its chosen parts, in order; an {@code S3Exception} it throws
   *     fails the completion, which then changes nothing
   */
  public ObjectVersion completeMultipartUpload(
      String bucket,
      String key,
      String uploadId,
      List<CompletedPart> parts,
      BiFunction<MultipartUpload, List<PartChecksums>, Map<String, String>> objectChecksums,
      WriteCondition condition) {
    return call(
        resource(bucket, key),
        () ->
            written(
                store.completeMultipartUpload(
                    bucket,
                    key,
                    uploadId,
                    StoreViews.completedParts(parts),
                    StoreViews.checksumsOfParts(objectChecksums),
                    StoreViews.condition(condition))));
  }

  /** Discards an upload and its parts. */
  public void abortMultipartUpload(String bucket, String key, String uploadId) {
    run(resource(bucket, key), () -> store.abortMultipartUpload(bucket, key, uploadId));
  }

  /** Uploads in progress whose key starts with {@code prefix}. */
  public List<MultipartUpload> listMultipartUploads(String bucket, String prefix) {
    return call(
        "/" + bucket,
        () -> store.listMultipartUploads(bucket, prefix).stream().map(StoreViews::upload).toList());
  }

  private static String resource(String bucket, String key) {
    return "/" + bucket + "/" + key;
  }
}
