package io.racs.proxy.store.api;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The multipart uploads of an {@link ObjectStore}: an upload is created, its parts are stored one
 * by one (each striped as a PUT's data), and its completion commits the chosen parts as one version
 * without writing their data again; until then no reader sees any of it. Failures, threading and
 * bodies are as {@link ObjectStore} says.
 */
public interface MultipartStore {
  /**
   * The checksum an upload's object is to have, as the caller named it when it created the upload
   * (S3's {@code x-amz-checksum-algorithm} and {@code x-amz-checksum-type}). The store keeps the
   * names in the upload's record and gives them back; it does not read them.
   *
   * @param algorithm the algorithm's name, never null
   * @param type how the object's checksum covers it; null when none was named
   */
  record UploadChecksum(String algorithm, String type) {
    /** Checks the algorithm. */
    public UploadChecksum {
      if (algorithm == null || algorithm.isEmpty()) {
        throw new IllegalArgumentException("algorithm: " + algorithm + " (expected: a name)");
      }
    }
  }

  /**
   * A multipart upload in progress.
   *
   * @param checksum the checksum named at its creation; null when none was (or it was created by a
   *     version of the store that did not keep one)
   */
  record UploadInfo(String key, String uploadId, Instant initiated, UploadChecksum checksum) {
    /** An upload created without a checksum. */
    public UploadInfo(String key, String uploadId, Instant initiated) {
      this(key, uploadId, initiated, null);
    }
  }

  /** An upload and the parts uploaded so far, by number. */
  record UploadParts(UploadInfo upload, List<PartInfo> parts) {
    /** Copies the parts. */
    public UploadParts {
      parts = List.copyOf(parts);
    }
  }

  /**
   * A check of the upload a part is for, run once the upload's record is read and before the part's
   * body is read (so that the caller may refuse a part its upload does not take, or prepare what it
   * computes over the body). It refuses the part by throwing an unchecked exception, which the
   * upload of the part then rethrows unchanged, having stored nothing.
   */
  @FunctionalInterface
  interface PartCheck {
    /** No check. */
    PartCheck NONE = upload -> {};

    /** Throws when the part must not be stored. */
    void check(UploadInfo upload);
  }

  /**
   * Derives the whole object's checksums (algorithm name to value) when an upload completes, from
   * the upload (with the checksum named at its creation) and its chosen parts, in order and with
   * their plaintext sizes. What it throws fails the completion, which then changes nothing.
   */
  @FunctionalInterface
  interface ObjectChecksums {
    /** The object's checksums. */
    Map<String, String> of(UploadInfo upload, List<PartMeta> chosen);
  }

  /** An uploaded part, with the client checksums it was stored with. */
  record PartInfo(
      int partNumber,
      long sizeBytes,
      String etag,
      Instant lastModified,
      Map<String, String> checksums) {}

  /** A part named in a completion: number and the ETag the client holds (unquoted). */
  record CompletedPart(int partNumber, String etag) {}

  /** Starts an upload without a checksum and returns its id. */
  default String createMultipartUpload(String bucket, String key, ObjectStore.PutOptions options) {
    return createMultipartUpload(bucket, key, options, null);
  }

  /**
   * Starts an upload whose record keeps {@code checksum} (null for none) and returns its id; {@link
   * UploadInfo#checksum()} gives it back to the part checks and the completion.
   */
  String createMultipartUpload(
      String bucket, String key, ObjectStore.PutOptions options, UploadChecksum checksum);

  /**
   * Stores one part (1 to 10000); a part uploaded again replaces the earlier one. {@code checksums}
   * is asked for after the body was read to its end.
   */
  default PartInfo uploadPart(
      String bucket,
      String key,
      String uploadId,
      int partNumber,
      InputStream body,
      long length,
      Supplier<Map<String, String>> checksums) {
    return uploadPart(bucket, key, uploadId, partNumber, body, length, checksums, null);
  }

  /**
   * {@link #uploadPart(String, String, String, int, InputStream, long, Supplier)} of an upload
   * sealed with a customer's key, which every part must give again (null for none), as {@link
   * ObjectStore#get} checks it.
   */
  default PartInfo uploadPart(
      String bucket,
      String key,
      String uploadId,
      int partNumber,
      InputStream body,
      long length,
      Supplier<Map<String, String>> checksums,
      CustomerKey customerKey) {
    return uploadPart(
        bucket, key, uploadId, partNumber, body, length, checksums, customerKey, PartCheck.NONE);
  }

  /**
   * {@link #uploadPart(String, String, String, int, InputStream, long, Supplier, CustomerKey)} if
   * {@code check} passes the upload, checked before the body is read.
   */
  PartInfo uploadPart(
      String bucket,
      String key,
      String uploadId,
      int partNumber,
      InputStream body,
      long length,
      Supplier<Map<String, String>> checksums,
      CustomerKey customerKey,
      PartCheck check);

  /** The parts uploaded so far, by number. */
  default List<PartInfo> listParts(String bucket, String key, String uploadId) {
    return parts(bucket, key, uploadId).parts();
  }

  /** The upload and the parts uploaded so far, by number. */
  UploadParts parts(String bucket, String key, String uploadId);

  /**
   * Commits the named parts as a new version; writes no data again. {@code objectChecksums} derives
   * the whole object's checksums from the chosen parts (S3's composite or full-object checksums),
   * given in order and with their plaintext sizes; what it throws fails the completion, which then
   * changes nothing.
   */
  default VersionMeta completeMultipartUpload(
      String bucket,
      String key,
      String uploadId,
      List<CompletedPart> parts,
      Function<List<PartMeta>, Map<String, String>> objectChecksums) {
    return completeMultipartUpload(
        bucket, key, uploadId, parts, objectChecksums, ObjectStore.WriteCondition.NONE);
  }

  /**
   * {@link #completeMultipartUpload(String, String, String, List, Function)} if {@code condition}
   * holds; when it does not, the upload and its parts stay as they were.
   */
  default VersionMeta completeMultipartUpload(
      String bucket,
      String key,
      String uploadId,
      List<CompletedPart> parts,
      Function<List<PartMeta>, Map<String, String>> objectChecksums,
      ObjectStore.WriteCondition condition) {
    ObjectChecksums ofParts = (upload, chosen) -> objectChecksums.apply(chosen);
    return completeMultipartUpload(bucket, key, uploadId, parts, ofParts, condition);
  }

  /**
   * {@link #completeMultipartUpload(String, String, String, List, Function,
   * ObjectStore.WriteCondition)} with the object's checksums derived from the upload as well as its
   * parts.
   */
  VersionMeta completeMultipartUpload(
      String bucket,
      String key,
      String uploadId,
      List<CompletedPart> parts,
      ObjectChecksums objectChecksums,
      ObjectStore.WriteCondition condition);

  /** Discards an upload and its parts. */
  void abortMultipartUpload(String bucket, String key, String uploadId);

  /**
   * Gives an upload up on nobody's request (a lifecycle rule, or its age): from now on it answers
   * {@code NO_SUCH_UPLOAD}, but a completion that read it just before still commits whole. By
   * default the same as {@link #abortMultipartUpload}; a store whose aborts delete the parts' data
   * at once should keep it until such a completion has surely ended.
   */
  default void abandonMultipartUpload(String bucket, String key, String uploadId) {
    abortMultipartUpload(bucket, key, uploadId);
  }

  /** Uploads in progress whose key starts with {@code prefix}. */
  List<UploadInfo> listMultipartUploads(String bucket, String prefix);
}
