package io.racs.proxy.s3.bridge;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.sse.SseRequest;
import io.racs.proxy.store.ObjectStore;
import io.racs.proxy.store.PartMeta;
import io.racs.proxy.store.Sealing;
import io.racs.proxy.store.StoreException;
import io.racs.proxy.store.VersionMeta;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one bridge between the S3 layer and the object store: every handler call into the store goes
 * through here, and every store failure comes back as the S3 error a client expects, translated in
 * one place ({@link #translate}): lost quorum is a 503 {@code ServiceUnavailable} that SDKs retry,
 * a write lost to full repositories a 507 {@code XMinioStorageFull} that they do not. What the
 * store answers comes back in the S3 layer's own view ({@link ObjectVersion}, {@link
 * ObjectListing}...), built here from the store's records, so no handler sees those.
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

  /** True when {@code versionId} is well formed for the store: an id it could have minted. */
  public static boolean wellFormedVersionId(String versionId) {
    return ObjectStore.wellFormedVersionId(versionId);
  }

  /** Runs a store call, translating its failures. */
  private <T> T call(String resource, Supplier<T> call) {
    try {
      return call.get();
    } catch (RuntimeException e) {
      throw translate(e, resource);
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
      S3Exception refusal = body.refusal;
      throw refusal != null ? translate(refusal, resource) : translate(e, resource);
    }
  }

  private void run(String resource, Runnable call) {
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
    return call(
        "/",
        () -> store.listBuckets().stream().map(b -> new Bucket(b.name(), b.created())).toList());
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

  /** Stores a bucket's (validated, rendered) CORS configuration; {@code NoSuchBucket}. */
  public void putBucketCors(String bucket, String configuration) {
    run("/" + bucket, () -> store.putBucketCors(bucket, configuration));
  }

  /** A bucket's CORS configuration, empty when it has none; {@code NoSuchBucket}. */
  public Optional<String> bucketCors(String bucket) {
    return call("/" + bucket, () -> store.bucketCors(bucket));
  }

  /** Removes a bucket's CORS configuration; {@code NoSuchBucket}. */
  public void deleteBucketCors(String bucket) {
    run("/" + bucket, () -> store.deleteBucketCors(bucket));
  }

  /** Stores a bucket's (validated, rendered) tag set; {@code NoSuchBucket}. */
  public void putBucketTagging(String bucket, String tagging) {
    run("/" + bucket, () -> store.putBucketTagging(bucket, tagging));
  }

  /** A bucket's tag set, empty when it has none; {@code NoSuchBucket}. */
  public Optional<String> bucketTagging(String bucket) {
    return call("/" + bucket, () -> store.bucketTagging(bucket));
  }

  /** Stores a bucket's (validated, rendered) lifecycle configuration; {@code NoSuchBucket}. */
  public void putBucketLifecycle(String bucket, String configuration) {
    run("/" + bucket, () -> store.putBucketLifecycle(bucket, configuration));
  }

  /** A bucket's lifecycle configuration, empty when it has none; {@code NoSuchBucket}. */
  public Optional<String> bucketLifecycle(String bucket) {
    return call("/" + bucket, () -> store.bucketLifecycle(bucket));
  }

  /** Removes a bucket's lifecycle configuration; {@code NoSuchBucket}. */
  public void deleteBucketLifecycle(String bucket) {
    run("/" + bucket, () -> store.deleteBucketLifecycle(bucket));
  }

  /** Removes a bucket's tag set; {@code NoSuchBucket}. */
  public void deleteBucketTagging(String bucket) {
    run("/" + bucket, () -> store.deleteBucketTagging(bucket));
  }

  /** Sets the bucket's default encryption configuration (a validated document). */
  public void putBucketEncryption(String bucket, String configuration) {
    run("/" + bucket, () -> store.putBucketEncryption(bucket, configuration));
  }

  /** The bucket's default encryption configuration, empty when it has none. */
  public Optional<String> bucketEncryption(String bucket) {
    return call("/" + bucket, () -> store.bucketEncryption(bucket));
  }

  /**
   * The bucket's default encryption configuration as writes apply it (possibly cached for a second,
   * coherent across proxies with coordination), empty when it has none.
   */
  public Optional<String> bucketEncryptionRecently(String bucket) {
    return call("/" + bucket, () -> store.bucketEncryptionRecently(bucket));
  }

  /** Removes the bucket's default encryption configuration. */
  public void deleteBucketEncryption(String bucket) {
    run("/" + bucket, () -> store.deleteBucketEncryption(bucket));
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
    return call(
        "/" + bucket,
        () ->
            switch (store.versioning(bucket)) {
              case ENABLED -> "Enabled";
              case SUSPENDED -> "Suspended";
              case OFF -> null;
            });
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
            written(store.put(bucket, key, watched, length, toStore(options), toStore(condition))));
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
      throw translate(deleted, resource(bucket, deleted.marker().key()))
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
   * the first byte (no such key, range, lost quorum) are thrown here, not from the body.
   */
  public ObjectReader get(String bucket, String key, long offset, long length, int partNumber) {
    return get(bucket, key, offset, length, partNumber, null);
  }

  /**
   * {@link #get(String, String, long, long, int)} of a version that may be encrypted with a
   * customer's key ({@code customerKey}, null when the request gave none): InvalidRequest without
   * the key, AccessDenied with another.
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
   */
  public ObjectReader read(ObjectVersion version, long offset, long length) {
    return read(version, offset, length, null);
  }

  /** {@link #read(ObjectVersion, long, long)} with a customer's key, as {@link #get} takes one. */
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
                .delete(bucket, key, toStore(condition))
                .map(this::written)
                .filter(v -> v.versionId() != null));
  }

  /**
   * The S3 view of a version just written, or read as the current one: with its version id when its
   * bucket is versioned (S3 answers {@code x-amz-version-id} on PUT, GET and HEAD there), as the
   * {@code null} version otherwise. A write has succeeded whatever happens here, and a read has its
   * bytes, so a bucket whose state cannot be read just now answers without the id rather than fail
   * (the version is kept all the same: the collector reads the state again before it deletes
   * anything). The state is cached for a second, so this costs no round trip per request.
   */
  private ObjectVersion written(VersionMeta stored) {
    boolean versioned;
    try {
      versioned = store.versioned(stored.bucket());
    } catch (RuntimeException e) {
      LOG.debug("versioning of {} unknown: {}", stored.bucket(), e.toString());
      versioned = false;
    }
    return versioned ? ObjectVersion.versioned(stored) : ObjectVersion.of(stored);
  }

  /**
   * Lists current versions whose key starts with {@code prefix}, after {@code startAfter}
   * (exclusive), rolling keys up to {@code delimiter} (null for none) into common prefixes.
   */
  public ObjectListing list(
      String bucket, String prefix, String delimiter, String startAfter, int maxKeys) {
    return call(
        "/" + bucket,
        () -> {
          ObjectStore.ListResult result =
              store.list(
                  bucket, new ObjectStore.ListRequest(prefix, delimiter, startAfter, maxKeys));
          return new ObjectListing(
              result.objects().stream().map(ObjectVersion::of).toList(),
              result.commonPrefixes(),
              result.truncated(),
              result.nextStartAfter());
        });
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
        () -> {
          ObjectStore.VersionListResult result =
              store.listVersions(
                  bucket,
                  new ObjectStore.VersionListRequest(
                      prefix, delimiter, keyMarker, versionIdMarker, maxKeys));
          return new VersionListing(
              result.versions().stream().map(v -> ObjectVersion.versioned(v.meta())).toList(),
              result.versions().stream().map(ObjectStore.ListedVersion::latest).toList(),
              result.commonPrefixes(),
              result.truncated(),
              result.nextKeyMarker(),
              result.nextVersionIdMarker());
        });
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
   * Copies exactly the version {@code source} (as {@link #version} returned it) to a new version of
   * the target key, if {@code condition} holds; {@code replace} as in the other copy.
   */
  public ObjectVersion copy(
      ObjectVersion source,
      String bucket,
      String key,
      PutOptions replace,
      WriteCondition condition) {
    return copy(source, bucket, key, replace, SseRequest.NONE, condition);
  }

  /**
   * {@link #copy(ObjectVersion, String, String, PutOptions, WriteCondition)} opening the source
   * with {@code sse}'s copy-source key and encrypting the copy as {@code sse} asks (S3 does not
   * carry a source's encryption over to its copy).
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
                    replace == null ? null : toStore(replace),
                    toStore(sse),
                    toStore(condition))));
  }

  /**
   * Copies the current version of a source key to a new version of the target key, on the server,
   * if {@code condition} holds. With {@code replace} null the metadata is copied; otherwise it
   * replaces it.
   */
  public ObjectVersion copy(
      String sourceBucket,
      String sourceKey,
      String bucket,
      String key,
      PutOptions replace,
      WriteCondition condition) {
    return call(
        resource(bucket, key),
        () ->
            written(
                store.copy(
                    sourceBucket,
                    sourceKey,
                    bucket,
                    key,
                    replace == null ? null : toStore(replace),
                    toStore(condition))));
  }

  // ---- multipart ----

  /** Starts an upload and returns its id. */
  public String createMultipartUpload(String bucket, String key, PutOptions options) {
    return call(
        resource(bucket, key), () -> store.createMultipartUpload(bucket, key, toStore(options)));
  }

  /**
   * Stores one part from {@code body}; a part uploaded again replaces the earlier one. {@code
   * checksums} is asked for once the body was read to its end. A body the S3 layer refuses keeps
   * its S3 error (see {@link WatchedBody}).
   */
  public UploadedPart uploadPart(
      String bucket,
      String key,
      String uploadId,
      int partNumber,
      InputStream body,
      long length,
      Supplier<Map<String, String>> checksums) {
    return uploadPart(bucket, key, uploadId, partNumber, body, length, checksums, null);
  }

  /**
   * {@link #uploadPart(String, String, String, int, InputStream, long, Supplier)} of an upload that
   * may be encrypted with a customer's key, which every part must give again.
   */
  public UploadedPart uploadPart(
      String bucket,
      String key,
      String uploadId,
      int partNumber,
      InputStream body,
      long length,
      Supplier<Map<String, String>> checksums,
      CustomerKey customerKey) {
    WatchedBody watched = new WatchedBody(body);
    return call(
        resource(bucket, key),
        watched,
        () ->
            toS3(
                store.uploadPart(
                    bucket, key, uploadId, partNumber, watched, length, checksums, customerKey)));
  }

  /** The parts uploaded so far, by number. */
  public List<UploadedPart> listParts(String bucket, String key, String uploadId) {
    return call(
        resource(bucket, key),
        () -> store.listParts(bucket, key, uploadId).stream().map(StoreBridge::toS3).toList());
  }

  /**
   * Commits the named parts as a new version if {@code condition} holds; writes no data again. When
   * the condition fails, the upload and its parts stay as they were.
   *
   * @param objectChecksums derives the whole object's checksums (S3's composite or full-object
   *     checksums) from the chosen parts, in order; an {@code S3Exception} it throws fails the
   *     completion, which then changes nothing
   */
  public ObjectVersion completeMultipartUpload(
      String bucket,
      String key,
      String uploadId,
      List<CompletedPart> parts,
      Function<List<PartChecksums>, Map<String, String>> objectChecksums,
      WriteCondition condition) {
    List<ObjectStore.CompletedPart> named =
        parts.stream().map(p -> new ObjectStore.CompletedPart(p.partNumber(), p.etag())).toList();
    Function<List<PartMeta>, Map<String, String>> checksumsOfParts =
        chosen ->
            objectChecksums.apply(
                chosen.stream().map(p -> new PartChecksums(p.sizeBytes(), p.checksums())).toList());
    return call(
        resource(bucket, key),
        () ->
            written(
                store.completeMultipartUpload(
                    bucket, key, uploadId, named, checksumsOfParts, toStore(condition))));
  }

  /** Discards an upload and its parts. */
  public void abortMultipartUpload(String bucket, String key, String uploadId) {
    run(resource(bucket, key), () -> store.abortMultipartUpload(bucket, key, uploadId));
  }

  /** Uploads in progress whose key starts with {@code prefix}. */
  public List<MultipartUpload> listMultipartUploads(String bucket, String prefix) {
    return call(
        "/" + bucket,
        () ->
            store.listMultipartUploads(bucket, prefix).stream()
                .map(u -> new MultipartUpload(u.key(), u.uploadId(), u.initiated()))
                .toList());
  }

  // ---- between the two views ----

  private static ObjectStore.PutOptions toStore(PutOptions options) {
    return new ObjectStore.PutOptions(
        options.contentType(),
        options.userMetadata(),
        options.checksums(),
        options.contentHeaders(),
        options.tags(),
        toStore(options.sse()));
  }

  /** The store's sealing for what a request asks (its copy-source key aside). */
  private static Sealing toStore(SseRequest sse) {
    if (sse.serverSide()) {
      return Sealing.S3_MANAGED;
    }
    return sse.customerKey() != null ? new Sealing.Customer(sse.customerKey()) : Sealing.NONE;
  }

  /**
   * The store's form of a condition. No condition stays the store's {@code NONE}, which spares the
   * store the lookup of the current version.
   */
  private static ObjectStore.WriteCondition toStore(WriteCondition condition) {
    if (condition == WriteCondition.NONE) {
      return ObjectStore.WriteCondition.NONE;
    }
    return current -> condition.check(current.map(VersionMeta::etag));
  }

  private static UploadedPart toS3(ObjectStore.PartInfo part) {
    return new UploadedPart(
        part.partNumber(), part.sizeBytes(), part.etag(), part.lastModified(), part.checksums());
  }

  private static String resource(String bucket, String key) {
    return "/" + bucket + "/" + key;
  }

  /**
   * The one translation of a failure into the S3 error a client receives (minio's {@code
   * toAPIError}): the bridge applies it to every store call, and the connection to whatever a
   * handler throws, so no other class maps errors.
   *
   * <ul>
   *   <li>An {@link S3Exception}, itself or as a cause (a write condition's refusal, a body's
   *       refusal), is the answer as it is.
   *   <li>A {@link StoreException} maps by its code; lost quorum is a 503 {@code
   *       ServiceUnavailable} that SDKs retry, a write lost to full repositories a 507 {@code
   *       XMinioStorageFull} that they do not. Those two and {@code InternalError} answer with
   *       their default message, never the store's (which names repositories); the others keep the
   *       store's message.
   *   <li>Overload ({@link RejectedExecutionException}) is {@code SlowDown}; a timeout or a
   *       cancellation is {@code ServiceUnavailable}.
   *   <li>Anything else is a bug: {@code InternalError}, with the cause attached for the server log
   *       and never shown to the client.
   * </ul>
   *
   * @param resource the resource to name in the error, unless it names one already; may be null
   */
  public static S3Exception translate(Throwable failure, String resource) {
    S3Exception translated = errorOf(failure);
    return translated.resource() == null && resource != null
        ? translated.withResource(resource)
        : translated;
  }

  /** {@link #translate(Throwable, String)} without a resource. */
  public static S3Exception translate(Throwable failure) {
    return translate(failure, null);
  }

  private static S3Exception errorOf(Throwable failure) {
    if (failure instanceof StoreException se) {
      return fromStore(se);
    }
    S3Exception carried = carried(failure);
    if (carried != null) {
      return carried;
    }
    Throwable t = unwrap(failure);
    if (t instanceof RejectedExecutionException) {
      return S3Exception.of(S3ErrorCode.SLOW_DOWN, null, t);
    }
    if (t instanceof TimeoutException) {
      return S3Exception.of(S3ErrorCode.SERVICE_UNAVAILABLE, null, t);
    }
    return S3Exception.of(S3ErrorCode.INTERNAL_ERROR, null, t);
  }

  /**
   * The message of the 503 a request gets when too few repositories answered (a read or write
   * quorum lost to outages or stalls): the cause, not S3's "reduce your request rate", which would
   * send a client looking in the wrong place; which repositories, only the operator is told.
   */
  static final String QUORUM_LOST =
      "Too few of the storage array's repositories are available to serve this request;"
          + " retry later.";

  /**
   * The message of the 503 a bucket create or delete gets while the proxy is not connected to
   * ZooKeeper: the cause, for the same reason as {@link #QUORUM_LOST}.
   */
  static final String COORDINATION_LOST =
      "This proxy is not connected to the coordination service, which bucket creates and deletes"
          + " need; retry later.";

  private static S3Exception fromStore(StoreException se) {
    S3ErrorCode code =
        switch (se.code()) {
          case NO_SUCH_BUCKET -> S3ErrorCode.NO_SUCH_BUCKET;
          case BUCKET_ALREADY_EXISTS -> S3ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU;
          case BUCKET_NOT_EMPTY -> S3ErrorCode.BUCKET_NOT_EMPTY;
          case NO_SUCH_KEY -> S3ErrorCode.NO_SUCH_KEY;
          case NO_SUCH_VERSION -> S3ErrorCode.NO_SUCH_VERSION;
          case NO_SUCH_UPLOAD -> S3ErrorCode.NO_SUCH_UPLOAD;
          case INVALID_PART -> S3ErrorCode.INVALID_PART;
          case INVALID_PART_ORDER -> S3ErrorCode.INVALID_PART_ORDER;
          case ENTITY_TOO_SMALL -> S3ErrorCode.ENTITY_TOO_SMALL;
          case INVALID_RANGE -> S3ErrorCode.INVALID_RANGE;
          case BAD_DIGEST -> S3ErrorCode.BAD_DIGEST;
          case INVALID_ARGUMENT -> S3ErrorCode.INVALID_ARGUMENT;
          case INSUFFICIENT_SHARDS, COORDINATION_UNAVAILABLE -> S3ErrorCode.SERVICE_UNAVAILABLE;
          case INSUFFICIENT_STORAGE -> S3ErrorCode.X_MINIO_STORAGE_FULL;
          case INCOMPLETE_BODY -> S3ErrorCode.INCOMPLETE_BODY;
          case INCONSISTENT -> S3ErrorCode.INTERNAL_ERROR;
          // MinIO answers a server-side-encryption request it has no key for with a 501.
          case ENCRYPTION_NOT_CONFIGURED -> S3ErrorCode.NOT_IMPLEMENTED;
          case CUSTOMER_KEY_REQUIRED, ENCRYPTION_MISMATCH -> S3ErrorCode.INVALID_REQUEST;
          case CUSTOMER_KEY_MISMATCH -> S3ErrorCode.ACCESS_DENIED;
        };
    String message =
        se.code() == StoreException.Code.INSUFFICIENT_SHARDS
            ? QUORUM_LOST
            : se.code() == StoreException.Code.COORDINATION_UNAVAILABLE
                ? COORDINATION_LOST
                // A 501 says what is not configured (harmless); other 5xx hide the store's words.
                : code.httpStatus() >= 500 && code != S3ErrorCode.NOT_IMPLEMENTED
                    ? code.defaultMessage()
                    : se.getMessage();
    if (se.code() == StoreException.Code.INSUFFICIENT_SHARDS) {
      // Which repositories failed, and how, is for the operator (it names them): the log and the
      // health report say it, the client gets the cause in general terms.
      LOG.debug("answering 503: {}", se.getMessage());
    }
    return S3Exception.of(code, message, se);
  }

  /**
   * The S3 error {@code failure} is or carries as a cause (a body's {@link IOException}, a future's
   * wrapper), or null.
   */
  private static S3Exception carried(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof S3Exception s3) {
        return s3;
      }
    }
    return null;
  }

  /**
   * The failure inside the wrappers of a future; a cancellation (a deadline's doing) counts as a
   * timeout.
   */
  private static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof CancellationException) {
      return new TimeoutException("cancelled");
    }
    return t;
  }

  /**
   * A request body on its way into the store, watched by the bridge. The S3 layer refuses a body
   * (its signature, checksum or size is wrong, or the client went away) by failing a read with the
   * S3 error to answer as the cause of an {@link IOException} (see {@code S3Request#body}). The
   * store knows no S3 errors: it turns any body failure into its own {@code INCOMPLETE_BODY} and
   * undoes the write. So the bridge notes the refusal as it passes, and when the store call then
   * fails, answers with it; the S3 error never has to travel through the store and be dug out of
   * its exception. A body failure that carries no S3 error is left to the store's answer.
   *
   * <p>The store reads a body on the calling thread; the field is volatile all the same, as the
   * contract does not promise it.
   */
  private static final class WatchedBody extends InputStream {
    private final InputStream body;
    private volatile S3Exception refusal;

    WatchedBody(InputStream body) {
      this.body = body;
    }

    @Override
    public int read() throws IOException {
      try {
        return body.read();
      } catch (IOException | RuntimeException e) {
        note(e);
        throw e;
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        return body.read(b, off, len);
      } catch (IOException | RuntimeException e) {
        note(e);
        throw e;
      }
    }

    @Override
    public long skip(long n) throws IOException {
      try {
        return body.skip(n);
      } catch (IOException | RuntimeException e) {
        note(e);
        throw e;
      }
    }

    @Override
    public int available() throws IOException {
      return body.available();
    }

    @Override
    public void close() throws IOException {
      body.close();
    }

    private void note(Exception failure) {
      if (refusal == null) {
        refusal = carried(failure);
      }
    }
  }
}
