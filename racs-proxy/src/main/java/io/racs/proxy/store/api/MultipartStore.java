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
  /** A multipart upload in progress. */
  record UploadInfo(String key, String uploadId, Instant initiated) {}

  /** An uploaded part, with the client checksums it was stored with. */
  record PartInfo(
      int partNumber,
      long sizeBytes,
      String etag,
      Instant lastModified,
      Map<String, String> checksums) {}

  /** A part named in a completion: number and the ETag the client holds (unquoted). */
  record CompletedPart(int partNumber, String etag) {}

  /** Starts an upload and returns its id. */
  String createMultipartUpload(String bucket, String key, ObjectStore.PutOptions options);

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
  PartInfo uploadPart(
      String bucket,
      String key,
      String uploadId,
      int partNumber,
      InputStream body,
      long length,
      Supplier<Map<String, String>> checksums,
      CustomerKey customerKey);

  /** The parts uploaded so far, by number. */
  List<PartInfo> listParts(String bucket, String key, String uploadId);

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
  VersionMeta completeMultipartUpload(
      String bucket,
      String key,
      String uploadId,
      List<CompletedPart> parts,
      Function<List<PartMeta>, Map<String, String>> objectChecksums,
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
