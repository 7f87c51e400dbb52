package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.bridge.MultipartUpload;
import io.racs.proxy.s3.bridge.ObjectListing;
import io.racs.proxy.s3.bridge.ObjectVersion;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.bridge.VersionListing;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.S3XmlResponses;
import io.racs.proxy.s3.xml.XmlModel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** The listing family: ListObjects V1 and V2, ListObjectVersions, ListMultipartUploads. */
final class ListingHandler {
  private final StoreBridge store;

  ListingHandler(StoreBridge store) {
    this.store = store;
  }

  S3Response handle(S3Request request) {
    return switch (request.route().operation()) {
      case LIST_OBJECTS_V1 -> v1(request);
      case LIST_OBJECTS_V2 -> v2(request);
      case LIST_OBJECT_VERSIONS -> versions(request);
      case LIST_MULTIPART_UPLOADS -> uploads(request);
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  /**
   * The request's delimiter; an empty one is no delimiter, and S3 leaves it out of the answer as if
   * it had not been sent.
   */
  private static String delimiter(S3Request request) {
    String delimiter = request.query().first("delimiter").orElse("");
    return delimiter.isEmpty() ? null : delimiter;
  }

  private ObjectListing list(S3Request request, String startAfter, int maxKeys) {
    return store.list(
        request.bucket(),
        request.query().first("prefix").orElse(""),
        delimiter(request),
        startAfter,
        maxKeys);
  }

  private static List<XmlModel.ObjectEntry> entries(ObjectListing result, boolean owner) {
    List<XmlModel.ObjectEntry> entries = new ArrayList<>();
    for (ObjectVersion meta : result.objects()) {
      entries.add(Responses.entry(meta, owner));
    }
    return entries;
  }

  private S3Response v1(S3Request request) {
    boolean url = Responses.urlEncoding(request);
    int maxKeys = Responses.intParam(request, "max-keys", 1000, 0, 1000);
    String marker = request.query().first("marker").orElse("");
    ObjectListing result = list(request, marker, maxKeys);
    return S3Response.xml(
        S3XmlResponses.listObjectsV1(
            new XmlModel.ListObjectsV1(
                request.bucket(),
                request.query().first("prefix").orElse(""),
                delimiter(request),
                marker,
                maxKeys,
                result.truncated(),
                result.nextStartAfter().orElse(null),
                entries(result, true),
                result.commonPrefixes(),
                url)));
  }

  private S3Response v2(S3Request request) {
    boolean url = Responses.urlEncoding(request);
    int maxKeys = Responses.intParam(request, "max-keys", 1000, 0, 1000);
    String token = request.query().first("continuation-token").orElse(null);
    String startAfter = request.query().first("start-after").orElse("");
    String from = startAfter;
    if (token != null) {
      try {
        from = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        throw S3Exception.of(
            S3ErrorCode.INVALID_ARGUMENT, "The continuation token provided is incorrect");
      }
    }
    ObjectListing result = list(request, from, maxKeys);
    String next =
        result
            .nextStartAfter()
            .map(
                k ->
                    Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(k.getBytes(StandardCharsets.UTF_8)))
            .orElse(null);
    boolean owner = request.query().first("fetch-owner").orElse("false").equalsIgnoreCase("true");
    return S3Response.xml(
        S3XmlResponses.listObjectsV2(
            new XmlModel.ListObjectsV2(
                request.bucket(),
                request.query().first("prefix").orElse(""),
                delimiter(request),
                maxKeys,
                result.truncated(),
                token,
                next,
                startAfter.isEmpty() ? null : startAfter,
                entries(result, owner),
                result.commonPrefixes(),
                url)));
  }

  private S3Response versions(S3Request request) {
    boolean url = Responses.urlEncoding(request);
    int maxKeys = Responses.intParam(request, "max-keys", 1000, 0, 1000);
    String marker = request.query().first("key-marker").orElse("");
    String versionMarker = request.query().first("version-id-marker").orElse("");
    if (!versionMarker.isEmpty() && marker.isEmpty()) {
      throw S3Exception.of(
              S3ErrorCode.INVALID_ARGUMENT,
              "A version-id marker cannot be specified without a key marker.")
          .withDetail("ArgumentName", "version-id-marker")
          .withDetail("ArgumentValue", versionMarker);
    }
    if (store.versioned(request.bucket())) {
      return allVersions(request, url, maxKeys, marker, versionMarker);
    }
    ObjectListing result = list(request, marker, maxKeys);
    List<XmlModel.VersionEntry> versions = new ArrayList<>();
    for (XmlModel.ObjectEntry e : entries(result, true)) {
      versions.add(XmlModel.VersionEntry.unversioned(e));
    }
    return S3Response.xml(
        S3XmlResponses.listVersions(
            new XmlModel.ListVersions(
                request.bucket(),
                request.query().first("prefix").orElse(""),
                delimiter(request),
                marker,
                request.query().first("version-id-marker").orElse(null),
                maxKeys,
                result.truncated(),
                result.nextStartAfter().orElse(null),
                result.truncated() ? "null" : null,
                versions,
                result.commonPrefixes(),
                url)));
  }

  /**
   * ListObjectVersions in a versioned bucket: every version and delete marker, each key's newest
   * first with {@code IsLatest} on its current one, paged by key and version id (a page may end
   * inside one key's versions). A version id marker is one this proxy handed out, or {@code null}
   * (the key's null version); anything else is {@code InvalidArgument}, as S3 answers.
   */
  private S3Response allVersions(
      S3Request request, boolean url, int maxKeys, String marker, String versionMarker) {
    if (!versionMarker.isEmpty()
        && !versionMarker.equals(Responses.NULL_VERSION)
        && !StoreBridge.wellFormedVersionId(versionMarker)) {
      throw S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Invalid version id specified")
          .withDetail("ArgumentName", "version-id-marker")
          .withDetail("ArgumentValue", versionMarker);
    }
    VersionListing result =
        store.listVersions(
            request.bucket(),
            request.query().first("prefix").orElse(""),
            delimiter(request),
            marker,
            // "null" is passed on: the key's null version is listed like any other, and a page
            // that ended on it goes on with the key's versions after it.
            versionMarker.isEmpty() ? null : versionMarker,
            maxKeys);
    List<XmlModel.VersionEntry> versions = new ArrayList<>();
    for (int i = 0; i < result.versions().size(); i++) {
      ObjectVersion v = result.versions().get(i);
      versions.add(
          new XmlModel.VersionEntry(
              v.key(),
              v.versionId(),
              result.latest().get(i),
              v.deleteMarker(),
              v.lastModified(),
              v.etag(),
              v.sizeBytes(),
              "STANDARD",
              Responses.OWNER));
    }
    return S3Response.xml(
        S3XmlResponses.listVersions(
            new XmlModel.ListVersions(
                request.bucket(),
                request.query().first("prefix").orElse(""),
                delimiter(request),
                marker,
                versionMarker.isEmpty() ? null : versionMarker,
                maxKeys,
                result.truncated(),
                result.nextKeyMarker().orElse(null),
                result.nextVersionIdMarker().orElse(null),
                versions,
                result.commonPrefixes(),
                url)));
  }

  private S3Response uploads(S3Request request) {
    boolean url = Responses.urlEncoding(request);
    String prefix = request.query().first("prefix").orElse("");
    List<XmlModel.UploadEntry> uploads = new ArrayList<>();
    for (MultipartUpload u : store.listMultipartUploads(request.bucket(), prefix)) {
      uploads.add(
          new XmlModel.UploadEntry(
              u.key(),
              u.uploadId(),
              u.initiated(),
              Responses.OWNER,
              "STANDARD",
              u.checksumAlgorithm(),
              u.checksumType()));
    }
    return S3Response.xml(
        S3XmlResponses.listMultipartUploads(
            new XmlModel.ListUploads(
                request.bucket(),
                prefix,
                delimiter(request),
                request.query().first("key-marker").orElse(null),
                request.query().first("upload-id-marker").orElse(null),
                1000,
                false,
                null,
                null,
                uploads,
                List.of(),
                url)));
  }
}
