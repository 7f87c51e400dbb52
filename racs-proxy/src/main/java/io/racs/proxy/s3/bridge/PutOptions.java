package io.racs.proxy.s3.bridge;

import io.racs.proxy.s3.sse.SseRequest;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a PUT, a copy that replaces metadata or tags, or a multipart upload stores besides the
 * bytes.
 *
 * @param contentType the MIME type; null for the default ({@code binary/octet-stream})
 * @param userMetadata {@code x-amz-meta-*} pairs, names lower-case without the prefix
 * @param checksums the client checksums (algorithm name to base64 value), asked for once the body
 *     was read to its end
 * @param contentHeaders the standard object headers to keep (see {@link
 *     ObjectVersion#contentHeaders()})
 * @param tags the object's tags, validated (key to value); null for none
 * @param sse the encryption the write asks for ({@link SseRequest#NONE} for none; its copy-source
 *     key, if any, is not used here)
 * @param lock the version's object lock (retention and legal hold), null when none was asked for
 *     (the store then gives a version in a bucket with object lock {@link VersionLock#NONE})
 */
public record PutOptions(
    String contentType,
    Map<String, String> userMetadata,
    Supplier<Map<String, String>> checksums,
    Map<String, String> contentHeaders,
    Map<String, String> tags,
    SseRequest sse,
    VersionLock lock) {
  /** Defaults {@code sse} to none. */
  public PutOptions {
    sse = sse == null ? SseRequest.NONE : sse;
  }

  /** Options without an object lock. */
  public PutOptions(
      String contentType,
      Map<String, String> userMetadata,
      Supplier<Map<String, String>> checksums,
      Map<String, String> contentHeaders,
      Map<String, String> tags,
      SseRequest sse) {
    this(contentType, userMetadata, checksums, contentHeaders, tags, sse, null);
  }

  /** Options with tags that ask for no encryption. */
  public PutOptions(
      String contentType,
      Map<String, String> userMetadata,
      Supplier<Map<String, String>> checksums,
      Map<String, String> contentHeaders,
      Map<String, String> tags) {
    this(contentType, userMetadata, checksums, contentHeaders, tags, null);
  }

  /** Options without tags that ask for no encryption. */
  public PutOptions(
      String contentType,
      Map<String, String> userMetadata,
      Supplier<Map<String, String>> checksums,
      Map<String, String> contentHeaders) {
    this(contentType, userMetadata, checksums, contentHeaders, null, null);
  }

  /** These options with another encryption. */
  public PutOptions withSse(SseRequest sse) {
    return new PutOptions(contentType, userMetadata, checksums, contentHeaders, tags, sse, lock);
  }

  /** These options with another object lock. */
  public PutOptions withLock(VersionLock lock) {
    return new PutOptions(contentType, userMetadata, checksums, contentHeaders, tags, sse, lock);
  }
}
