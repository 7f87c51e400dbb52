package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.bridge.ObjectVersion;
import io.racs.proxy.s3.bridge.PutOptions;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.bridge.WriteCondition;
import io.racs.proxy.s3.checksum.ChecksumAlgorithm;
import io.racs.proxy.s3.checksum.ChecksumType;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.precondition.Preconditions;
import io.racs.proxy.s3.route.CopySourceName;
import io.racs.proxy.s3.tagging.TagSet;
import io.racs.proxy.s3.xml.S3XmlResponses;
import io.racs.proxy.s3.xml.XmlModel;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** Helpers the handlers share: object headers, user metadata, checksums, copy sources. */
final class Responses {
  static final XmlModel.Owner OWNER = new XmlModel.Owner("racs", "racs");
  private static final String META = "x-amz-meta-";

  private Responses() {}

  static String httpDate(Instant instant) {
    return DateTimeFormatter.RFC_1123_DATE_TIME.format(instant.atOffset(ZoneOffset.UTC));
  }

  /** The headers every GET and HEAD of an object carries. */
  static S3Response objectHeaders(S3Response response, ObjectVersion meta, boolean checksums) {
    response
        .header("ETag", S3XmlResponses.quoteEtag(meta.etag()))
        .header("Last-Modified", httpDate(meta.lastModified()))
        .header("Content-Type", meta.contentType())
        .header("Accept-Ranges", "bytes");
    meta.contentHeaders().forEach(response::header);
    meta.userMetadata().forEach((name, value) -> response.header(META + name, value));
    if (meta.multipart()) {
      response.header("x-amz-mp-parts-count", Integer.toString(meta.partCount()));
    }
    if (!meta.tags().isEmpty()) {
      response.header("x-amz-tagging-count", Integer.toString(meta.tags().size()));
    }
    if (checksums) {
      checksumHeaders(response, meta.checksums());
      meta.checksums().values().stream()
          .findFirst()
          .ifPresent(v -> response.header("x-amz-checksum-type", ChecksumType.ofValue(v).name()));
    }
    return response;
  }

  static void checksumHeaders(S3Response response, Map<String, String> checksums) {
    checksums.forEach(
        (name, value) ->
            ChecksumAlgorithm.fromName(name)
                .ifPresent(a -> response.header(a.headerName(), value)));
  }

  /** {@code x-amz-meta-*} headers, names lower-case without the prefix. */
  static Map<String, String> userMetadata(Headers headers) {
    Map<String, String> meta = new LinkedHashMap<>();
    headers
        .asMap()
        .forEach(
            (name, values) -> {
              String lower = name.toLowerCase(Locale.ROOT);
              if (lower.startsWith(META) && lower.length() > META.length()) {
                meta.put(lower.substring(META.length()), String.join(",", values));
              }
            });
    return meta;
  }

  /**
   * The standard headers S3 stores with an object and returns on GET and HEAD, as S3 writes their
   * names ({@code Content-Type} is kept apart, as the store's own field).
   */
  static final List<String> CONTENT_HEADERS =
      List.of(
          "Cache-Control",
          "Content-Disposition",
          "Content-Encoding",
          "Content-Language",
          "Expires");

  /**
   * The {@link #CONTENT_HEADERS} a request carries, each as one value (repeated lines joined with
   * commas, as HTTP allows). From {@code Content-Encoding} the {@code aws-chunked} coding is left
   * out: it names the framing of this upload, not how the object is encoded, and S3 does not store
   * it.
   */
  static Map<String, String> contentHeaders(Headers headers) {
    Map<String, String> kept = new LinkedHashMap<>();
    for (String name : CONTENT_HEADERS) {
      List<String> values = headers.all(name);
      if (values.isEmpty()) {
        continue;
      }
      String value = String.join(",", values).strip();
      if (name.equals("Content-Encoding")) {
        value = withoutAwsChunked(value);
      }
      if (!value.isEmpty()) {
        kept.put(name, value);
      }
    }
    return kept;
  }

  private static String withoutAwsChunked(String contentEncoding) {
    StringBuilder rest = new StringBuilder();
    for (String coding : contentEncoding.split(",")) {
      String c = coding.strip();
      if (!c.isEmpty() && !c.equalsIgnoreCase("aws-chunked")) {
        rest.append(rest.isEmpty() ? "" : ",").append(c);
      }
    }
    return rest.toString();
  }

  /**
   * The put options of a request: content type, metadata, content headers, and its checksums once
   * read.
   */
  static PutOptions putOptions(S3Request request) {
    return new PutOptions(
        request.headers().first("Content-Type").orElse(null),
        userMetadata(request.headers()),
        checksumsOf(request),
        contentHeaders(request.headers()),
        tagging(request).asMap());
  }

  /** The tags of the request's {@code x-amz-tagging} header (none without it), validated. */
  static TagSet tagging(S3Request request) {
    return TagSet.fromQuery(request.headers().first("x-amz-tagging").orElse(null));
  }

  static Supplier<Map<String, String>> checksumsOf(S3Request request) {
    return () ->
        request
            .checksums()
            .flatMap(c -> c.algorithm().flatMap(a -> c.base64Value().map(v -> Map.of(a.name(), v))))
            .orElse(Map.of());
  }

  /**
   * The condition of a write ({@code If-Match}, {@code If-None-Match}), for the store to check
   * against the key's current version just before the write commits (see {@link
   * Preconditions#checkWrite}); {@link WriteCondition#NONE} when the request has none.
   */
  static WriteCondition writeCondition(Headers headers) {
    if (!headers.contains("if-match") && !headers.contains("if-none-match")) {
      return WriteCondition.NONE;
    }
    return currentEtag -> Preconditions.checkWrite(headers, currentEtag);
  }

  /**
   * A parsed {@code x-amz-copy-source}: bucket and key, percent-decoded, and the version it names
   * ({@code null} when it names none).
   */
  record CopySource(String bucket, String key, String versionId) {
    /**
     * Checks the version named, if any: refused in a versioned bucket, where reading one version is
     * not implemented yet; otherwise as {@link #requireNullVersion}.
     */
    void checkVersion(StoreBridge store) {
      if (versionId != null) {
        refuseVersionIdIn(store, bucket);
        requireNullVersion(key, versionId);
      }
    }
  }

  static CopySource copySource(Headers headers) {
    CopySourceName name = CopySourceName.of(headers);
    return new CopySource(name.bucket(), name.key(), name.versionId());
  }

  /** The version id every object has while the array has no bucket versioning. */
  static final String NULL_VERSION = "null";

  /**
   * Checks the version a GET, HEAD or copy source names, if any. Until bucket versioning lands,
   * every bucket answers as an S3 bucket that never had versioning enabled: each key has at most
   * one version, the {@code null} version (which is what ListObjectVersions reports), so {@code
   * versionId=null} names the current object and any other id names a version that does not exist
   * ({@code NoSuchVersion}, as S3 answers for an unknown version). The store's internal version ids
   * are never shown to clients, so no other id can name the current object.
   *
   * @param versionId the id named, or {@code null} when the request names none
   * @throws S3Exception {@code InvalidArgument} for an empty id, {@code NoSuchVersion} for any id
   *     but {@code null}
   */
  static void requireNullVersion(String key, String versionId) {
    if (versionId == null || versionId.equals(NULL_VERSION)) {
      return;
    }
    if (versionId.isEmpty()) {
      throw emptyVersionId();
    }
    throw S3Exception.of(S3ErrorCode.NO_SUCH_VERSION)
        .withDetail("Key", key)
        .withDetail("VersionId", versionId);
  }

  /** Names the version a copy read, when its source named one, as S3 answers a copy. */
  static void copySourceVersionHeader(
      S3Response response, CopySource source, ObjectVersion copied) {
    if (source.versionId() != null && copied.versionId() != null) {
      response.header("x-amz-copy-source-version-id", copied.versionId());
    }
  }

  /**
   * Refuses a request that names a version of an object in a versioned bucket: reading or deleting
   * one version there is not implemented yet, and answering as for the {@code null} version would
   * read or delete another one ({@code NoSuchBucket} if the bucket does not exist).
   */
  static void refuseVersionIdIn(StoreBridge store, String bucket) {
    if (store.versioned(bucket)) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED,
          "Naming a version of an object in a versioned bucket is not implemented.");
    }
  }

  /**
   * Answers a version's id on a read (GET, HEAD, tagging): it has one in a bucket ever versioned,
   * {@code null} for its null version, as S3 answers it.
   */
  static void versionIdHeader(S3Response response, ObjectVersion version) {
    if (version.versionId() != null) {
      response.header("x-amz-version-id", version.versionId());
    }
  }

  /**
   * Answers a written version's id on a PUT, copy or CompleteMultipartUpload: as {@link
   * #versionIdHeader}, except that S3 answers a write of the null version (versioning suspended)
   * without the header.
   */
  static void writtenVersionIdHeader(S3Response response, ObjectVersion written) {
    if (written.versionId() != null && !written.versionId().equals(NULL_VERSION)) {
      response.header("x-amz-version-id", written.versionId());
    }
  }

  static S3Exception emptyVersionId() {
    return S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Version id cannot be the empty string")
        .withDetail("ArgumentName", "versionId")
        .withDetail("ArgumentValue", "");
  }

  static XmlModel.ObjectEntry entry(ObjectVersion meta, boolean owner) {
    return new XmlModel.ObjectEntry(
        meta.key(),
        meta.lastModified(),
        meta.etag(),
        meta.sizeBytes(),
        "STANDARD",
        owner ? OWNER : null);
  }

  static Map<ChecksumAlgorithm, String> typedChecksums(Map<String, String> checksums) {
    Map<ChecksumAlgorithm, String> typed = new LinkedHashMap<>();
    checksums.forEach(
        (name, value) -> ChecksumAlgorithm.fromName(name).ifPresent(a -> typed.put(a, value)));
    return typed;
  }

  static int intParam(S3Request request, String name, int fallback, int min, int max) {
    Optional<String> value = request.query().first(name);
    if (value.isEmpty() || value.get().isEmpty()) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value.get());
      if (parsed < min) {
        throw new NumberFormatException();
      }
      return Math.min(parsed, max);
    } catch (NumberFormatException e) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT,
          "Provided " + name + " not an integer or within integer range");
    }
  }

  static boolean urlEncoding(S3Request request) {
    Optional<String> type = request.query().first("encoding-type");
    if (type.isEmpty()) {
      return false;
    }
    if (!type.get().equalsIgnoreCase("url")) {
      throw S3Exception.of(
          S3ErrorCode.INVALID_ARGUMENT, "Invalid Encoding Method specified in Request");
    }
    return true;
  }

  static List<String> nonNull(List<String> list) {
    return list == null ? List.of() : list;
  }
}
