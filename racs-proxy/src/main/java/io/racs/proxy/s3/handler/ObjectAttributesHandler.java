package io.racs.proxy.s3.handler;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.s3.bridge.ObjectVersion;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.checksum.ChecksumAlgorithm;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.sse.SseRequest;
import io.racs.proxy.s3.xml.S3XmlResponses;
import io.racs.proxy.s3.xml.XmlModel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * GetObjectAttributes, the object family's read of what a version is without its body: which
 * attributes a request asks for, the page of parts and the checksum type. Thread-safe: it holds
 * only the store and the encryption settings.
 */
final class ObjectAttributesHandler {
  private final StoreBridge store;
  private final SsePolicy encryption;

  ObjectAttributesHandler(StoreBridge store, SsePolicy encryption) {
    this.store = store;
    this.encryption = encryption;
  }

  /** The attributes GetObjectAttributes can be asked for, as S3 spells them. */
  private static final List<String> OBJECT_ATTRIBUTES =
      List.of("ETag", "Checksum", "ObjectParts", "StorageClass", "ObjectSize");

  /**
   * GetObjectAttributes: the attributes named in {@code x-amz-object-attributes} (comma-separated,
   * at least one) of the current object. {@code ObjectParts} is answered for a multipart object
   * only, as S3 does, a page of up to {@code x-amz-max-parts} (default and cap 1,000) parts after
   * {@code x-amz-part-number-marker}; {@code Checksum} only when the object was stored with one.
   */
  S3Response attributes(S3Request request) {
    Set<String> wanted = new HashSet<>();
    for (String value : request.headers().all("x-amz-object-attributes")) {
      for (String name : value.split(",")) {
        String attribute = name.strip();
        if (!OBJECT_ATTRIBUTES.contains(attribute)) {
          throw invalidAttribute(attribute);
        }
        wanted.add(attribute);
      }
    }
    if (wanted.isEmpty()) {
      throw invalidAttribute("");
    }
    int maxParts = headerInt(request, "x-amz-max-parts", 1_000);
    int marker = headerInt(request, "x-amz-part-number-marker", 0);
    CustomerKey customerKey =
        encryption.parse(request, SseRequest.Allowed.CUSTOMER_KEY).customerKey();
    ObjectVersion exact = ObjectHandler.addressedVersion(store, request);
    ObjectVersion meta = exact != null ? exact : store.head(request.bucket(), request.key());
    // As HEAD: an object sealed with a customer's key tells nothing of itself without that key.
    store.checkKey(meta, customerKey);
    Map<ChecksumAlgorithm, String> checksum = null;
    String checksumType = null;
    if (wanted.contains("Checksum") && !meta.checksums().isEmpty()) {
      checksum = Responses.typedChecksums(meta.checksums());
      checksumType =
          checksum.values().stream()
                  .anyMatch(v -> io.racs.proxy.s3.checksum.ChecksumType.ofValue(v).isComposite())
              ? "COMPOSITE"
              : "FULL_OBJECT";
    }
    List<XmlModel.AttributePart> parts = null;
    int next = 0;
    boolean truncated = false;
    if (wanted.contains("ObjectParts") && meta.multipart()) {
      parts = new ArrayList<>();
      for (int n = marker + 1; n <= meta.partCount(); n++) {
        if (parts.size() == maxParts) {
          truncated = true;
          break;
        }
        parts.add(
            new XmlModel.AttributePart(
                n, meta.partSizeBytes(n), Responses.typedChecksums(meta.partChecksums(n))));
        next = n;
      }
    }
    XmlModel.ObjectAttributes answer =
        new XmlModel.ObjectAttributes(
            wanted.contains("ETag") ? meta.etag() : null,
            checksum,
            checksumType,
            parts,
            meta.partCount(),
            marker,
            next,
            maxParts,
            truncated,
            wanted.contains("StorageClass") ? "STANDARD" : null,
            wanted.contains("ObjectSize") ? meta.sizeBytes() : null);
    S3Response response =
        S3Response.xml(S3XmlResponses.objectAttributes(answer))
            .header("Last-Modified", Responses.httpDate(meta.lastModified()));
    Responses.versionIdHeader(response, meta);
    return response;
  }

  private static S3Exception invalidAttribute(String name) {
    return S3Exception.of(S3ErrorCode.INVALID_ARGUMENT, "Invalid attribute name specified.")
        .withDetail("ArgumentName", "x-amz-object-attributes")
        .withDetail("ArgumentValue", name);
  }

  /** A non-negative integer header ({@code x-amz-max-parts} caps at 1,000, as S3 does). */
  private static int headerInt(S3Request request, String name, int fallback) {
    Optional<String> value = request.headers().first(name);
    if (value.isEmpty()) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value.get().strip());
      if (parsed < 0) {
        throw new NumberFormatException();
      }
      return name.equals("x-amz-max-parts") ? Math.min(parsed, 1_000) : parsed;
    } catch (NumberFormatException e) {
      throw S3Exception.of(
              S3ErrorCode.INVALID_ARGUMENT,
              "Provided " + name + " not an integer or within integer range")
          .withDetail("ArgumentName", name)
          .withDetail("ArgumentValue", value.get());
    }
  }
}
