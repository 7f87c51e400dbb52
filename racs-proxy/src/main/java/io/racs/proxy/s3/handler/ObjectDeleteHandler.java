package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.authz.Access;
import io.racs.proxy.s3.bridge.ObjectVersion;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.bridge.WriteCondition;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.xml.DeleteObjectsRequest;
import io.racs.proxy.s3.xml.S3XmlResponses;
import io.racs.proxy.s3.xml.XmlModel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The deletes of the object family: DeleteObject and DeleteObjects, of the current object (a delete
 * marker in a versioned bucket) or of one version for good. Thread-safe: it holds only the store.
 */
final class ObjectDeleteHandler {
  private final StoreBridge store;

  ObjectDeleteHandler(StoreBridge store) {
    this.store = store;
  }

  /**
   * DeleteObject. Without bucket versioning the only version a key has is {@code null} (see {@link
   * Responses#requireNullVersion}), so {@code versionId=null} deletes the object exactly as a plain
   * DELETE does. Deleting any other version is refused rather than answered with a 204 that would
   * claim a version was removed: S3 would remove just that version and never the current object.
   */
  S3Response delete(S3Request request) {
    Optional<String> version = request.query().first("versionId");
    if (version.isPresent() && store.versioned(request.bucket())) {
      if (request.headers().contains("if-match") || request.headers().contains("if-none-match")) {
        throw S3Exception.of(
            S3ErrorCode.NOT_IMPLEMENTED,
            "A conditional delete of one version of an object is not implemented.");
      }
      Optional<ObjectVersion> removed =
          removeVersion(
              request.bucket(),
              request.key(),
              version.get(),
              ObjectLockHandler.bypassGovernance(request));
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
  private Optional<ObjectVersion> removeVersion(
      String bucket, String key, String versionId, boolean bypassGovernance) {
    if (versionId.isEmpty()) {
      throw Responses.emptyVersionId();
    }
    if (!versionId.equals(Responses.NULL_VERSION) && !StoreBridge.wellFormedVersionId(versionId)) {
      throw S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Invalid version id specified")
          .withDetail("ArgumentName", "versionId")
          .withDetail("ArgumentValue", versionId);
    }
    return store.locks().removeVersion(bucket, key, versionId, bypassGovernance);
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

  /** DeleteObjects: each key or version of the XML body, one answer per key. */
  S3Response deleteObjects(S3Request request) throws IOException {
    if (!request.headers().contains("content-md5")
        && request.headers().asMap().keySet().stream()
            .noneMatch(
                h ->
                    h.toLowerCase(Locale.ROOT).startsWith("x-amz-checksum-")
                        || h.equalsIgnoreCase("x-amz-sdk-checksum-algorithm"))) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_REQUEST,
          "Missing required header for this request: Content-MD5 or x-amz-checksum-*");
    }
    byte[] body = ObjectHandler.readXml(request);
    XmlModel.DeleteRequest delete = DeleteObjectsRequest.parse(body);
    // A missing bucket fails the whole request before any object is deleted.
    boolean versioned =
        delete.objects().stream().anyMatch(o -> o.versionId() != null)
            && store.versioned(request.bucket());
    List<XmlModel.Deleted> deleted = new ArrayList<>();
    List<XmlModel.DeleteError> errors = new ArrayList<>();
    for (XmlModel.ObjectIdentifier object : delete.objects()) {
      try {
        // Each key is judged on its own; a denied one is reported and the others go on.
        if (!request.access().permitsDelete(object.key(), object.versionId())) {
          throw Access.denied();
        }
        if (object.versionId() != null && versioned) {
          if (object.etag() != null || object.unsupportedCondition() != null) {
            throw S3Exception.of(
                S3ErrorCode.NOT_IMPLEMENTED,
                "A conditional delete of one version of an object is not implemented.");
          }
          Optional<ObjectVersion> removed =
              removeVersion(
                  request.bucket(),
                  object.key(),
                  object.versionId(),
                  ObjectLockHandler.bypassGovernance(request));
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
}
