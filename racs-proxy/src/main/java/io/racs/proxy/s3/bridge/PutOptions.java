package io.racs.proxy.s3.bridge;

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
 */
public record PutOptions(
    String contentType,
    Map<String, String> userMetadata,
    Supplier<Map<String, String>> checksums,
    Map<String, String> contentHeaders,
    Map<String, String> tags) {
  /** Options without tags. */
  public PutOptions(
      String contentType,
      Map<String, String> userMetadata,
      Supplier<Map<String, String>> checksums,
      Map<String, String> contentHeaders) {
    this(contentType, userMetadata, checksums, contentHeaders, null);
  }
}
