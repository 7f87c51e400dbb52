package io.racs.proxy.s3.bridge;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One version of an object as the S3 layer sees it: what a GET, HEAD, copy or listing answers with,
 * and nothing of how the store keeps it (no shards, slots or data ids). The bridge builds it from
 * the store's record and keeps that record inside, out of the handlers' sight, so that {@link
 * StoreBridge#read} can stream exactly this version's bytes after its headers were chosen.
 *
 * <p>Immutable.
 */
public final class ObjectVersion {
  private final VersionMeta stored;
  private final Instant lastModified;
  private final List<Long> partSizes;
  private final List<Map<String, String>> partChecksums;
  private final String versionId;
  private final Map<String, String> tags;
  private final boolean tagsChanged;

  private ObjectVersion(
      VersionMeta stored, String versionId, Map<String, String> tags, boolean tagsChanged) {
    this.stored = stored;
    this.versionId = versionId;
    this.tags = tags;
    this.tagsChanged = tagsChanged;
    this.lastModified = Instant.ofEpochMilli(stored.lastModifiedMillis());
    // The object's bytes per part, not the sealed bytes an encrypted part holds.
    this.partSizes = stored.parts().stream().map(stored::plainBytes).toList();
    this.partChecksums = stored.parts().stream().map(PartMeta::checksums).toList();
  }

  /** The S3 view of the store's record {@code stored}. */
  static ObjectVersion of(VersionMeta stored) {
    return new ObjectVersion(stored, null, stored.tags(), false);
  }

  /**
   * The S3 view of a version in a bucket that was ever versioned: it answers its version id, which
   * is {@code null} for the null version (one written while versioning was not enabled).
   */
  static ObjectVersion versioned(VersionMeta stored) {
    return new ObjectVersion(stored, s3VersionId(stored), stored.tags(), false);
  }

  /** The id S3 names a version by: {@code null} for the null version, else the store's id. */
  static String s3VersionId(VersionMeta stored) {
    return stored.nullVersion() ? ObjectStore.NULL_VERSION : stored.versionId();
  }

  /**
   * The version id to answer in {@code x-amz-version-id}: set for a version in a bucket that was
   * ever versioned ({@code null} for its null version), null otherwise (a bucket never versioned,
   * whose versions S3 names by no id).
   */
  public String versionId() {
    return versionId;
  }

  /** The store's record, for the bridge to hand back to the store. */
  VersionMeta stored() {
    return stored;
  }

  /** The object key. */
  public String key() {
    return stored.key();
  }

  /** True for a delete marker. */
  public boolean deleteMarker() {
    return stored.deleteMarker();
  }

  /**
   * How the version is encrypted at rest, as S3 names it in {@code x-amz-server-side-encryption}
   * ({@code AES256} for SSE-S3), {@code SSE-C} when with a customer's key, or null when not.
   */
  public String encryption() {
    return stored.encryption() == null ? null : stored.encryption().mode();
  }

  /** The object's size. */
  public long sizeBytes() {
    return stored.sizeBytes();
  }

  /** The ETag, unquoted: MD5 hex, or {@code md5-of-part-md5s-N} for a multipart object. */
  public String etag() {
    return stored.etag();
  }

  /** When the version was committed. */
  public Instant lastModified() {
    return lastModified;
  }

  /** The MIME type. */
  public String contentType() {
    return stored.contentType();
  }

  /** The {@code x-amz-meta-*} pairs, names lower-case without the prefix. */
  public Map<String, String> userMetadata() {
    return stored.userMetadata();
  }

  /**
   * The standard headers stored with the object and returned on GET and HEAD ({@code
   * Cache-Control}, {@code Content-Disposition}, {@code Content-Encoding}, {@code
   * Content-Language}, {@code Expires}), by name as S3 writes it.
   */
  public Map<String, String> contentHeaders() {
    return stored.contentHeaders();
  }

  /**
   * The object's tags, key to value: those it was written with, or those a later PutObjectTagging
   * or DeleteObjectTagging set.
   */
  public Map<String, String> tags() {
    return tags;
  }

  /**
   * True when the tags were set after the version was written (PutObjectTagging or
   * DeleteObjectTagging), so that a copy of its record alone would not carry them.
   */
  public boolean tagsChanged() {
    return tagsChanged;
  }

  /** This version with the tags {@code taggings} (newest first, as the store lists them) set. */
  ObjectVersion withTaggings(List<ObjectStore.ObjectTagging> taggings) {
    Map<String, String> now = ObjectStore.ObjectTagging.of(stored, taggings);
    return new ObjectVersion(
        stored,
        versionId,
        now,
        taggings.stream().anyMatch(t -> t.versionId().equals(stored.versionId())));
  }

  /**
   * The client checksums of the whole object, algorithm name to base64 value (composite ones end
   * {@code -N}).
   */
  public Map<String, String> checksums() {
    return stored.checksums();
  }

  /** True when the object was made by a multipart upload. */
  public boolean multipart() {
    return stored.multipart();
  }

  /**
   * The number of parts: an object stored by one PUT is one part, an empty one or a delete marker
   * none.
   */
  public int partCount() {
    return partSizes.size();
  }

  /**
   * Where part {@code partNumber} (from 1) lies in the object: {@code {first byte, length}}; empty
   * when the object has fewer parts.
   */
  public Optional<long[]> partRange(int partNumber) {
    if (partNumber < 1 || partNumber > partSizes.size()) {
      return Optional.empty();
    }
    long start = 0;
    for (int i = 0; i < partNumber - 1; i++) {
      start += partSizes.get(i);
    }
    return Optional.of(new long[] {start, partSizes.get(partNumber - 1)});
  }

  /** The size of part {@code partNumber} (from 1 to {@link #partCount()}). */
  public long partSizeBytes(int partNumber) {
    return partSizes.get(partNumber - 1);
  }

  /**
   * The client checksums of part {@code partNumber} (from 1 to {@link #partCount()}), algorithm
   * name to base64 value; empty when the part was uploaded without one.
   */
  public Map<String, String> partChecksums(int partNumber) {
    return partChecksums.get(partNumber - 1);
  }
}
