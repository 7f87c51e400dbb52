package io.racs.proxy.s3.bridge;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.store.ObjectStore;
import io.racs.proxy.store.PartMeta;
import io.racs.proxy.store.StoreException;
import io.racs.proxy.store.VersionMeta;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one bridge between the S3 layer and the object store: every handler call into the store goes
 * through here, and every store failure comes back as the S3 error a client expects, translated in
 * one place ({@link #translate}): lost quorum is a 503 {@code ServiceUnavailable} that SDKs retry,
 * a write lost to full repositories a 507 {@code XMinioStorageFull} that they do not.
 *
 * <p>A request body the S3 layer refuses while the store reads it (a signature, checksum or size
 * that is wrong) keeps the error the S3 layer raised: the bridge hands the store a watched body and
 * recognises the refusal itself when the store call fails, so the error does not travel through the
 * store (see {@link WatchedBody}).
 */
public final class StoreBridge {
  private final ObjectStore store;

  /** Bridges to {@code store}. */
  public StoreBridge(ObjectStore store) {
    this.store = store;
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

  public List<ObjectStore.BucketInfo> listBuckets() {
    return call("/", store::listBuckets);
  }

  public void createBucket(String bucket) {
    run("/" + bucket, () -> store.createBucket(bucket));
  }

  public void deleteBucket(String bucket) {
    run("/" + bucket, () -> store.deleteBucket(bucket));
  }

  public boolean bucketExists(String bucket) {
    return call("/" + bucket, () -> store.bucketExists(bucket));
  }

  public VersionMeta put(
      String bucket, String key, InputStream body, long length, ObjectStore.PutOptions options) {
    WatchedBody watched = new WatchedBody(body);
    return call(
        resource(bucket, key), watched, () -> store.put(bucket, key, watched, length, options));
  }

  public VersionMeta head(String bucket, String key) {
    return call(resource(bucket, key), () -> store.head(bucket, key));
  }

  public ObjectStore.ObjectReader get(
      String bucket, String key, long offset, long length, int partNumber) {
    return call(resource(bucket, key), () -> store.get(bucket, key, offset, length, partNumber));
  }

  public ObjectStore.ObjectReader read(VersionMeta version, long offset, long length) {
    return call(
        resource(version.bucket(), version.key()), () -> store.read(version, offset, length));
  }

  public void delete(String bucket, String key) {
    run(resource(bucket, key), () -> store.delete(bucket, key));
  }

  public ObjectStore.ListResult list(String bucket, ObjectStore.ListRequest request) {
    return call("/" + bucket, () -> store.list(bucket, request));
  }

  public VersionMeta copy(
      String sourceBucket,
      String sourceKey,
      String bucket,
      String key,
      ObjectStore.PutOptions replace) {
    return call(
        resource(bucket, key), () -> store.copy(sourceBucket, sourceKey, bucket, key, replace));
  }

  public String createMultipartUpload(String bucket, String key, ObjectStore.PutOptions options) {
    return call(resource(bucket, key), () -> store.createMultipartUpload(bucket, key, options));
  }

  public ObjectStore.PartInfo uploadPart(
      String bucket,
      String key,
      String uploadId,
      int partNumber,
      InputStream body,
      long length,
      Supplier<Map<String, String>> checksums) {
    WatchedBody watched = new WatchedBody(body);
    return call(
        resource(bucket, key),
        watched,
        () -> store.uploadPart(bucket, key, uploadId, partNumber, watched, length, checksums));
  }

  public List<ObjectStore.PartInfo> listParts(String bucket, String key, String uploadId) {
    return call(resource(bucket, key), () -> store.listParts(bucket, key, uploadId));
  }

  public VersionMeta completeMultipartUpload(
      String bucket,
      String key,
      String uploadId,
      List<ObjectStore.CompletedPart> parts,
      Function<List<PartMeta>, Map<String, String>> objectChecksums) {
    return call(
        resource(bucket, key),
        () -> store.completeMultipartUpload(bucket, key, uploadId, parts, objectChecksums));
  }

  public void abortMultipartUpload(String bucket, String key, String uploadId) {
    run(resource(bucket, key), () -> store.abortMultipartUpload(bucket, key, uploadId));
  }

  public List<ObjectStore.UploadInfo> listMultipartUploads(String bucket, String prefix) {
    return call("/" + bucket, () -> store.listMultipartUploads(bucket, prefix));
  }

  // Conditional writes: the store checks the condition right before the write commits; an
  // S3Exception the condition throws comes back unchanged.

  public VersionMeta put(
      String bucket,
      String key,
      InputStream body,
      long length,
      ObjectStore.PutOptions options,
      ObjectStore.WriteCondition condition) {
    WatchedBody watched = new WatchedBody(body);
    return call(
        resource(bucket, key),
        watched,
        () -> store.put(bucket, key, watched, length, options, condition));
  }

  public void delete(String bucket, String key, ObjectStore.WriteCondition condition) {
    run(resource(bucket, key), () -> store.delete(bucket, key, condition));
  }

  public VersionMeta copy(
      String sourceBucket,
      String sourceKey,
      String bucket,
      String key,
      ObjectStore.PutOptions replace,
      ObjectStore.WriteCondition condition) {
    return call(
        resource(bucket, key),
        () -> store.copy(sourceBucket, sourceKey, bucket, key, replace, condition));
  }

  public VersionMeta completeMultipartUpload(
      String bucket,
      String key,
      String uploadId,
      List<ObjectStore.CompletedPart> parts,
      Function<List<PartMeta>, Map<String, String>> objectChecksums,
      ObjectStore.WriteCondition condition) {
    return call(
        resource(bucket, key),
        () ->
            store.completeMultipartUpload(
                bucket, key, uploadId, parts, objectChecksums, condition));
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

  private static S3Exception fromStore(StoreException se) {
    S3ErrorCode code =
        switch (se.code()) {
          case NO_SUCH_BUCKET -> S3ErrorCode.NO_SUCH_BUCKET;
          case BUCKET_ALREADY_EXISTS -> S3ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU;
          case BUCKET_NOT_EMPTY -> S3ErrorCode.BUCKET_NOT_EMPTY;
          case NO_SUCH_KEY -> S3ErrorCode.NO_SUCH_KEY;
          case NO_SUCH_UPLOAD -> S3ErrorCode.NO_SUCH_UPLOAD;
          case INVALID_PART -> S3ErrorCode.INVALID_PART;
          case INVALID_PART_ORDER -> S3ErrorCode.INVALID_PART_ORDER;
          case ENTITY_TOO_SMALL -> S3ErrorCode.ENTITY_TOO_SMALL;
          case INVALID_RANGE -> S3ErrorCode.INVALID_RANGE;
          case BAD_DIGEST -> S3ErrorCode.BAD_DIGEST;
          case INVALID_ARGUMENT -> S3ErrorCode.INVALID_ARGUMENT;
          case INSUFFICIENT_SHARDS -> S3ErrorCode.SERVICE_UNAVAILABLE;
          case INSUFFICIENT_STORAGE -> S3ErrorCode.X_MINIO_STORAGE_FULL;
          case INCOMPLETE_BODY -> S3ErrorCode.INCOMPLETE_BODY;
          case INCONSISTENT -> S3ErrorCode.INTERNAL_ERROR;
        };
    String message =
        code == S3ErrorCode.SERVICE_UNAVAILABLE
                || code == S3ErrorCode.INTERNAL_ERROR
                || code == S3ErrorCode.X_MINIO_STORAGE_FULL
            ? code.defaultMessage()
            : se.getMessage();
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
