package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.bridge.BucketDocument;
import io.racs.proxy.s3.bridge.ObjectVersion;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.tagging.TagSet;
import io.racs.proxy.s3.xml.TaggingRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The tagging family: Put, Get and DeleteBucketTagging, and Put, Get and DeleteObjectTagging.
 *
 * <p>A bucket's tag set is stored as the document {@link TagSet#toXml()} renders from the validated
 * tags, so what GetBucketTagging returns is what was checked.
 */
final class TaggingHandler {
  private final StoreBridge store;

  TaggingHandler(StoreBridge store) {
    this.store = store;
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case PUT_BUCKET_TAGGING -> putBucket(request);
      case GET_BUCKET_TAGGING -> getBucket(request);
      case DELETE_BUCKET_TAGGING -> {
        store.deleteBucketDocument(request.bucket(), BucketDocument.TAGGING);
        yield S3Response.status(204);
      }
      case GET_OBJECT_TAGGING -> getObject(request);
      case PUT_OBJECT_TAGGING -> putObject(request);
      case DELETE_OBJECT_TAGGING -> {
        ObjectVersion version = version(request);
        store.putObjectTagging(version, Map.of());
        S3Response response = S3Response.status(204);
        Responses.versionIdHeader(response, version);
        yield response;
      }
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  private S3Response putBucket(S3Request request) throws IOException {
    TagSet tags =
        TagSet.of(TaggingRequest.parse(ObjectHandler.readXml(request)), TagSet.MAX_BUCKET_TAGS);
    store.putBucketDocument(
        request.bucket(), BucketDocument.TAGGING, new String(tags.toXml(), StandardCharsets.UTF_8));
    return S3Response.status(204);
  }

  /**
   * The tags of the current version, or of the version {@code versionId} names in a versioned
   * bucket (a delete marker has none: 405, as S3 answers).
   */
  private S3Response getObject(S3Request request) {
    ObjectVersion version = version(request);
    S3Response response = S3Response.xml(TagSet.stored(version.tags()).toXml());
    Responses.versionIdHeader(response, version);
    return response;
  }

  /**
   * Replaces the tags of the current version, or of the version {@code versionId} names; the body
   * is checked before anything is looked up or written.
   */
  private S3Response putObject(S3Request request) throws IOException {
    TagSet tags =
        TagSet.of(TaggingRequest.parse(ObjectHandler.readXml(request)), TagSet.MAX_OBJECT_TAGS);
    ObjectVersion version = version(request);
    store.putObjectTagging(version, tags.asMap());
    S3Response response = S3Response.status(200);
    Responses.versionIdHeader(response, version);
    return response;
  }

  private ObjectVersion version(S3Request request) {
    Optional<String> versionId = request.query().first("versionId");
    if (versionId.isPresent() && store.versioned(request.bucket())) {
      ObjectVersion exact =
          ObjectHandler.exactVersion(store, request.bucket(), request.key(), versionId.get());
      if (exact.deleteMarker()) {
        throw S3Exception.of(S3ErrorCode.METHOD_NOT_ALLOWED)
            .withHeader("x-amz-delete-marker", "true")
            .withHeader("x-amz-version-id", exact.versionId());
      }
      return exact;
    }
    if (versionId.isPresent()) {
      Responses.requireNullVersion(request.key(), versionId.get());
    }
    return store.head(request.bucket(), request.key());
  }

  private S3Response getBucket(S3Request request) {
    String document =
        store
            .bucketDocument(request.bucket(), BucketDocument.TAGGING)
            .orElseThrow(
                () ->
                    S3Exception.of(S3ErrorCode.NO_SUCH_TAG_SET)
                        .withDetail("BucketName", request.bucket())
                        .withResource("/" + request.bucket()));
    return S3Response.xml(document.getBytes(StandardCharsets.UTF_8));
  }
}
