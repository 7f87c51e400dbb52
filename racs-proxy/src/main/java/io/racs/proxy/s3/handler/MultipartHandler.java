package io.racs.proxy.s3.handler;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.s3.bridge.CompletedPart;
import io.racs.proxy.s3.bridge.MultipartUpload;
import io.racs.proxy.s3.bridge.ObjectReader;
import io.racs.proxy.s3.bridge.ObjectVersion;
import io.racs.proxy.s3.bridge.PartChecksums;
import io.racs.proxy.s3.bridge.PartListing;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.bridge.UploadedPart;
import io.racs.proxy.s3.checksum.ChecksumSpec;
import io.racs.proxy.s3.checksum.CompletionChecksums;
import io.racs.proxy.s3.checksum.PartChecksum;
import io.racs.proxy.s3.checksum.UploadChecksum;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.precondition.Preconditions;
import io.racs.proxy.s3.range.ByteRange;
import io.racs.proxy.s3.sse.SseRequest;
import io.racs.proxy.s3.xml.CompleteMultipartUploadRequest;
import io.racs.proxy.s3.xml.S3XmlResponses;
import io.racs.proxy.s3.xml.XmlModel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** The multipart family: create, upload part (and copy), complete, abort, list parts. */
final class MultipartHandler {
  private final StoreBridge store;
  private final SsePolicy encryption;
  private final BucketEncryptionHandler bucketDefaults;
  private final LifecycleHandler lifecycle;
  private final ObjectLockHandler locks;

  MultipartHandler(StoreBridge store) {
    this(store, SsePolicy.DEFAULT);
  }

  MultipartHandler(StoreBridge store, SsePolicy encryption) {
    this(store, encryption, null);
  }

  MultipartHandler(
      StoreBridge store, SsePolicy encryption, BucketEncryptionHandler bucketDefaults) {
    this(store, encryption, bucketDefaults, null);
  }

  /** With {@code lifecycle} (null for none) telling {@code x-amz-expiration} on completion. */
  MultipartHandler(
      StoreBridge store,
      SsePolicy encryption,
      BucketEncryptionHandler bucketDefaults,
      LifecycleHandler lifecycle) {
    this.lifecycle = lifecycle;
    this.bucketDefaults = bucketDefaults;
    this.store = store;
    this.encryption = encryption;
    this.locks = new ObjectLockHandler(store);
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case CREATE_MULTIPART_UPLOAD -> create(request);
      case UPLOAD_PART -> uploadPart(request);
      case UPLOAD_PART_COPY -> uploadPartCopy(request);
      case COMPLETE_MULTIPART_UPLOAD -> complete(request);
      case ABORT_MULTIPART_UPLOAD -> abort(request);
      case LIST_PARTS -> listParts(request);
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  private static String uploadId(S3Request request) {
    return request.query().first("uploadId").orElse("");
  }

  private S3Response create(S3Request request) {
    Optional<UploadChecksum> checksum = UploadChecksum.fromCreate(request.headers());
    SseRequest sse = encryption.forWrite(request, SseRequest.Allowed.WRITE, bucketDefaults);
    String algorithm = checksum.map(c -> c.algorithm().name()).orElse(null);
    String type = checksum.map(c -> c.type().name()).orElse(null);
    String uploadId =
        store.createMultipartUpload(
            request.bucket(),
            request.key(),
            Responses.putOptions(request).withSse(sse).withLock(locks.forWrite(request)),
            algorithm,
            type);
    S3Response response =
        S3Response.xml(
                S3XmlResponses.initiateMultipartUpload(request.bucket(), request.key(), uploadId))
            .header("x-amz-checksum-algorithm", algorithm)
            .header("x-amz-checksum-type", type);
    SsePolicy.headers(response, sse.serverSide() ? "AES256" : "SSE-C", sse.customerKey());
    return response;
  }

  /** The checksum the upload's creation named and its record keeps, if any. */
  private static Optional<UploadChecksum> recorded(MultipartUpload upload) {
    return UploadChecksum.recorded(upload.checksumAlgorithm(), upload.checksumType());
  }

  private S3Response uploadPart(S3Request request) {
    CustomerKey customerKey =
        encryption.parse(request, SseRequest.Allowed.CUSTOMER_KEY).customerKey();
    int partNumber = Responses.intParam(request, "partNumber", 0, 1, 10_000);
    PartChecksum checksum =
        PartChecksum.announcing(ChecksumSpec.fromHeaders(request.headers()).algorithm());
    Supplier<Map<String, String>> verified = Responses.checksumsOf(request);
    UploadedPart part =
        store.uploadPart(
            request.bucket(),
            request.key(),
            uploadId(request),
            partNumber,
            checksum.wrap(request.body()),
            request.contentLength(),
            () -> checksum.checksums(verified.get()),
            customerKey,
            upload -> checksum.check(recorded(upload)));
    S3Response response =
        S3Response.status(200).header("ETag", S3XmlResponses.quoteEtag(part.etag()));
    SsePolicy.headers(response, customerKey == null ? null : "SSE-C", customerKey);
    Responses.checksumHeaders(response, part.checksums());
    return response;
  }

  private S3Response uploadPartCopy(S3Request request) {
    SseRequest sse = encryption.parse(request, SseRequest.Allowed.PART_COPY);
    int partNumber = Responses.intParam(request, "partNumber", 0, 1, 10_000);
    Responses.CopySource source = Responses.copySource(request.headers());
    ObjectVersion sourceMeta = ObjectHandler.copySourceVersion(store, source);
    store.checkKey(sourceMeta, sse.copySourceKey());
    Preconditions.checkCopySource(request.headers(), sourceMeta.etag(), sourceMeta.lastModified());
    long start = 0;
    long length = sourceMeta.sizeBytes();
    Optional<String> rangeHeader = request.headers().first("x-amz-copy-source-range");
    if (rangeHeader.isPresent()) {
      ByteRange range =
          ByteRange.parse(rangeHeader.get(), sourceMeta.sizeBytes())
              .orElseThrow(
                  () ->
                      S3Exception.of(
                          S3ErrorCode.INVALID_ARGUMENT,
                          "The x-amz-copy-source-range value must be of the form bytes=first-last"));
      start = range.first();
      length = range.lengthBytes();
    }
    UploadedPart part;
    // A copied part announces no checksum: an upload that recorded one gets it computed.
    PartChecksum checksum = PartChecksum.announcing(Optional.empty());
    if (length == 0) {
      part =
          store.uploadPart(
              request.bucket(),
              request.key(),
              uploadId(request),
              partNumber,
              checksum.wrap(java.io.InputStream.nullInputStream()),
              0,
              () -> checksum.checksums(Map.of()),
              sse.customerKey(),
              upload -> checksum.check(recorded(upload)));
    } else {
      // Exactly the version whose conditions and key were just checked.
      try (ObjectReader reader = store.read(sourceMeta, start, length, sse.copySourceKey())) {
        part =
            store.uploadPart(
                request.bucket(),
                request.key(),
                uploadId(request),
                partNumber,
                checksum.wrap(reader.body()),
                reader.rangeLength(),
                () -> checksum.checksums(Map.of()),
                sse.customerKey(),
                upload -> checksum.check(recorded(upload)));
      }
    }
    S3Response response =
        S3Response.xml(
            S3XmlResponses.copyPart(
                part.lastModified(), part.etag(), Responses.typedChecksums(part.checksums())));
    // As UploadPart: an upload sealed with a customer's key says which key sealed the part.
    SsePolicy.headers(response, sse.customerKey() == null ? null : "SSE-C", sse.customerKey());
    Responses.copySourceVersionHeader(response, source, sourceMeta);
    return response;
  }

  private S3Response complete(S3Request request) throws IOException {
    // SSE-C headers may come with a completion (S3 accepts them); they are checked, not needed.
    CustomerKey customerKey =
        encryption.parse(request, SseRequest.Allowed.CUSTOMER_KEY).customerKey();
    byte[] body = ObjectHandler.readXml(request);
    List<XmlModel.CompletedPart> named = CompleteMultipartUploadRequest.parse(body);
    List<CompletedPart> parts = new ArrayList<>();
    for (XmlModel.CompletedPart p : named) {
      parts.add(new CompletedPart(p.partNumber(), p.etag()));
    }
    CompletionChecksums announced = CompletionChecksums.fromHeaders(request.headers());
    ObjectVersion meta =
        store.completeMultipartUpload(
            request.bucket(),
            request.key(),
            uploadId(request),
            parts,
            (upload, chosen) ->
                announced
                    .withRecorded(recorded(upload))
                    .objectChecksums(checksumParts(named, chosen)),
            Responses.writeCondition(request.headers()));
    S3Response response =
        S3Response.xml(
            S3XmlResponses.completeMultipartUpload(
                "/" + request.bucket() + "/" + request.key(),
                request.bucket(),
                request.key(),
                meta.etag(),
                Responses.typedChecksums(meta.checksums())));
    Responses.writtenVersionIdHeader(response, meta);
    if (lifecycle != null) {
      lifecycle.expirationHeader(response, request.bucket(), meta);
    }
    SsePolicy.headers(response, meta.encryption(), customerKey);
    return response;
  }

  /** The chosen parts (in the order the body names them) with the checksums the body gives. */
  private static List<CompletionChecksums.Part> checksumParts(
      List<XmlModel.CompletedPart> named, List<PartChecksums> chosen) {
    List<CompletionChecksums.Part> parts = new ArrayList<>();
    for (int i = 0; i < chosen.size(); i++) {
      parts.add(
          new CompletionChecksums.Part(
              chosen.get(i).sizeBytes(), chosen.get(i).checksums(), named.get(i).checksums()));
    }
    return parts;
  }

  private S3Response abort(S3Request request) {
    store.abortMultipartUpload(request.bucket(), request.key(), uploadId(request));
    return S3Response.status(204);
  }

  private S3Response listParts(S3Request request) {
    int maxParts = Responses.intParam(request, "max-parts", 1000, 0, 1000);
    int marker = Responses.intParam(request, "part-number-marker", 0, 0, 10_000);
    PartListing listing = store.parts(request.bucket(), request.key(), uploadId(request));
    Optional<UploadChecksum> checksum = recorded(listing.upload());
    List<UploadedPart> all = listing.parts();
    List<XmlModel.PartEntry> entries = new ArrayList<>();
    boolean truncated = false;
    int next = 0;
    for (UploadedPart p : all) {
      if (p.partNumber() <= marker) {
        continue;
      }
      if (entries.size() == maxParts) {
        truncated = true;
        break;
      }
      entries.add(
          new XmlModel.PartEntry(
              p.partNumber(),
              p.lastModified(),
              p.etag(),
              p.sizeBytes(),
              Responses.typedChecksums(p.checksums())));
      next = p.partNumber();
    }
    return S3Response.xml(
        S3XmlResponses.listParts(
            new XmlModel.ListParts(
                request.bucket(),
                request.key(),
                uploadId(request),
                marker,
                next,
                maxParts,
                truncated,
                entries,
                Responses.OWNER,
                "STANDARD",
                checksum.map(UploadChecksum::algorithm).orElse(null),
                checksum.map(UploadChecksum::type).orElse(null))));
  }
}
