package io.racs.proxy.s3.handler;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.s3.bridge.ObjectReader;
import io.racs.proxy.s3.bridge.ObjectVersion;
import io.racs.proxy.s3.bridge.PutOptions;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.bridge.WriteCondition;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.precondition.Preconditions;
import io.racs.proxy.s3.range.ByteRange;
import io.racs.proxy.s3.sse.SseRequest;
import io.racs.proxy.s3.tagging.TagSet;
import io.racs.proxy.s3.xml.S3XmlRequests;
import io.racs.proxy.s3.xml.S3XmlResponses;
import io.racs.proxy.s3.xml.XmlModel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The object family: PutObject, CopyObject, GetObject, HeadObject, DeleteObject, DeleteObjects. */
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
  private final Encryption encryption;
  private final BucketEncryptionHandler bucketDefaults;
  private final LifecycleHandler lifecycle;

  ObjectHandler(StoreBridge store) {
    this(store, Encryption.DEFAULT);
  }

  ObjectHandler(StoreBridge store, Encryption encryption) {
    this(store, encryption, null);
  }

  ObjectHandler(StoreBridge store, Encryption encryption, BucketEncryptionHandler bucketDefaults) {
    this(store, encryption, bucketDefaults, null);
  }

  /** With {@code lifecycle} (null for none) telling {@code x-amz-expiration}. */
  ObjectHandler(
      StoreBridge store,
      Encryption encryption,
      BucketEncryptionHandler bucketDefaults,
      LifecycleHandler lifecycle) {
    this.lifecycle = lifecycle;
    this.bucketDefaults = bucketDefaults;
    this.encryption = encryption;
    this.store = store;
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case PUT_OBJECT -> put(request);
      case COPY_OBJECT -> copy(request);
      case GET_OBJECT -> get(request, false);
      case HEAD_OBJECT -> get(request, true);
      case DELETE_OBJECT -> delete(request);
      case DELETE_OBJECTS -> deleteObjects(request);
      case GET_OBJECT_ATTRIBUTES -> attributes(request);
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
            Responses.putOptions(request).withSse(sse),
            Responses.writeCondition(request.headers()));
    S3Response response =
        S3Response.status(200).header("ETag", S3XmlResponses.quoteEtag(meta.etag()));
    Encryption.headers(response, meta.encryption(), sse.customerKey());
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
    Encryption.headers(response, copied.encryption(), sse.customerKey());
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
  private ObjectVersion addressedVersion(S3Request request) {
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
    ObjectVersion exact = addressedVersion(request);
    if (exact == null
        && !headOnly
        && request.headers().first("Range").isEmpty()
        && request.query().first("partNumber").isEmpty()) {
      return getWhole(request, customerKey);
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
    if (exact == null) {
      expirationHeader(response, request.bucket(), meta);
    }
    Encryption.headers(response, meta.encryption(), customerKey);
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
  private S3Response getWhole(S3Request request, CustomerKey customerKey) {
    ObjectReader reader = store.get(request.bucket(), request.key(), 0, -1, 0, customerKey);
    ObjectVersion meta = reader.version();
    try {
      Optional<S3Response> notModified = checkRead(request, meta);
      if (notModified.isPresent()) {
        reader.close();
        return notModified.get();
      }
    } catch (RuntimeException e) {
      reader.close();
      throw e;
    }
    boolean checksums =
        request.headers().first("x-amz-checksum-mode").orElse("").equalsIgnoreCase("ENABLED");
    S3Response response = S3Response.status(200);
    Responses.objectHeaders(response, meta, checksums);
    Responses.versionIdHeader(response, meta);
    expirationHeader(response, request.bucket(), meta);
    Encryption.headers(response, meta.encryption(), customerKey);
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

  /**
   * DeleteObject. Without bucket versioning the only version a key has is {@code null} (see {@link
   * Responses#requireNullVersion}), so {@code versionId=null} deletes the object exactly as a plain
   * DELETE does. Deleting any other version is refused rather than answered with a 204 that would
   * claim a version was removed: S3 would remove just that version and never the current object.
   */
  private S3Response delete(S3Request request) {
    Optional<String> version = request.query().first("versionId");
    if (version.isPresent() && store.versioned(request.bucket())) {
      if (request.headers().contains("if-match") || request.headers().contains("if-none-match")) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED,
            "A conditional delete of one version of an object is not implemented.");
      }
      Optional<ObjectVersion> removed =
          removeVersion(request.bucket(), request.key(), version.get());
      S3Response response = S3Response.status(204).header("x-amz-version-id", version.get());
      if (removed.isPresent() && removed.get().deleteMarker()) {
        response.header("x-amz-delete-marker", "true");
      }
      return response;
    }
    if (version.isPresent()) {
      Responses.refuseVersionIdIn(store, request.bucket());
      checkDeletableVersion(version.get());
    }
    Optional<ObjectVersion> marker =
        store.delete(request.bucket(), request.key(), Responses.writeCondition(request.headers()));
    S3Response response = S3Response.status(204);
    version.ifPresent(v -> response.header("x-amz-version-id", v));
    marker.ifPresent(
        m ->
            response
                .header("x-amz-delete-marker", "true")
                .header("x-amz-version-id", m.versionId()));
    return response;
  }

  /**
   * Removes one version of a key in a versioned bucket for good (a delete marker included: the
   * version before it is current again). A well-formed id the key has no version of changes nothing
   * and is answered as a success, as S3 answers it; a malformed one is {@code InvalidArgument}.
   * {@code null} removes the null version (written before versioning was turned on, or while it was
   * suspended).
   */
  private Optional<ObjectVersion> removeVersion(String bucket, String key, String versionId) {
    if (versionId.isEmpty()) {
      throw Responses.emptyVersionId();
    }
    if (!versionId.equals(Responses.NULL_VERSION) && !StoreBridge.wellFormedVersionId(versionId)) {
      throw S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Invalid version id specified")
          .withDetail("ArgumentName", "versionId")
          .withDetail("ArgumentValue", versionId);
    }
    return store.removeVersion(bucket, key, versionId);
  }

  /** Refuses a version delete other than of the {@code null} version (see {@link #delete}). */
  private static void checkDeletableVersion(String versionId) {
    if (versionId.isEmpty()) {
      throw Responses.emptyVersionId();
    }
    if (!versionId.equals(Responses.NULL_VERSION)) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED,
          "Deleting a version other than the null version needs bucket versioning, which is not"
              + " implemented.");
    }
  }

  private S3Response deleteObjects(S3Request request) throws IOException {
    if (!request.headers().contains("content-md5")
        && request.headers().asMap().keySet().stream()
            .noneMatch(
                h ->
                    h.toLowerCase(java.util.Locale.ROOT).startsWith("x-amz-checksum-")
                        || h.equalsIgnoreCase("x-amz-sdk-checksum-algorithm"))) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST,
          "Missing required header for this request: Content-MD5 or x-amz-checksum-*");
    }
    byte[] body = readXml(request);
    XmlModel.DeleteRequest delete = S3XmlRequests.deleteObjects(body);
    // A missing bucket fails the whole request before any object is deleted.
    boolean versioned =
        delete.objects().stream().anyMatch(o -> o.versionId() != null)
            && store.versioned(request.bucket());
    List<XmlModel.Deleted> deleted = new ArrayList<>();
    List<XmlModel.DeleteError> errors = new ArrayList<>();
    for (XmlModel.ObjectIdentifier object : delete.objects()) {
      try {
        if (object.versionId() != null && versioned) {
          if (object.etag() != null || object.unsupportedCondition() != null) {
            throw S3Exception.of(
                S3ErrorCode.NOT_IMPLEMENTED,
                "A conditional delete of one version of an object is not implemented.");
          }
          Optional<ObjectVersion> removed =
              removeVersion(request.bucket(), object.key(), object.versionId());
          boolean marker = removed.isPresent() && removed.get().deleteMarker();
          if (!delete.quiet()) {
            deleted.add(
                new XmlModel.Deleted(
                    object.key(), object.versionId(), marker, marker ? object.versionId() : null));
          }
          continue;
        }
        if (object.versionId() != null) {
          checkDeletableVersion(object.versionId());
        }
        if (object.unsupportedCondition() != null) {
          throw S3Exception.of(
              S3ErrorCode.NOT_IMPLEMENTED,
              "The " + object.unsupportedCondition() + " condition is not implemented.");
        }
        Optional<ObjectVersion> marker =
            store.delete(
                request.bucket(),
                object.key(),
                object.etag() == null
                    ? WriteCondition.NONE
                    : Responses.writeCondition(Headers.of("if-match", object.etag())));
        if (!delete.quiet()) {
          deleted.add(
              new XmlModel.Deleted(
                  object.key(),
                  object.versionId(),
                  marker.isPresent(),
                  marker.map(ObjectVersion::versionId).orElse(null)));
        }
      } catch (S3Exception e) {
        errors.add(
            new XmlModel.DeleteError(
                object.key(), object.versionId(), e.code().code(), e.getMessage()));
      }
    }
    return S3Response.xml(S3XmlResponses.deleteResult(deleted, errors));
  }

  /** The attributes GetObjectAttributes can be asked for, as S3 spells them. */
  private static final List<String> OBJECT_ATTRIBUTES =
      List.of("ETag", "Checksum", "ObjectParts", "StorageClass", "ObjectSize");

  /**
   * GetObjectAttributes: the attributes named in {@code x-amz-object-attributes} (comma-separated,
   * at least one) of the current object. {@code ObjectParts} is answered for a multipart object
   * only, as S3 does, a page of up to {@code x-amz-max-parts} (default and cap 1,000) parts after
   * {@code x-amz-part-number-marker}; {@code Checksum} only when the object was stored with one.
   */
  private S3Response attributes(S3Request request) {
    java.util.Set<String> wanted = new java.util.HashSet<>();
    for (String value : request.headers().all("x-amz-object-attributes")) {
      for (String name : value.split(",")) {
        String attribute = name.strip();
        if (!OBJECT_ATTRIBUTES.contains(attribute)) {
          throw invalidAttribute(attribute);
        }
        wanted.add(attribute);
      }
    }
    if (wanted.isEmpty()) {
      throw invalidAttribute("");
    }
    int maxParts = headerInt(request, "x-amz-max-parts", 1_000);
    int marker = headerInt(request, "x-amz-part-number-marker", 0);
    CustomerKey customerKey =
        encryption.parse(request, SseRequest.Allowed.CUSTOMER_KEY).customerKey();
    ObjectVersion exact = addressedVersion(request);
    ObjectVersion meta = exact != null ? exact : store.head(request.bucket(), request.key());
    // As HEAD: an object sealed with a customer's key tells nothing of itself without that key.
    store.checkKey(meta, customerKey);
    java.util.Map<io.racs.proxy.s3.checksum.ChecksumAlgorithm, String> checksum = null;
    String checksumType = null;
    if (wanted.contains("Checksum") && !meta.checksums().isEmpty()) {
      checksum = Responses.typedChecksums(meta.checksums());
      checksumType =
          checksum.values().stream()
                  .anyMatch(v -> io.racs.proxy.s3.checksum.ChecksumType.ofValue(v).isComposite())
              ? "COMPOSITE"
              : "FULL_OBJECT";
    }
    List<XmlModel.AttributePart> parts = null;
    int next = 0;
    boolean truncated = false;
    if (wanted.contains("ObjectParts") && meta.multipart()) {
      parts = new ArrayList<>();
      for (int n = marker + 1; n <= meta.partCount(); n++) {
        if (parts.size() == maxParts) {
          truncated = true;
          break;
        }
        parts.add(
            new XmlModel.AttributePart(
                n, meta.partSizeBytes(n), Responses.typedChecksums(meta.partChecksums(n))));
        next = n;
      }
    }
    XmlModel.ObjectAttributes answer =
        new XmlModel.ObjectAttributes(
            wanted.contains("ETag") ? meta.etag() : null,
            checksum,
            checksumType,
            parts,
            meta.partCount(),
            marker,
            next,
            maxParts,
            truncated,
            wanted.contains("StorageClass") ? "STANDARD" : null,
            wanted.contains("ObjectSize") ? meta.sizeBytes() : null);
    S3Response response =
        S3Response.xml(S3XmlResponses.objectAttributes(answer))
            .header("Last-Modified", Responses.httpDate(meta.lastModified()));
    Responses.versionIdHeader(response, meta);
    return response;
  }

  private static S3Exception invalidAttribute(String name) {
    return S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Invalid attribute name specified.")
        .withDetail("ArgumentName", "x-amz-object-attributes")
        .withDetail("ArgumentValue", name);
  }

  /** A non-negative integer header ({@code x-amz-max-parts} caps at 1,000, as S3 does). */
  private static int headerInt(S3Request request, String name, int fallback) {
    Optional<String> value = request.headers().first(name);
    if (value.isEmpty()) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value.get().strip());
      if (parsed < 0) {
        throw new NumberFormatException();
      }
      return name.equals("x-amz-max-parts") ? Math.min(parsed, 1_000) : parsed;
    } catch (NumberFormatException e) {
      throw S3Exception.of(
              S3ErrorCode.INVALID_ARGUMENT,
              "Provided " + name + " not an integer or within integer range")
          .withDetail("ArgumentName", name)
          .withDetail("ArgumentValue", value.get());
    }
  }

  /** Reads a small XML body; a body over the cap is MaxMessageLengthExceeded. */
  static byte[] readXml(S3Request request) throws IOException {
    try {
      return request.readSmallBody(S3XmlRequests.DEFAULT_MAX_BODY_BYTES);
    } catch (IOException e) {
      if (e.getCause() instanceof S3Exception s3) {
        throw s3;
      }
      throw S3Exception.of(S3ErrorCode.MAX_MESSAGE_LENGTH_EXCEEDED, "Your request was too big.");
    }
  }
}
