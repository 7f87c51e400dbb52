package io.racs.proxy.s3.handler;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.s3.bridge.ObjectReader;
import io.racs.proxy.s3.bridge.ObjectVersion;
import io.racs.proxy.s3.bridge.PutOptions;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.bridge.VersionLock;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.precondition.Preconditions;
import io.racs.proxy.s3.range.ByteRange;
import io.racs.proxy.s3.sse.SseRequest;
import io.racs.proxy.s3.tagging.TagSet;
import io.racs.proxy.s3.xml.S3XmlResponses;
import io.racs.proxy.s3.xml.SafeXmlParser;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The object family: PutObject, CopyObject, GetObject and HeadObject here, with the version a read
 * or copy addresses; DeleteObject and DeleteObjects in {@link ObjectDeleteHandler},
 * GetObjectAttributes in {@link ObjectAttributesHandler}.
 */
final class ObjectHandler {
  private static final Map<String, String> RESPONSE_OVERRIDES =
      Map.of(
          "response-content-type", "Content-Type",
          "response-content-language", "Content-Language",
          "response-expires", "Expires",
          "response-cache-control", "Cache-Control",
          "response-content-disposition", "Content-Disposition",
          "response-content-encoding", "Content-Encoding");

  private final StoreBridge store;
  private final SsePolicy encryption;
  private final BucketEncryptionHandler bucketDefaults;
  private final LifecycleHandler lifecycle;
  private final ObjectDeleteHandler deletes;
  private final ObjectAttributesHandler attributes;
  private final ObjectLockHandler locks;

  ObjectHandler(StoreBridge store) {
    this(store, SsePolicy.DEFAULT);
  }

  ObjectHandler(StoreBridge store, SsePolicy encryption) {
    this(store, encryption, null);
  }

  ObjectHandler(StoreBridge store, SsePolicy encryption, BucketEncryptionHandler bucketDefaults) {
    this(store, encryption, bucketDefaults, null);
  }

  /** With {@code lifecycle} (null for none) telling {@code x-amz-expiration}. */
  ObjectHandler(
      StoreBridge store,
      SsePolicy encryption,
      BucketEncryptionHandler bucketDefaults,
      LifecycleHandler lifecycle) {
    this.lifecycle = lifecycle;
    this.bucketDefaults = bucketDefaults;
    this.encryption = encryption;
    this.store = store;
    this.deletes = new ObjectDeleteHandler(store);
    this.locks = new ObjectLockHandler(store);
    this.attributes = new ObjectAttributesHandler(store, encryption);
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case PUT_OBJECT -> put(request);
      case COPY_OBJECT -> copy(request);
      case GET_OBJECT -> get(request, false);
      case HEAD_OBJECT -> get(request, true);
      case DELETE_OBJECT -> deletes.delete(request);
      case DELETE_OBJECTS -> deletes.deleteObjects(request);
      case GET_OBJECT_ATTRIBUTES -> attributes.attributes(request);
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  private S3Response put(S3Request request) {
    SseRequest sse = encryption.forWrite(request, SseRequest.Allowed.WRITE, bucketDefaults);
    checkWriteConditions(request);
    ObjectVersion meta =
        store.put(
            request.bucket(),
            request.key(),
            request.body(),
            request.contentLength(),
            Responses.putOptions(request).withSse(sse).withLock(locks.forWrite(request)),
            Responses.writeCondition(request.headers()));
    S3Response response =
        S3Response.status(200).header("ETag", S3XmlResponses.quoteEtag(meta.etag()));
    SsePolicy.headers(response, meta.encryption(), sse.customerKey());
    Responses.checksumHeaders(response, meta.checksums());
    Responses.writtenVersionIdHeader(response, meta);
    expirationHeader(response, request.bucket(), meta);
    return response;
  }

  /** {@code x-amz-expiration} of the current version {@code meta}, when a rule applies. */
  private void expirationHeader(S3Response response, String bucket, ObjectVersion meta) {
    if (lifecycle != null) {
      lifecycle.expirationHeader(response, bucket, meta);
    }
  }

  /**
   * Checks a write's conditions before its body is read, so that a write bound to fail does not
   * upload first; the store checks them again right before the commit.
   */
  private void checkWriteConditions(S3Request request) {
    if (request.headers().contains("if-match") || request.headers().contains("if-none-match")) {
      Optional<String> current;
      try {
        current = Optional.of(store.head(request.bucket(), request.key()).etag());
      } catch (S3Exception e) {
        if (e.code() != S3ErrorCode.NO_SUCH_KEY) {
          throw e;
        }
        current = Optional.empty();
      }
      Preconditions.checkWrite(request.headers(), current);
    }
  }

  private S3Response copy(S3Request request) {
    SseRequest sse = encryption.forWrite(request, SseRequest.Allowed.COPY, bucketDefaults);
    Responses.CopySource source = Responses.copySource(request.headers());
    ObjectVersion sourceMeta = copySourceVersion(store, source);
    store.checkKey(sourceMeta, sse.copySourceKey());
    Preconditions.checkCopySource(request.headers(), sourceMeta.etag(), sourceMeta.lastModified());
    String directive = request.headers().first("x-amz-metadata-directive").orElse("COPY");
    boolean replaceTags = replaceTags(request);
    TagSet tags = replaceTags ? Responses.tagging(request) : TagSet.stored(sourceMeta.tags());
    PutOptions replace;
    if (directive.equalsIgnoreCase("REPLACE")) {
      replace =
          new PutOptions(
              request.headers().first("Content-Type").orElse(null),
              Responses.userMetadata(request.headers()),
              sourceMeta::checksums,
              Responses.contentHeaders(request.headers()),
              tags.asMap());
    } else if (directive.equalsIgnoreCase("COPY")) {
      // Tags set after the source was written are not in its record: they are passed on as well.
      replace =
          replaceTags || sourceMeta.tagsChanged()
              ? new PutOptions(
                  sourceMeta.contentType(),
                  sourceMeta.userMetadata(),
                  sourceMeta::checksums,
                  sourceMeta.contentHeaders(),
                  tags.asMap())
              : null;
      // Copying an older version onto its own key is how S3 restores it; the current one is not.
      boolean namedVersion = source.versionId() != null && sourceMeta.versionId() != null;
      if (!namedVersion
          && !sse.serverSide()
          && sse.customerKey() == null
          && source.bucket().equals(request.bucket())
          && source.key().equals(request.key())) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST,
            "This copy request is illegal because it is trying to copy an object to itself"
                + " without changing the object's metadata, storage class, website redirect"
                + " location or encryption attributes.");
      }
    } else {
      throw S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Unknown metadata directive.");
    }
    VersionLock lock = locks.forWrite(request);
    if (lock != null && replace == null) {
      replace =
          new PutOptions(
              sourceMeta.contentType(),
              sourceMeta.userMetadata(),
              sourceMeta::checksums,
              sourceMeta.contentHeaders(),
              tags.asMap());
    }
    replace = replace == null ? null : replace.withLock(lock);
    checkWriteConditions(request);
    // Exactly the version whose conditions and key were just checked.
    ObjectVersion copied =
        store.copy(
            sourceMeta,
            request.bucket(),
            request.key(),
            replace,
            sse,
            Responses.writeCondition(request.headers()));
    S3Response response =
        S3Response.xml(
            S3XmlResponses.copyObject(
                copied.lastModified(),
                copied.etag(),
                Responses.typedChecksums(copied.checksums())));
    Responses.writtenVersionIdHeader(response, copied);
    expirationHeader(response, request.bucket(), copied);
    SsePolicy.headers(response, copied.encryption(), sse.customerKey());
    Responses.copySourceVersionHeader(response, source, sourceMeta);
    return response;
  }

  /**
   * Whether a copy takes its tags from {@code x-amz-tagging} ({@code x-amz-tagging-directive:
   * REPLACE}) or from the source (COPY, the default). With COPY an {@code x-amz-tagging} header
   * would be ignored, so it is refused.
   */
  private static boolean replaceTags(S3Request request) {
    String directive = request.headers().first("x-amz-tagging-directive").orElse("COPY");
    if (directive.equalsIgnoreCase("REPLACE")) {
      return true;
    }
    if (!directive.equalsIgnoreCase("COPY")) {
      throw S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Unknown tagging directive.")
          .withDetail("ArgumentName", "x-amz-tagging-directive")
          .withDetail("ArgumentValue", directive);
    }
    if (request.headers().contains("x-amz-tagging")) {
      throw S3Exception.of(
              S3ErrorCode.INVALID_ARGUMENT,
              "x-amz-tagging is used only with x-amz-tagging-directive REPLACE on a copy.")
          .withDetail("ArgumentName", "x-amz-tagging");
    }
    return false;
  }

  /**
   * The version a read's {@code versionId} names in a versioned bucket (a delete marker is {@code
   * 405 MethodNotAllowed}, as on S3); null when the request names none, or names the {@code null}
   * version of a bucket that never kept versions (the current object then).
   */
  static ObjectVersion addressedVersion(StoreBridge store, S3Request request) {
    Optional<String> version = request.query().first("versionId");
    // A missing bucket is reported as such before the version it would hold.
    if (version.isPresent() && store.versioned(request.bucket())) {
      ObjectVersion exact = exactVersion(store, request.bucket(), request.key(), version.get());
      if (exact.deleteMarker()) {
        throw S3Exception.of(S3ErrorCode.METHOD_NOT_ALLOWED)
            .withHeader("x-amz-delete-marker", "true")
            .withHeader("x-amz-version-id", exact.versionId())
            .withHeader("Last-Modified", Responses.httpDate(exact.lastModified()));
      }
      return exact;
    }
    if (version.isPresent() && !version.get().equals(Responses.NULL_VERSION)) {
      if (!store.bucketExists(request.bucket())) {
        throw S3Exception.of(S3ErrorCode.NO_SUCH_BUCKET).withDetail("BucketName", request.bucket());
      }
      Responses.requireNullVersion(request.key(), version.get());
    }
    return null;
  }

  private S3Response get(S3Request request, boolean headOnly) {
    CustomerKey customerKey =
        encryption.parse(request, SseRequest.Allowed.CUSTOMER_KEY).customerKey();
    // In a bucket with object lock, the key's lock records are read beside its version.
    Function<ObjectVersion, Optional<VersionLock>> lockLookup = locks.lookup(request);
    ObjectVersion exact = addressedVersion(store, request);
    if (exact == null
        && !headOnly
        && request.headers().first("Range").isEmpty()
        && request.query().first("partNumber").isEmpty()) {
      return getWhole(request, customerKey, lockLookup);
    }
    ObjectVersion meta = exact != null ? exact : store.head(request.bucket(), request.key());
    store.checkKey(meta, customerKey);
    Optional<S3Response> notModified = checkRead(request, meta);
    if (notModified.isPresent()) {
      return notModified.get();
    }
    int partNumber = Responses.intParam(request, "partNumber", 0, 1, 10_000);
    Optional<ByteRange> range = Optional.empty();
    long start = 0;
    long length = meta.sizeBytes();
    if (partNumber > 0) {
      // A delete marker or an empty object has no parts, and still answers part 1 (empty).
      long[] part =
          partNumber == 1 && meta.partCount() == 0
              ? new long[] {0, 0}
              : meta.partRange(partNumber)
                  .orElseThrow(
                      () ->
                          S3Exception.of(
                                  S3ErrorCode.INVALID_RANGE,
                                  "The requested partnumber is not satisfiable")
                              .withDetail("PartNumberRequested", Integer.toString(partNumber))
                              .withDetail("ActualPartCount", Integer.toString(meta.partCount())));
      start = part[0];
      length = part[1];
      if (length > 0) {
        range = Optional.of(new ByteRange(start, start + length - 1));
      }
    } else {
      Optional<String> header = request.headers().first("Range");
      if (header.isPresent()) {
        range = ByteRange.parse(header.get(), meta.sizeBytes());
        if (range.isPresent()) {
          start = range.get().first();
          length = range.get().lengthBytes();
        }
      }
    }
    boolean checksums =
        range.isEmpty()
            && request
                .headers()
                .first("x-amz-checksum-mode")
                .orElse("")
                .equalsIgnoreCase("ENABLED");
    S3Response response = S3Response.status(range.isPresent() ? 206 : 200);
    Responses.objectHeaders(response, meta, checksums);
    Responses.versionIdHeader(response, meta);
    ObjectLockHandler.headers(response, lockLookup, meta);
    if (exact == null) {
      expirationHeader(response, request.bucket(), meta);
    }
    SsePolicy.headers(response, meta.encryption(), customerKey);
    range.ifPresent(r -> response.header("Content-Range", r.contentRange(meta.sizeBytes())));
    overrideHeaders(request, response);
    if (headOnly) {
      return response.stream(java.io.InputStream.nullInputStream(), length, () -> {});
    }
    // The version whose headers were just chosen, not whatever is newest by now.
    ObjectReader reader = length == 0 ? null : store.read(meta, start, length, customerKey);
    if (reader == null) {
      return response.stream(java.io.InputStream.nullInputStream(), 0, () -> {});
    }
    return response.stream(reader.body(), reader.rangeLength(), reader::close);
  }

  /**
   * The version a copy (CopyObject, UploadPartCopy) reads: the one its source names by {@code
   * versionId} in a versioned bucket (a delete marker is refused, as S3 refuses it), else the
   * current one.
   */
  static ObjectVersion copySourceVersion(StoreBridge store, Responses.CopySource source) {
    if (source.versionId() != null && store.versioned(source.bucket())) {
      ObjectVersion exact = exactVersion(store, source.bucket(), source.key(), source.versionId());
      if (exact.deleteMarker()) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_REQUEST,
            "The source of a copy request may not specifically refer to a delete marker by"
                + " version id.");
      }
      return exact;
    }
    source.checkVersion(store);
    return store.head(source.bucket(), source.key());
  }

  /**
   * The version a GET, HEAD or copy source names in a versioned bucket, a delete marker included,
   * judged by the store's visibility rule: {@code NoSuchVersion} when the key has none of that id.
   * {@code null} names the null version (written before versioning was turned on, or while it was
   * suspended).
   */
  static ObjectVersion exactVersion(
      StoreBridge store, String bucket, String key, String versionId) {
    if (versionId.isEmpty()) {
      throw Responses.emptyVersionId();
    }
    try {
      return store.version(bucket, key, versionId);
    } catch (S3Exception e) {
      if (e.code() == S3ErrorCode.NO_SUCH_VERSION) {
        throw e.withDetail("Key", key).withDetail("VersionId", versionId);
      }
      throw e;
    }
  }

  /**
   * A GET of a whole object opens the body together with the version lookup (the store can then
   * overlap the two), and checks the preconditions against the version it opened.
   */
  private S3Response getWhole(
      S3Request request,
      CustomerKey customerKey,
      Function<ObjectVersion, Optional<VersionLock>> lockLookup) {
    ObjectReader reader = store.get(request.bucket(), request.key(), 0, -1, 0, customerKey);
    ObjectVersion meta = reader.version();
    S3Response response = S3Response.status(200);
    try {
      Optional<S3Response> notModified = checkRead(request, meta);
      if (notModified.isPresent()) {
        reader.close();
        return notModified.get();
      }
      ObjectLockHandler.headers(response, lockLookup, meta);
    } catch (RuntimeException e) {
      reader.close();
      throw e;
    }
    boolean checksums =
        request.headers().first("x-amz-checksum-mode").orElse("").equalsIgnoreCase("ENABLED");
    Responses.objectHeaders(response, meta, checksums);
    Responses.versionIdHeader(response, meta);
    expirationHeader(response, request.bucket(), meta);
    SsePolicy.headers(response, meta.encryption(), customerKey);
    overrideHeaders(request, response);
    return response.stream(reader.body(), reader.rangeLength(), reader::close);
  }

  /**
   * Evaluates the conditional headers of a GET or HEAD against {@code meta}: a failed condition
   * throws ({@code PreconditionFailed}), a not-modified one is the 304 answer returned here. A 304
   * carries the headers its 200 would have carried that let a cache update its copy: the validators
   * ETag and Last-Modified (as S3 sends them) and Cache-Control and Expires (RFC 9110 15.4.5).
   */
  private static Optional<S3Response> checkRead(S3Request request, ObjectVersion meta) {
    try {
      Preconditions.checkRead(request.headers(), meta.etag(), meta.lastModified());
      return Optional.empty();
    } catch (S3Exception e) {
      if (e.code() != S3ErrorCode.NOT_MODIFIED) {
        throw e;
      }
      S3Response response =
          S3Response.status(304)
              .header("ETag", S3XmlResponses.quoteEtag(meta.etag()))
              .header("Last-Modified", Responses.httpDate(meta.lastModified()))
              .header("Cache-Control", meta.contentHeaders().get("Cache-Control"))
              .header("Expires", meta.contentHeaders().get("Expires"));
      return Optional.of(response);
    }
  }

  /**
   * The {@code response-*} query parameters replace the headers they name. S3 honours them only on
   * signed requests (a header or a presigned URL); every request the proxy serves is signed, as it
   * allows no anonymous access.
   */
  private static void overrideHeaders(S3Request request, S3Response response) {
    for (Map.Entry<String, String> override : RESPONSE_OVERRIDES.entrySet()) {
      request
          .query()
          .first(override.getKey())
          .ifPresent(v -> response.setHeader(override.getValue(), v));
    }
  }

  /** Reads a small XML body; a body over the cap is MaxMessageLengthExceeded. */
  static byte[] readXml(S3Request request) throws IOException {
    try {
      return request.readSmallBody(SafeXmlParser.DEFAULT_MAX_BODY_BYTES);
    } catch (IOException e) {
      if (e.getCause() instanceof S3Exception s3) {
        throw s3;
      }
      throw S3Exception.of(S3ErrorCode.MAX_MESSAGE_LENGTH_EXCEEDED, "Your request was too big.");
    }
  }
}
