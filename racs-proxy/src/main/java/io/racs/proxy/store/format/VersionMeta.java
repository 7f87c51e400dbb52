package io.racs.proxy.store.format;

import com.fasterxml.jackson.annotation.JsonInclude;
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
 * @param lock the object lock the version was written with (retention and legal hold), present on
 *     every version written in a bucket with object lock ({@link ObjectLock#NONE} when none was
 *     asked for) and null on every other: only a version with one may be locked later. Changes made
 *     later are lock records of their own ({@code RemovalRule} reads the newest).
 * @param layout the layout generation the record is in (docs/reshape.md §2): 0 for a version as
 *     written, the target's generation for a copy a reshape's mover wrote ({@link
 *     Layout#copyEntry}); a copy differs from its version's own record only in {@code geometry},
 *     {@code layout}, {@code movedMillis} and its parts' {@code dataId}, {@code pieceBytes}, {@code
 *     slots} and {@code inline}
 * @param movedMillis when the mover wrote this copy (0 for a version's own record): a copy's
 *     version id is its version's, so this is what its settle time and GC grace count from
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
    SealRecord encryption,
    boolean nullVersion,
    ObjectLock lock,
    // Left out of records that are no copy, so that those read as they did before copies existed.
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) int layout,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) long movedMillis) {
  /** Copies the collections. */
  public VersionMeta {
    tags = tags == null ? Map.of() : Map.copyOf(tags);
    userMetadata = userMetadata == null ? Map.of() : Map.copyOf(userMetadata);
    checksums = checksums == null ? Map.of() : Map.copyOf(checksums);
    parts = parts == null ? List.of() : List.copyOf(parts);
    contentHeaders = contentHeaders == null ? Map.of() : Map.copyOf(contentHeaders);
  }

  /** A builder of a version record; every field not set is empty, false or zero (format 1). */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this record's fields, to derive a record that differs in a few. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.format = format;
    b.arrayId = arrayId;
    b.bucket = bucket;
    b.key = key;
    b.versionId = versionId;
    b.deleteMarker = deleteMarker;
    b.sizeBytes = sizeBytes;
    b.etag = etag;
    b.contentType = contentType;
    b.userMetadata = userMetadata;
    b.checksums = checksums;
    b.lastModifiedMillis = lastModifiedMillis;
    b.geometry = geometry;
    b.multipart = multipart;
    b.parts = parts;
    b.contentHeaders = contentHeaders;
    b.tags = tags;
    b.encryption = encryption;
    b.nullVersion = nullVersion;
    b.lock = lock;
    b.layout = layout;
    b.movedMillis = movedMillis;
    return b;
  }

  /** A record with {@code encryption} instead of this one's. */
  public VersionMeta withEncryption(SealRecord encryption) {
    return toBuilder().encryption(encryption).build();
  }

  /** A record with {@code nullVersion} instead of this one's. */
  public VersionMeta withNullVersion(boolean nullVersion) {
    return toBuilder().nullVersion(nullVersion).build();
  }

  /**
   * Builds a {@link VersionMeta} by field name, so that no writer depends on the order of
   * twenty-two fields. Not thread-safe; one builder makes one record at a time.
   */
  public static final class Builder {
    private int format = 1;
    private String arrayId;
    private String bucket;
    private String key;
    private String versionId;
    private boolean deleteMarker;
    private long sizeBytes;
    private String etag;
    private String contentType;
    private Map<String, String> userMetadata;
    private Map<String, String> checksums;
    private long lastModifiedMillis;
    private String geometry;
    private boolean multipart;
    private List<PartMeta> parts;
    private Map<String, String> contentHeaders;
    private Map<String, String> tags;
    private SealRecord encryption;
    private boolean nullVersion;
    private ObjectLock lock;
    private int layout;
    private long movedMillis;

    private Builder() {}

    /** Sets {@code format} (see {@link VersionMeta}). */
    public Builder format(int format) {
      this.format = format;
      return this;
    }

    /** Sets {@code arrayId} (see {@link VersionMeta}). */
    public Builder arrayId(String arrayId) {
      this.arrayId = arrayId;
      return this;
    }

    /** Sets {@code bucket} (see {@link VersionMeta}). */
    public Builder bucket(String bucket) {
      this.bucket = bucket;
      return this;
    }

    /** Sets {@code key} (see {@link VersionMeta}). */
    public Builder key(String key) {
      this.key = key;
      return this;
    }

    /** Sets {@code versionId} (see {@link VersionMeta}). */
    public Builder versionId(String versionId) {
      this.versionId = versionId;
      return this;
    }

    /** Sets {@code deleteMarker} (see {@link VersionMeta}). */
    public Builder deleteMarker(boolean deleteMarker) {
      this.deleteMarker = deleteMarker;
      return this;
    }

    /** Sets {@code sizeBytes} (see {@link VersionMeta}). */
    public Builder sizeBytes(long sizeBytes) {
      this.sizeBytes = sizeBytes;
      return this;
    }

    /** Sets {@code etag} (see {@link VersionMeta}). */
    public Builder etag(String etag) {
      this.etag = etag;
      return this;
    }

    /** Sets {@code contentType} (see {@link VersionMeta}). */
    public Builder contentType(String contentType) {
      this.contentType = contentType;
      return this;
    }

    /** Sets {@code userMetadata} (see {@link VersionMeta}). */
    public Builder userMetadata(Map<String, String> userMetadata) {
      this.userMetadata = userMetadata;
      return this;
    }

    /** Sets {@code checksums} (see {@link VersionMeta}). */
    public Builder checksums(Map<String, String> checksums) {
      this.checksums = checksums;
      return this;
    }

    /** Sets {@code lastModifiedMillis} (see {@link VersionMeta}). */
    public Builder lastModifiedMillis(long lastModifiedMillis) {
      this.lastModifiedMillis = lastModifiedMillis;
      return this;
    }

    /** Sets {@code geometry} (see {@link VersionMeta}). */
    public Builder geometry(String geometry) {
      this.geometry = geometry;
      return this;
    }

    /** Sets {@code multipart} (see {@link VersionMeta}). */
    public Builder multipart(boolean multipart) {
      this.multipart = multipart;
      return this;
    }

    /** Sets {@code parts} (see {@link VersionMeta}). */
    public Builder parts(List<PartMeta> parts) {
      this.parts = parts;
      return this;
    }

    /** Sets {@code contentHeaders} (see {@link VersionMeta}). */
    public Builder contentHeaders(Map<String, String> contentHeaders) {
      this.contentHeaders = contentHeaders;
      return this;
    }

    /** Sets {@code tags} (see {@link VersionMeta}). */
    public Builder tags(Map<String, String> tags) {
      this.tags = tags;
      return this;
    }

    /** Sets {@code encryption} (see {@link VersionMeta}). */
    public Builder encryption(SealRecord encryption) {
      this.encryption = encryption;
      return this;
    }

    /** Sets {@code nullVersion} (see {@link VersionMeta}). */
    public Builder nullVersion(boolean nullVersion) {
      this.nullVersion = nullVersion;
      return this;
    }

    /** Sets {@code lock} (see {@link VersionMeta}). */
    public Builder lock(ObjectLock lock) {
      this.lock = lock;
      return this;
    }

    /** Sets {@code layout} (see {@link VersionMeta}). */
    public Builder layout(int layout) {
      this.layout = layout;
      return this;
    }

    /** Sets {@code movedMillis} (see {@link VersionMeta}). */
    public Builder movedMillis(long movedMillis) {
      this.movedMillis = movedMillis;
      return this;
    }

    /** The record. */
    public VersionMeta build() {
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
          nullVersion,
          lock,
          layout,
          movedMillis);
    }
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
  public static long plainBytes(SealRecord encryption, PartMeta part) {
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
