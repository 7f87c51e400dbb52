package io.racs.proxy.store.format;

import io.racs.proxy.crypto.SealedLayout;
import io.racs.proxy.store.commit.VersionResolver;
import java.util.List;
import java.util.Map;

/**
 * Everything about one version of one object, stored as its index entry on every repository of the
 * array: any k repositories are enough to rebuild both the data and this record.
 *
 * @param format record format version (1)
 * @param arrayId the array the version belongs to
 * @param bucket bucket name
 * @param key object key
 * @param versionId the version's id (see {@link VersionId})
 * @param deleteMarker true for a delete marker (no data, hides older versions)
 * @param sizeBytes object size
 * @param etag S3 ETag, unquoted: MD5 hex, or {@code md5-of-part-md5s-N} for multipart
 * @param contentType MIME type
 * @param userMetadata {@code x-amz-meta-*} pairs (names lower-case, without the prefix)
 * @param checksums client checksums of the whole object (algorithm to base64; composite ones end
 *     {@code -N})
 * @param lastModifiedMillis commit time
 * @param geometry {@code DxP}
 * @param multipart true when the parts are S3 multipart parts
 * @param parts the data, in order
 * @param contentHeaders the standard headers S3 stores with an object and returns on GET and HEAD
 *     ({@code Cache-Control}, {@code Content-Disposition}, {@code Content-Encoding}, {@code
 *     Content-Language}, {@code Expires}), by name as S3 writes it; empty in records written before
 *     they were kept
 * @param tags the object tags given when the version was written ({@code x-amz-tagging}), key to
 *     value; empty in records written before tags were kept. Tags set later are tag-set records of
 *     their own, since a record is never changed.
 * @param encryption how the parts' bytes are sealed; null when they are stored as sent ({@code
 *     sizeBytes} is then the plaintext's size, and each part's {@code sizeBytes} the sealed size)
 * @param nullVersion true when the version was written while its bucket's versioning was not {@code
 *     Enabled} (never turned on, or suspended): S3 calls it the {@code null} version. Its {@code
 *     versionId} is still a unique id, which orders it among the key's versions (see {@code
 *     docs/ordering.md}); of several such records of a key only the newest is the null version
 *     ({@link VersionResolver#nullVersion}), the older ones are superseded and removed. False in
 *     records written before the flag existed.
 */
public record VersionMeta(
    int format,
    String arrayId,
    String bucket,
    String key,
    String versionId,
    boolean deleteMarker,
    long sizeBytes,
    String etag,
    String contentType,
    Map<String, String> userMetadata,
    Map<String, String> checksums,
    long lastModifiedMillis,
    String geometry,
    boolean multipart,
    List<PartMeta> parts,
    Map<String, String> contentHeaders,
    Map<String, String> tags,
    Encryption encryption,
    boolean nullVersion) {
  /** Copies the collections. */
  public VersionMeta {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
    userMetadata = userMetadata == null ? Map.of() : Map.copyOf(userMetadata);
    checksums = checksums == null ? Map.of() : Map.copyOf(checksums);
    parts = parts == null ? List.of() : List.copyOf(parts);
    contentHeaders = contentHeaders == null ? Map.of() : Map.copyOf(contentHeaders);
  }

  /** A version with a version id of its own (not the {@code null} version). */
  public VersionMeta(
      int format,
      String arrayId,
      String bucket,
      String key,
      String versionId,
      boolean deleteMarker,
      long sizeBytes,
      String etag,
      String contentType,
      Map<String, String> userMetadata,
      Map<String, String> checksums,
      long lastModifiedMillis,
      String geometry,
      boolean multipart,
      List<PartMeta> parts,
      Map<String, String> contentHeaders,
      Map<String, String> tags,
      Encryption encryption) {
    this(
        format,
        arrayId,
        bucket,
        key,
        versionId,
        deleteMarker,
        sizeBytes,
        etag,
        contentType,
        userMetadata,
        checksums,
        lastModifiedMillis,
        geometry,
        multipart,
        parts,
        contentHeaders,
        tags,
        encryption,
        false);
  }

  /** A version without tags, stored as sent (a delete marker, or a plain PUT without tags). */
  public VersionMeta(
      int format,
      String arrayId,
      String bucket,
      String key,
      String versionId,
      boolean deleteMarker,
      long sizeBytes,
      String etag,
      String contentType,
      Map<String, String> userMetadata,
      Map<String, String> checksums,
      long lastModifiedMillis,
      String geometry,
      boolean multipart,
      List<PartMeta> parts,
      Map<String, String> contentHeaders) {
    this(
        format,
        arrayId,
        bucket,
        key,
        versionId,
        deleteMarker,
        sizeBytes,
        etag,
        contentType,
        userMetadata,
        checksums,
        lastModifiedMillis,
        geometry,
        multipart,
        parts,
        contentHeaders,
        null,
        null);
  }

  /** A version with tags given at write time, stored as sent (no encryption). */
  public VersionMeta(
      int format,
      String arrayId,
      String bucket,
      String key,
      String versionId,
      boolean deleteMarker,
      long sizeBytes,
      String etag,
      String contentType,
      Map<String, String> userMetadata,
      Map<String, String> checksums,
      long lastModifiedMillis,
      String geometry,
      boolean multipart,
      List<PartMeta> parts,
      Map<String, String> contentHeaders,
      Map<String, String> tags) {
    this(
        format,
        arrayId,
        bucket,
        key,
        versionId,
        deleteMarker,
        sizeBytes,
        etag,
        contentType,
        userMetadata,
        checksums,
        lastModifiedMillis,
        geometry,
        multipart,
        parts,
        contentHeaders,
        tags,
        null);
  }

  /** A version without tags whose parts are sealed as {@code encryption} says. */
  public VersionMeta(
      int format,
      String arrayId,
      String bucket,
      String key,
      String versionId,
      boolean deleteMarker,
      long sizeBytes,
      String etag,
      String contentType,
      Map<String, String> userMetadata,
      Map<String, String> checksums,
      long lastModifiedMillis,
      String geometry,
      boolean multipart,
      List<PartMeta> parts,
      Map<String, String> contentHeaders,
      Encryption encryption) {
    this(
        format,
        arrayId,
        bucket,
        key,
        versionId,
        deleteMarker,
        sizeBytes,
        etag,
        contentType,
        userMetadata,
        checksums,
        lastModifiedMillis,
        geometry,
        multipart,
        parts,
        contentHeaders,
        null,
        encryption);
  }

  /** This version with its data key wrapped anew (key rotation; the data is unchanged). */
  public VersionMeta withEncryption(Encryption encryption) {
    return new VersionMeta(
        format,
        arrayId,
        bucket,
        key,
        versionId,
        deleteMarker,
        sizeBytes,
        etag,
        contentType,
        userMetadata,
        checksums,
        lastModifiedMillis,
        geometry,
        multipart,
        parts,
        contentHeaders,
        tags,
        encryption,
        nullVersion);
  }

  /** This version flagged as the {@code null} version, or not. */
  public VersionMeta withNullVersion(boolean nullVersion) {
    return new VersionMeta(
        format,
        arrayId,
        bucket,
        key,
        versionId,
        deleteMarker,
        sizeBytes,
        etag,
        contentType,
        userMetadata,
        checksums,
        lastModifiedMillis,
        geometry,
        multipart,
        parts,
        contentHeaders,
        tags,
        encryption,
        nullVersion);
  }

  /**
   * The object bytes of one of this version's parts: its size as stored, less the seals' overhead
   * when the version is encrypted (a part's {@code sizeBytes} is what the repositories hold).
   */
  public long plainBytes(PartMeta part) {
    return plainBytes(encryption, part);
  }

  /**
   * The plaintext bytes of one part sealed with {@code encryption} (none: {@code null}): its stored
   * bytes, less the seals' overhead.
   */
  public static long plainBytes(Encryption encryption, PartMeta part) {
    return encryption == null ? part.sizeBytes() : SealedLayout.plainLength(part.sizeBytes());
  }

  /**
   * Where part {@code partNumber} (from 1) lies in the object: {@code {first byte, length}}; empty
   * when the object has fewer parts. An object stored in one piece is part 1 of 1.
   */
  public java.util.Optional<long[]> partRange(int partNumber) {
    if (partNumber < 1 || partNumber > parts.size()) {
      return java.util.Optional.empty();
    }
    long start = 0;
    for (int i = 0; i < partNumber - 1; i++) {
      start += plainBytes(parts.get(i));
    }
    return java.util.Optional.of(new long[] {start, plainBytes(parts.get(partNumber - 1))});
  }
}
