package io.racs.proxy.s3.bridge;

import io.racs.proxy.s3.sse.SseRequest;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.ObjectLock;
import io.racs.proxy.store.format.Sealing;
import io.racs.proxy.store.format.VersionMeta;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The mapping between the two views: the store's records into the S3 layer's own types ({@link
 * ObjectListing}, {@link UploadedPart}...), and what a handler asks with ({@link PutOptions},
 * {@link WriteCondition}...) into the store's forms. Only {@link StoreBridge} uses it; {@link
 * ObjectVersion} maps a single version itself, as it keeps the record inside.
 *
 * <p>Pure functions, no store calls.
 */
final class StoreViews {
  private StoreViews() {}

  // ---- store records → the S3 view ----

  static Bucket bucket(ObjectStore.BucketInfo bucket) {
    return new Bucket(bucket.name(), bucket.created());
  }

  static MultipartUpload upload(ObjectStore.UploadInfo upload) {
    ObjectStore.UploadChecksum checksum = upload.checksum();
    return new MultipartUpload(
        upload.key(),
        upload.uploadId(),
        upload.initiated(),
        checksum == null ? null : checksum.algorithm(),
        checksum == null ? null : checksum.type());
  }

  static PartListing parts(ObjectStore.UploadParts parts) {
    return new PartListing(
        upload(parts.upload()), parts.parts().stream().map(StoreViews::part).toList());
  }

  static UploadedPart part(ObjectStore.PartInfo part) {
    return new UploadedPart(
        part.partNumber(), part.sizeBytes(), part.etag(), part.lastModified(), part.checksums());
  }

  /**
   * A version just written or read as the current one: with its version id when its bucket is
   * {@code versioned} (S3 answers {@code x-amz-version-id} on PUT, GET and HEAD there), as the
   * {@code null} version otherwise.
   */
  static ObjectVersion current(VersionMeta stored, boolean versioned) {
    return versioned ? ObjectVersion.versioned(stored) : ObjectVersion.of(stored);
  }

  /** A page of current versions; a listing names no version ids. */
  static ObjectListing listing(ObjectStore.ListResult result) {
    return new ObjectListing(
        result.objects().stream().map(ObjectVersion::of).toList(),
        result.commonPrefixes(),
        result.truncated(),
        result.nextStartAfter());
  }

  /** A page of every version and delete marker, each with its version id. */
  static VersionListing versionListing(ObjectStore.VersionListResult result) {
    return new VersionListing(
        result.versions().stream().map(v -> ObjectVersion.versioned(v.meta())).toList(),
        result.versions().stream().map(ObjectStore.ListedVersion::latest).toList(),
        result.commonPrefixes(),
        result.truncated(),
        result.nextKeyMarker(),
        result.nextVersionIdMarker());
  }

  /**
   * A bucket's versioning status as GetBucketVersioning answers it: {@code Enabled}, {@code
   * Suspended}, or null when it was never versioned.
   */
  static String versioningStatus(ObjectStore.Versioning versioning) {
    return switch (versioning) {
      case ENABLED -> "Enabled";
      case SUSPENDED -> "Suspended";
      case OFF -> null;
    };
  }

  // ---- the S3 layer's requests → the store's forms ----

  static ObjectStore.PutOptions options(PutOptions options) {
    return new ObjectStore.PutOptions(
        options.contentType(),
        options.userMetadata(),
        options.checksums(),
        options.contentHeaders(),
        options.tags(),
        sealing(options.sse()),
        lock(options.lock()));
  }

  /** The store's form of a version's lock (null stays null). */
  static ObjectLock lock(VersionLock lock) {
    return lock == null
        ? null
        : new ObjectLock(
            lock.mode(),
            lock.retainUntil() == null ? 0 : lock.retainUntil().toEpochMilli(),
            lock.legalHold());
  }

  /** The S3 layer's view of a version's lock (null stays null). */
  static VersionLock lock(ObjectLock lock) {
    return lock == null
        ? null
        : new VersionLock(
            lock.mode(),
            lock.hasRetention() ? java.time.Instant.ofEpochMilli(lock.retainUntilMillis()) : null,
            lock.legalHold());
  }

  /** The store's sealing for what a request asks (its copy-source key aside). */
  static Sealing sealing(SseRequest sse) {
    if (sse.serverSide()) {
      return Sealing.S3_MANAGED;
    }
    return sse.customerKey() != null ? new Sealing.Customer(sse.customerKey()) : Sealing.NONE;
  }

  /**
   * The store's form of a condition. No condition stays the store's {@code NONE}, which spares the
   * store the lookup of the current version.
   */
  static ObjectStore.WriteCondition condition(WriteCondition condition) {
    if (condition == WriteCondition.NONE) {
      return ObjectStore.WriteCondition.NONE;
    }
    return current -> condition.check(current.map(VersionMeta::etag));
  }

  /** The store's form of an upload's checksum: null without an algorithm. */
  static ObjectStore.UploadChecksum uploadChecksum(String algorithm, String type) {
    return algorithm == null ? null : new ObjectStore.UploadChecksum(algorithm, type);
  }

  static List<ObjectStore.CompletedPart> completedParts(List<CompletedPart> parts) {
    return parts.stream()
        .map(p -> new ObjectStore.CompletedPart(p.partNumber(), p.etag()))
        .toList();
  }

  /**
   * The store's form of a derivation of the whole object's checksums from its upload and chosen
   * parts: the S3 layer sees the upload and only each part's checksums, in order.
   */
  static ObjectStore.ObjectChecksums checksumsOfParts(
      BiFunction<MultipartUpload, List<PartChecksums>, Map<String, String>> objectChecksums) {
    return (upload, chosen) ->
        objectChecksums.apply(
            upload(upload),
            chosen.stream().map(p -> new PartChecksums(p.sizeBytes(), p.checksums())).toList());
  }
}
