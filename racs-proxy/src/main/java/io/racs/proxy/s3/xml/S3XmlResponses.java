package io.racs.proxy.s3.xml;

import io.racs.proxy.s3.checksum.ChecksumAlgorithm;
import io.racs.proxy.s3.checksum.ChecksumType;
import io.racs.proxy.s3.cors.CorsConfiguration;
import io.racs.proxy.s3.cors.CorsRule;
import io.racs.proxy.s3.http.PercentCodec;
import io.racs.proxy.s3.xml.XmlModel.BucketEntry;
import io.racs.proxy.s3.xml.XmlModel.DeleteError;
import io.racs.proxy.s3.xml.XmlModel.Deleted;
import io.racs.proxy.s3.xml.XmlModel.ListObjectsV1;
import io.racs.proxy.s3.xml.XmlModel.ListObjectsV2;
import io.racs.proxy.s3.xml.XmlModel.ListParts;
import io.racs.proxy.s3.xml.XmlModel.ListUploads;
import io.racs.proxy.s3.xml.XmlModel.ListVersions;
import io.racs.proxy.s3.xml.XmlModel.ObjectEntry;
import io.racs.proxy.s3.xml.XmlModel.Owner;
import io.racs.proxy.s3.xml.XmlModel.PartEntry;
import io.racs.proxy.s3.xml.XmlModel.UploadEntry;
import io.racs.proxy.s3.xml.XmlModel.VersionEntry;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The S3 response documents, each a pure function from {@link XmlModel} records to UTF-8 bytes.
 * Timestamps are ISO-8601 UTC with milliseconds ({@code 2026-01-01T00:00:00.000Z}); ETags are
 * quoted. With {@code urlEncoded} (the request's {@code encoding-type=url}), keys, prefixes,
 * delimiters and markers are written in {@link PercentCodec#formEncode} form and {@code
 * <EncodingType>url</EncodingType>} says so.
 */
public final class S3XmlResponses {
  private static final DateTimeFormatter ISO_MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private S3XmlResponses() {}

  /** {@code 2026-01-01T00:00:00.000Z}. */
  public static String timestamp(Instant instant) {
    return ISO_MILLIS.format(instant);
  }

  /** {@code "etag"}: quotes added unless already there. */
  public static String quoteEtag(String etag) {
    return etag.startsWith("\"") && etag.endsWith("\"") && etag.length() >= 2
        ? etag
        : "\"" + etag + "\"";
  }

  private static String enc(String s, boolean urlEncoded) {
    return s == null || !urlEncoded ? s : PercentCodec.formEncode(s);
  }

  private static void owner(XmlWriter w, String element, Owner owner) {
    if (owner != null) {
      w.start(element).element("ID", owner.id()).element("DisplayName", owner.displayName()).end();
    }
  }

  private static void commonPrefixes(XmlWriter w, List<String> prefixes, boolean urlEncoded) {
    for (String p : prefixes) {
      w.start("CommonPrefixes").element("Prefix", enc(p, urlEncoded)).end();
    }
  }

  private static void contents(XmlWriter w, ObjectEntry o, boolean urlEncoded) {
    w.start("Contents")
        .element("Key", enc(o.key(), urlEncoded))
        .element("LastModified", timestamp(o.lastModified()))
        .element("ETag", quoteEtag(o.etag()))
        .element("Size", o.sizeBytes());
    owner(w, "Owner", o.owner());
    w.element("StorageClass", o.storageClass()).end();
  }

  /** ListAllMyBucketsResult. */
  public static byte[] listBuckets(Owner owner, List<BucketEntry> buckets) {
    XmlWriter w = XmlWriter.document().root("ListAllMyBucketsResult");
    owner(w, "Owner", owner);
    w.start("Buckets");
    for (BucketEntry b : buckets) {
      w.start("Bucket")
          .element("Name", b.name())
          .element("CreationDate", timestamp(b.creationDate()))
          .end();
    }
    return w.end().toBytes();
  }

  /** ListBucketResult of ListObjects (V1). */
  public static byte[] listObjectsV1(ListObjectsV1 r) {
    boolean u = r.urlEncoded();
    XmlWriter w =
        XmlWriter.document()
            .root("ListBucketResult")
            .element("Name", r.bucket())
            .element("Prefix", nullToEmpty(enc(r.prefix(), u)))
            .element("Marker", nullToEmpty(enc(r.marker(), u)))
            .element("MaxKeys", r.maxKeys())
            .optional("Delimiter", enc(r.delimiter(), u))
            .optional("EncodingType", u ? "url" : null)
            .element("IsTruncated", r.truncated())
            .optional("NextMarker", r.truncated() ? enc(r.nextMarker(), u) : null);
    for (ObjectEntry o : r.contents()) {
      contents(w, o, u);
    }
    commonPrefixes(w, r.commonPrefixes(), u);
    return w.toBytes();
  }

  /** ListBucketResult of ListObjectsV2; {@code KeyCount} counts contents and common prefixes. */
  public static byte[] listObjectsV2(ListObjectsV2 r) {
    boolean u = r.urlEncoded();
    XmlWriter w =
        XmlWriter.document()
            .root("ListBucketResult")
            .element("Name", r.bucket())
            .element("Prefix", nullToEmpty(enc(r.prefix(), u)))
            .optional("Delimiter", enc(r.delimiter(), u))
            .element("MaxKeys", r.maxKeys())
            .optional("EncodingType", u ? "url" : null)
            .element("KeyCount", r.contents().size() + r.commonPrefixes().size())
            .element("IsTruncated", r.truncated())
            .optional("ContinuationToken", r.continuationToken())
            .optional("NextContinuationToken", r.truncated() ? r.nextContinuationToken() : null)
            .optional("StartAfter", enc(r.startAfter(), u));
    for (ObjectEntry o : r.contents()) {
      contents(w, o, u);
    }
    commonPrefixes(w, r.commonPrefixes(), u);
    return w.toBytes();
  }

  /** ListVersionsResult. */
  public static byte[] listVersions(ListVersions r) {
    boolean u = r.urlEncoded();
    XmlWriter w =
        XmlWriter.document()
            .root("ListVersionsResult")
            .element("Name", r.bucket())
            .element("Prefix", nullToEmpty(enc(r.prefix(), u)))
            .element("KeyMarker", nullToEmpty(enc(r.keyMarker(), u)))
            .element("VersionIdMarker", nullToEmpty(r.versionIdMarker()))
            .optional("NextKeyMarker", r.truncated() ? enc(r.nextKeyMarker(), u) : null)
            .optional("NextVersionIdMarker", r.truncated() ? r.nextVersionIdMarker() : null)
            .element("MaxKeys", r.maxKeys())
            .optional("Delimiter", enc(r.delimiter(), u))
            .optional("EncodingType", u ? "url" : null)
            .element("IsTruncated", r.truncated());
    for (VersionEntry v : r.versions()) {
      w.start(v.deleteMarker() ? "DeleteMarker" : "Version")
          .element("Key", enc(v.key(), u))
          .element("VersionId", v.versionId())
          .element("IsLatest", v.latest())
          .element("LastModified", timestamp(v.lastModified()));
      if (!v.deleteMarker()) {
        w.element("ETag", quoteEtag(v.etag())).element("Size", v.sizeBytes());
      }
      owner(w, "Owner", v.owner());
      if (!v.deleteMarker()) {
        w.element("StorageClass", v.storageClass());
      }
      w.end();
    }
    commonPrefixes(w, r.commonPrefixes(), u);
    return w.toBytes();
  }

  /** InitiateMultipartUploadResult. */
  public static byte[] initiateMultipartUpload(String bucket, String key, String uploadId) {
    return XmlWriter.document()
        .root("InitiateMultipartUploadResult")
        .element("Bucket", bucket)
        .element("Key", key)
        .element("UploadId", uploadId)
        .toBytes();
  }

  /**
   * CompleteMultipartUploadResult.
   *
   * @param checksums the object's checksums (composite values end in {@code -N}); their type is
   *     told too
   */
  public static byte[] completeMultipartUpload(
      String location,
      String bucket,
      String key,
      String etag,
      Map<ChecksumAlgorithm, String> checksums) {
    XmlWriter w =
        XmlWriter.document()
            .root("CompleteMultipartUploadResult")
            .element("Location", location)
            .element("Bucket", bucket)
            .element("Key", key)
            .element("ETag", quoteEtag(etag));
    checksums(w, checksums);
    checksums.values().stream()
        .findFirst()
        .ifPresent(v -> w.element("ChecksumType", ChecksumType.ofValue(v).name()));
    return w.toBytes();
  }

  private static void checksums(XmlWriter w, Map<ChecksumAlgorithm, String> checksums) {
    for (ChecksumAlgorithm a : ChecksumAlgorithm.values()) {
      String v = checksums.get(a);
      if (v != null) {
        w.element(a.xmlElement(), v);
      }
    }
  }

  /** ListPartsResult. */
  public static byte[] listParts(ListParts r) {
    XmlWriter w =
        XmlWriter.document()
            .root("ListPartsResult")
            .element("Bucket", r.bucket())
            .element("Key", r.key())
            .element("UploadId", r.uploadId())
            .element("PartNumberMarker", r.partNumberMarker())
            .optional(
                "NextPartNumberMarker",
                r.truncated() ? Integer.toString(r.nextPartNumberMarker()) : null)
            .element("MaxParts", r.maxParts())
            .element("IsTruncated", r.truncated());
    if (r.checksumAlgorithm() != null) {
      w.element("ChecksumAlgorithm", r.checksumAlgorithm().name());
    }
    if (r.checksumType() != null) {
      w.element("ChecksumType", r.checksumType().name());
    }
    for (PartEntry p : r.parts()) {
      w.start("Part")
          .element("PartNumber", p.partNumber())
          .element("LastModified", timestamp(p.lastModified()))
          .element("ETag", quoteEtag(p.etag()))
          .element("Size", p.sizeBytes());
      checksums(w, p.checksums());
      w.end();
    }
    owner(w, "Initiator", r.owner());
    owner(w, "Owner", r.owner());
    return w.element("StorageClass", r.storageClass()).toBytes();
  }

  /** ListMultipartUploadsResult. */
  public static byte[] listMultipartUploads(ListUploads r) {
    boolean u = r.urlEncoded();
    XmlWriter w =
        XmlWriter.document()
            .root("ListMultipartUploadsResult")
            .element("Bucket", r.bucket())
            .element("KeyMarker", nullToEmpty(enc(r.keyMarker(), u)))
            .element("UploadIdMarker", nullToEmpty(r.uploadIdMarker()))
            .optional("NextKeyMarker", r.truncated() ? enc(r.nextKeyMarker(), u) : null)
            .optional("NextUploadIdMarker", r.truncated() ? r.nextUploadIdMarker() : null)
            .optional("Delimiter", enc(r.delimiter(), u))
            .element("Prefix", nullToEmpty(enc(r.prefix(), u)))
            .element("MaxUploads", r.maxUploads())
            .optional("EncodingType", u ? "url" : null)
            .element("IsTruncated", r.truncated());
    for (UploadEntry e : r.uploads()) {
      w.start("Upload").element("Key", enc(e.key(), u)).element("UploadId", e.uploadId());
      owner(w, "Initiator", e.owner());
      owner(w, "Owner", e.owner());
      w.element("StorageClass", e.storageClass())
          .optional("ChecksumAlgorithm", e.checksumAlgorithm())
          .optional("ChecksumType", e.checksumType())
          .element("Initiated", timestamp(e.initiated()))
          .end();
    }
    commonPrefixes(w, r.commonPrefixes(), u);
    return w.toBytes();
  }

  /** CopyObjectResult. */
  public static byte[] copyObject(
      Instant lastModified, String etag, Map<ChecksumAlgorithm, String> checksums) {
    return copyResult("CopyObjectResult", lastModified, etag, checksums);
  }

  /** CopyPartResult (UploadPartCopy). */
  public static byte[] copyPart(
      Instant lastModified, String etag, Map<ChecksumAlgorithm, String> checksums) {
    return copyResult("CopyPartResult", lastModified, etag, checksums);
  }

  private static byte[] copyResult(
      String root, Instant lastModified, String etag, Map<ChecksumAlgorithm, String> checksums) {
    XmlWriter w =
        XmlWriter.document()
            .root(root)
            .element("LastModified", timestamp(lastModified))
            .element("ETag", quoteEtag(etag));
    checksums(w, checksums);
    checksums.values().stream()
        .findFirst()
        .ifPresent(v -> w.element("ChecksumType", ChecksumType.ofValue(v).name()));
    return w.toBytes();
  }

  /** DeleteResult; in quiet mode pass no {@code deleted} entries. */
  public static byte[] deleteResult(List<Deleted> deleted, List<DeleteError> errors) {
    XmlWriter w = XmlWriter.document().root("DeleteResult");
    for (Deleted d : deleted) {
      w.start("Deleted").element("Key", d.key()).optional("VersionId", d.versionId());
      if (d.deleteMarker()) {
        w.element("DeleteMarker", true)
            .optional("DeleteMarkerVersionId", d.deleteMarkerVersionId());
      }
      w.end();
    }
    for (DeleteError e : errors) {
      w.start("Error")
          .element("Key", e.key())
          .optional("VersionId", e.versionId())
          .element("Code", e.code())
          .element("Message", e.message())
          .end();
    }
    return w.toBytes();
  }

  /** LocationConstraint of {@code GET ?location}: empty for {@code us-east-1}, as S3 answers. */
  public static byte[] locationConstraint(String region) {
    XmlWriter w = XmlWriter.document().root("LocationConstraint");
    if (region != null && !region.equals("us-east-1")) {
      w.text(region);
    }
    return w.toBytes();
  }

  /** The CORSConfiguration of GetBucketCors, rule by rule in the order stored. */
  public static byte[] corsConfiguration(CorsConfiguration configuration) {
    XmlWriter w = XmlWriter.document().root("CORSConfiguration");
    for (CorsRule rule : configuration.rules()) {
      w.start("CORSRule").optional("ID", rule.id());
      rule.allowedHeaders().forEach(h -> w.element("AllowedHeader", h));
      rule.allowedMethods().forEach(m -> w.element("AllowedMethod", m));
      rule.allowedOrigins().forEach(o -> w.element("AllowedOrigin", o));
      rule.exposeHeaders().forEach(h -> w.element("ExposeHeader", h));
      if (rule.maxAgeSeconds() != null) {
        w.element("MaxAgeSeconds", rule.maxAgeSeconds());
      }
      w.end();
    }
    return w.toBytes();
  }

  /**
   * VersioningConfiguration: empty for a bucket never versioned, as S3 answers, else with its
   * {@code Status}.
   */
  public static byte[] versioningConfiguration(String status) {
    XmlWriter w = XmlWriter.document().root("VersioningConfiguration");
    if (status != null) {
      w.element("Status", status);
    }
    return w.toBytes();
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  /**
   * AccessControlPolicy: {@code owner}, and one grant of {@code FULL_CONTROL} to that owner, which
   * is the whole truth of an array with one owner and no grants to anyone else.
   */
  public static byte[] ownerOnlyAcl(Owner owner) {
    XmlWriter w = XmlWriter.document().root("AccessControlPolicy");
    owner(w, "Owner", owner);
    w.start("AccessControlList").start("Grant");
    w.start(
            "Grantee",
            "xmlns:xsi",
            "http://www.w3.org/2001/XMLSchema-instance",
            "xsi:type",
            "CanonicalUser")
        .element("ID", owner.id())
        .element("DisplayName", owner.displayName())
        .end();
    w.element("Permission", "FULL_CONTROL").end().end();
    return w.toBytes();
  }

  /**
   * GetObjectAttributesResponse, with the elements {@code a} holds. The part count is written as
   * {@code PartsCount}: S3's documentation shows {@code TotalPartsCount}, but the service model the
   * SDKs are generated from (and MinIO) use {@code PartsCount}.
   */
  public static byte[] objectAttributes(XmlModel.ObjectAttributes a) {
    XmlWriter w = XmlWriter.document().root("GetObjectAttributesResponse");
    w.optional("ETag", a.etag());
    if (a.checksum() != null && !a.checksum().isEmpty()) {
      w.start("Checksum");
      a.checksum().forEach((alg, value) -> w.element(alg.xmlElement(), value));
      w.optional("ChecksumType", a.checksumType()).end();
    }
    if (a.parts() != null) {
      w.start("ObjectParts")
          .element("PartsCount", a.totalParts())
          .element("PartNumberMarker", a.partNumberMarker())
          .element("NextPartNumberMarker", a.nextPartNumberMarker())
          .element("MaxParts", a.maxParts())
          .element("IsTruncated", a.truncated());
      for (XmlModel.AttributePart p : a.parts()) {
        w.start("Part").element("PartNumber", p.partNumber()).element("Size", p.sizeBytes());
        p.checksums().forEach((alg, value) -> w.element(alg.xmlElement(), value));
        w.end();
      }
      w.end();
    }
    w.optional("StorageClass", a.storageClass());
    if (a.objectSizeBytes() != null) {
      w.element("ObjectSize", a.objectSizeBytes());
    }
    return w.toBytes();
  }
}
