package io.racs.proxy.s3.xml;

import io.racs.proxy.s3.checksum.ChecksumAlgorithm;
import io.racs.proxy.s3.checksum.ChecksumType;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The records the S3 XML documents are written from and parsed into. ETags are held without quotes;
 * the writers add them.
 */
public final class XmlModel {
  private XmlModel() {}

  /** An owner or initiator. */
  public record Owner(String id, String displayName) {}

  /** A bucket in ListAllMyBucketsResult. */
  public record BucketEntry(String name, Instant creationDate) {}

  /**
   * An object in a listing.
   *
   * @param owner written only when not {@code null} (V1 always, V2 with {@code fetch-owner=true})
   * @param storageClass e.g. {@code STANDARD}
   */
  public record ObjectEntry(
      String key,
      Instant lastModified,
      String etag,
      long sizeBytes,
      String storageClass,
      Owner owner) {}

  /** The parameters and page of a ListObjects (V1) answer. */
  public record ListObjectsV1(
      String bucket,
      String prefix,
      String delimiter,
      String marker,
      int maxKeys,
      boolean truncated,
      String nextMarker,
      List<ObjectEntry> contents,
      List<String> commonPrefixes,
      boolean urlEncoded) {}

  /** The parameters and page of a ListObjectsV2 answer; KeyCount is derived. */
  public record ListObjectsV2(
      String bucket,
      String prefix,
      String delimiter,
      int maxKeys,
      boolean truncated,
      String continuationToken,
      String nextContinuationToken,
      String startAfter,
      List<ObjectEntry> contents,
      List<String> commonPrefixes,
      boolean urlEncoded) {}

  /** A version (or delete marker) in ListVersionsResult. */
  public record VersionEntry(
      String key,
      String versionId,
      boolean latest,
      boolean deleteMarker,
      Instant lastModified,
      String etag,
      long sizeBytes,
      String storageClass,
      Owner owner) {
    /** The only version of an object in an unversioned bucket: version id {@code null}, latest. */
    public static VersionEntry unversioned(ObjectEntry o) {
      return new VersionEntry(
          o.key(),
          "null",
          true,
          false,
          o.lastModified(),
          o.etag(),
          o.sizeBytes(),
          o.storageClass(),
          o.owner());
    }
  }

  /** The parameters and page of a ListObjectVersions answer. */
  public record ListVersions(
      String bucket,
      String prefix,
      String delimiter,
      String keyMarker,
      String versionIdMarker,
      int maxKeys,
      boolean truncated,
      String nextKeyMarker,
      String nextVersionIdMarker,
      List<VersionEntry> versions,
      List<String> commonPrefixes,
      boolean urlEncoded) {}

  /** A part in ListPartsResult. */
  public record PartEntry(
      int partNumber,
      Instant lastModified,
      String etag,
      long sizeBytes,
      Map<ChecksumAlgorithm, String> checksums) {}

  /** A ListParts answer. */
  public record ListParts(
      String bucket,
      String key,
      String uploadId,
      int partNumberMarker,
      int nextPartNumberMarker,
      int maxParts,
      boolean truncated,
      List<PartEntry> parts,
      Owner owner,
      String storageClass,
      ChecksumAlgorithm checksumAlgorithm,
      ChecksumType checksumType) {}

  /**
   * An upload in ListMultipartUploadsResult; {@code checksumAlgorithm} and {@code checksumType} are
   * those its creation named (null for none).
   */
  public record UploadEntry(
      String key,
      String uploadId,
      Instant initiated,
      Owner owner,
      String storageClass,
      String checksumAlgorithm,
      String checksumType) {
    /** An upload created without a checksum. */
    public UploadEntry(
        String key, String uploadId, Instant initiated, Owner owner, String storageClass) {
      this(key, uploadId, initiated, owner, storageClass, null, null);
    }
  }

  /** A ListMultipartUploads answer. */
  public record ListUploads(
      String bucket,
      String prefix,
      String delimiter,
      String keyMarker,
      String uploadIdMarker,
      int maxUploads,
      boolean truncated,
      String nextKeyMarker,
      String nextUploadIdMarker,
      List<UploadEntry> uploads,
      List<String> commonPrefixes,
      boolean urlEncoded) {}

  /** A key DeleteObjects deleted. */
  public record Deleted(
      String key, String versionId, boolean deleteMarker, String deleteMarkerVersionId) {}

  /** A key DeleteObjects could not delete. */
  public record DeleteError(String key, String versionId, String code, String message) {}

  /** A part listed in a CompleteMultipartUpload request. */
  public record CompletedPart(
      int partNumber, String etag, Map<ChecksumAlgorithm, String> checksums) {
    /** Copies the map. */
    public CompletedPart {
      checksums = Map.copyOf(checksums);
    }
  }

  /**
   * An object named in a DeleteObjects request.
   *
   * @param versionId the version to delete, or null
   * @param etag the ETag the current version must have (unquoted as sent), or null
   * @param unsupportedCondition the name of a condition element the proxy does not evaluate ({@code
   *     LastModifiedTime}, {@code Size}: S3 evaluates them for directory buckets only), or null
   */
  public record ObjectIdentifier(
      String key, String versionId, String etag, String unsupportedCondition) {
    /** An object without conditions. */
    public ObjectIdentifier(String key, String versionId) {
      this(key, versionId, null, null);
    }
  }

  /** A DeleteObjects request. */
  public record DeleteRequest(boolean quiet, List<ObjectIdentifier> objects) {
    /** Copies the list. */
    public DeleteRequest {
      objects = List.copyOf(objects);
    }
  }

  /**
   * One grant of an AccessControlPolicy body: the grantee's {@code xsi:type} ({@code
   * CanonicalUser}, {@code Group}, {@code AmazonCustomerByEmail}), whichever of its ID, URI and
   * email address it has (the others null), and the permission.
   */
  public record Grant(String granteeType, String id, String uri, String email, String permission) {}

  /** An AccessControlPolicy body: the owner's ID (null when absent) and its grants. */
  public record AccessControlPolicy(String ownerId, List<Grant> grants) {
    /** Copies the grants. */
    public AccessControlPolicy {
      grants = List.copyOf(grants);
    }
  }

  /** One part in the ObjectParts of a GetObjectAttributes answer. */
  public record AttributePart(
      int partNumber, long sizeBytes, Map<ChecksumAlgorithm, String> checksums) {}

  /**
   * A GetObjectAttributes answer; each field is null when not asked for (or, for {@code checksum}
   * and {@code parts}, when the object has none).
   *
   * @param checksumType {@code FULL_OBJECT} or {@code COMPOSITE}, with {@code checksum}
   * @param parts the page of parts, with {@code totalParts}, {@code partNumberMarker}, {@code
   *     nextPartNumberMarker}, {@code maxParts} and {@code truncated}
   */
  public record ObjectAttributes(
      String etag,
      Map<ChecksumAlgorithm, String> checksum,
      String checksumType,
      List<AttributePart> parts,
      int totalParts,
      int partNumberMarker,
      int nextPartNumberMarker,
      int maxParts,
      boolean truncated,
      String storageClass,
      Long objectSizeBytes) {}
}
