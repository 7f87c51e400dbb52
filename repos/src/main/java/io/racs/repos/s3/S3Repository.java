package io.racs.repos.s3;

import io.racs.repos.Bodies;
import io.racs.repos.KeyCodec;
import io.racs.repos.Keys;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.s3.S3Options.KeyEncoding;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * A repository in one S3 bucket (optionally under a key prefix), on AWS S3, MinIO or any
 * S3-compatible store, through the AWS SDK for Java v2 and the Apache 5 HTTP client.
 *
 * <p><b>Names.</b> By default keys are stored under their {@link KeyCodec} safe names, which every
 * S3 implementation accepts and which list in key order; a key whose safe name (plus the prefix)
 * exceeds S3's 1024-byte limit is refused up front (see {@link #accepts(String)}). With {@link
 * KeyEncoding#RAW} keys are stored verbatim.
 *
 * <p><b>Uploads.</b> A body of known length up to the part size is buffered once and sent as one
 * PUT (so that the SDK can retry it); anything larger, or of unknown length, streams through a
 * multipart upload whose parts are read one at a time into a single part-sized buffer, so an upload
 * never holds more than one part in memory. A failed multipart upload is aborted. {@link
 * #maxBufferedBytes()} reports the most ever held at once, across concurrent uploads.
 *
 * <p><b>Integrity on the wire.</b> By default ({@link S3Options.Checksums#WHEN_SUPPORTED}) the SDK
 * sends a CRC32 of every PutObject and UploadPart body, which the store checks. With {@link
 * S3Options.Checksums#WHEN_REQUIRED} no flexible checksum is sent or asked for, and each body,
 * already held in memory whole, carries a {@code Content-MD5} instead; the store refuses a body
 * that does not match it. Reads are checked by the store's own TLS, or by the shard checksums of
 * the layer above.
 *
 * <p><b>The bucket</b> must exist, or every call fails {@code UNAVAILABLE} naming it; with {@link
 * S3Options#createBucket()} the repository's first call creates it when missing (see {@link
 * S3Bucket}).
 *
 * <p><b>Errors</b> are translated once, here: 404 is {@code NOT_FOUND} (but {@code NoSuchBucket} is
 * {@code UNAVAILABLE}: the storage is missing, not the object), 401/403 {@code ACCESS_DENIED}, 412
 * {@code PRECONDITION_FAILED}, 507 and quota errors {@code FULL}, other 5xx, 429 and unreachable
 * hosts {@code UNAVAILABLE}, client and socket timeouts {@code TIMEOUT}. The SDK retries transient
 * failures first, {@code maxAttempts} times with exponential backoff.
 */
public final class S3Repository implements Repository {
  private final String name;
  private final S3Options options;
  private final S3Client client;
  private final StoredNames names;
  private final S3Bucket bucket;
  private final boolean flexibleChecksums;
  private final AtomicLong bufferedBytes = new AtomicLong();
  private final AtomicLong maxBufferedBytes = new AtomicLong();

  private S3Repository(String name, S3Options options) {
    this.name = Objects.requireNonNull(name, "name");
    this.options = Objects.requireNonNull(options, "options");
    this.client = S3Clients.create(options);
    this.names = new StoredNames(name, options);
    this.bucket = new S3Bucket(name, options, client);
    this.flexibleChecksums = options.checksums() == S3Options.Checksums.WHEN_SUPPORTED;
  }

  /** A repository called {@code name} with {@code options}; builds the client, no I/O. */
  public static S3Repository create(String name, S3Options options) {
    return new S3Repository(name, options);
  }

  @Override
  public String name() {
    return name;
  }

  /** The options this repository was built with. */
  public S3Options options() {
    return options;
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> description = new LinkedHashMap<>();
    description.put("type", "s3");
    description.put(
        "location",
        options.endpoint().map(URIString::of).orElse("aws:" + options.region())
            + "/"
            + options.bucket()
            + "/"
            + options.keyPrefix());
    description.put("region", options.region());
    description.put("pathStyle", Boolean.toString(options.pathStyle()));
    description.put("keyEncoding", options.keyEncoding().name().toLowerCase(java.util.Locale.ROOT));
    description.put("partSizeBytes", Integer.toString(options.partSizeBytes()));
    description.put("credentials", options.credentials().toString());
    description.put("checksums", options.checksums().name().toLowerCase(java.util.Locale.ROOT));
    description.put(
        "expectContinue",
        options.expectContinueBytes() == S3Options.EXPECT_CONTINUE_NEVER
            ? "off"
            : options.expectContinueBytes() + " bytes and more");
    return description;
  }

  /** The most bytes of request bodies this repository has held in memory at once. */
  public long maxBufferedBytes() {
    return maxBufferedBytes.get();
  }

  @Override
  public boolean accepts(String key) {
    Keys.check(key);
    return names.length(key) <= S3Options.MAX_STORED_KEY_BYTES;
  }

  // ---- put ---------------------------------------------------------------------------------

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    String stored = names.of(key);
    Keys.checkLength(lengthBytes);
    bucket.ensure();
    InputStream checked = Bodies.checked(body, lengthBytes, name, key);
    int partSize = options.partSizeBytes();
    int firstRead = lengthBytes >= 0 && lengthBytes <= partSize ? (int) lengthBytes : partSize;
    byte[] buffer = acquire(firstRead);
    try {
      int n = Bodies.readFully(checked, buffer, 0, firstRead);
      boolean single = lengthBytes >= 0 ? lengthBytes <= partSize : n < partSize;
      if (single) {
        if (lengthBytes >= 0) {
          checked.read(); // Fails unless the body ends exactly at lengthBytes.
        }
        return putSingle(key, stored, buffer, n);
      }
      return putMultipart(key, stored, checked, buffer, n);
    } catch (IOException e) {
      // Bodies.checked reports body failures as RepositoryException; this is ours.
      throw new RepositoryException(Kind.UNEXPECTED, name + ": put " + Keys.abbreviate(key), e);
    } finally {
      release(buffer);
    }
  }

  private ObjectInfo putSingle(String key, String stored, byte[] buffer, int length) {
    try {
      PutObjectResponse response =
          client.putObject(
              b -> {
                b.bucket(options.bucket()).key(stored).contentLength((long) length);
                if (!flexibleChecksums) {
                  b.contentMD5(ContentMd5.of(buffer, length));
                }
              },
              RequestBody.fromContentProvider(
                  () -> new ByteArrayInputStream(buffer, 0, length),
                  length,
                  "application/octet-stream"));
      return new ObjectInfo(key, length, etag(response.eTag()), Instant.now());
    } catch (SdkException e) {
      throw translate(e, "put", key);
    }
  }

  private ObjectInfo putMultipart(
      String key, String stored, InputStream body, byte[] buffer, int firstLength)
      throws IOException {
    String uploadId;
    try {
      CreateMultipartUploadResponse created =
          client.createMultipartUpload(
              b ->
                  b.bucket(options.bucket())
                      .key(stored)
                      .checksumAlgorithm(flexibleChecksums ? ChecksumAlgorithm.CRC32 : null));
      uploadId = created.uploadId();
    } catch (SdkException e) {
      throw translate(e, "put", key);
    }
    boolean completed = false;
    try {
      List<CompletedPart> parts = new ArrayList<>();
      long total = 0;
      int length = firstLength;
      while (length > 0) {
        int partNumber = parts.size() + 1;
        int partLength = length;
        UploadPartResponse part;
        try {
          part =
              client.uploadPart(
                  b ->
                      b.bucket(options.bucket())
                          .key(stored)
                          .uploadId(uploadId)
                          .partNumber(partNumber)
                          .contentLength((long) partLength)
                          .checksumAlgorithm(flexibleChecksums ? ChecksumAlgorithm.CRC32 : null)
                          .contentMD5(flexibleChecksums ? null : ContentMd5.of(buffer, partLength)),
                  RequestBody.fromContentProvider(
                      () -> new ByteArrayInputStream(buffer, 0, partLength),
                      partLength,
                      "application/octet-stream"));
        } catch (SdkException e) {
          throw translate(e, "put", key);
        }
        parts.add(
            CompletedPart.builder()
                .partNumber(partNumber)
                .eTag(part.eTag())
                .checksumCRC32(part.checksumCRC32())
                .build());
        total += partLength;
        length = Bodies.readFully(body, buffer, 0, buffer.length);
      }
      String etag;
      try {
        etag =
            client
                .completeMultipartUpload(
                    b ->
                        b.bucket(options.bucket())
                            .key(stored)
                            .uploadId(uploadId)
                            .multipartUpload(m -> m.parts(parts)))
                .eTag();
      } catch (SdkException e) {
        throw translate(e, "put", key);
      }
      completed = true;
      return new ObjectInfo(key, total, etag(etag), Instant.now());
    } finally {
      if (!completed) {
        abort(stored, uploadId);
      }
    }
  }

  private void abort(String stored, String uploadId) {
    try {
      client.abortMultipartUpload(b -> b.bucket(options.bucket()).key(stored).uploadId(uploadId));
    } catch (SdkException e) {
      // Best effort: the put already fails, and a bucket lifecycle rule collects what is left.
    }
  }

  private byte[] acquire(int size) {
    long now = bufferedBytes.addAndGet(size);
    maxBufferedBytes.accumulateAndGet(now, Math::max);
    return new byte[size];
  }

  private void release(byte[] buffer) {
    bufferedBytes.addAndGet(-buffer.length);
  }

  // ---- get and head ------------------------------------------------------------------------

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    String stored = names.of(key);
    Keys.checkRange(offset, lengthBytes);
    bucket.ensure();
    if (lengthBytes == 0) {
      // HTTP cannot ask for zero bytes; a HEAD says whether the object exists.
      ObjectInfo info = head(key).orElseThrow(() -> notFound(key));
      return new ObjectStream(info, InputStream.nullInputStream());
    }
    String range = null;
    if (offset > 0 || lengthBytes > 0) {
      long last =
          lengthBytes < 0 ? -1 : offset + Math.min(lengthBytes, Long.MAX_VALUE - offset) - 1;
      range = "bytes=" + offset + "-" + (last < 0 ? "" : Long.toString(last));
    }
    String requestedRange = range;
    ResponseInputStream<GetObjectResponse> response;
    try {
      response =
          client.getObject(b -> b.bucket(options.bucket()).key(stored).range(requestedRange));
    } catch (AwsServiceException e) {
      if (e.statusCode() == 416) {
        // The range starts at or after the end: an empty read of an existing object.
        ObjectInfo info = head(key).orElseThrow(() -> notFound(key));
        return new ObjectStream(info, InputStream.nullInputStream());
      }
      throw translate(e, "get", key);
    } catch (SdkException e) {
      throw translate(e, "get", key);
    }
    GetObjectResponse r = response.response();
    long size = totalSize(r);
    ObjectInfo info = new ObjectInfo(key, size, etag(r.eTag()), lastModified(r.lastModified()));
    return new ObjectStream(info, new BodyStream(name, response, key));
  }

  private static long totalSize(GetObjectResponse response) {
    String contentRange = response.contentRange();
    if (contentRange != null) {
      int slash = contentRange.lastIndexOf('/');
      if (slash >= 0 && !contentRange.endsWith("*")) {
        return Long.parseLong(contentRange.substring(slash + 1).trim());
      }
    }
    return response.contentLength() == null ? 0 : response.contentLength();
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    String stored = names.of(key);
    bucket.ensure();
    try {
      HeadObjectResponse r = client.headObject(b -> b.bucket(options.bucket()).key(stored));
      return Optional.of(
          new ObjectInfo(
              key,
              r.contentLength() == null ? 0 : r.contentLength(),
              etag(r.eTag()),
              lastModified(r.lastModified())));
    } catch (AwsServiceException e) {
      if (e.statusCode() == 404 && !S3Errors.isNoSuchBucket(e)) {
        // A HEAD answer has no body to tell a missing key from a missing bucket, and a missing
        // bucket must not read as a missing object: ask about the bucket (only on a miss).
        probe();
        return Optional.empty();
      }
      throw translate(e, "head", key);
    } catch (SdkException e) {
      throw translate(e, "head", key);
    }
  }

  // ---- delete and list ---------------------------------------------------------------------

  @Override
  public void delete(String key) {
    String stored = names.of(key);
    bucket.ensure();
    try {
      client.deleteObject(b -> b.bucket(options.bucket()).key(stored));
    } catch (SdkException e) {
      throw translate(e, "delete", key);
    }
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    Keys.checkBound(prefix, "prefix");
    Keys.checkBound(startAfter, "startAfter");
    Keys.checkMaxKeys(maxKeys);
    bucket.ensure();
    String storedPrefix = names.ofPrefix(prefix);
    String storedStart = startAfter.isEmpty() ? null : names.unchecked(startAfter);
    // MinIO's IsTruncated is unreliable after a start-after inside a nested prefix: it ends
    // pages early, or flags a full page as the last. So ask for one object more than the page
    // needs, resume from the last name seen, and stop only at an empty answer; on AWS that costs
    // one extra request per listing.
    List<ObjectInfo> found = new ArrayList<>();
    String after = storedStart;
    while (true) {
      ListObjectsV2Request.Builder request =
          ListObjectsV2Request.builder()
              .bucket(options.bucket())
              .prefix(storedPrefix)
              .encodingType(EncodingType.URL)
              .maxKeys(Math.min(Repository.MAX_LIST_PAGE, maxKeys + 1 - found.size()));
      if (after != null) {
        request.startAfter(after);
      }
      List<S3Object> contents;
      try {
        contents = client.listObjectsV2(request.build()).contents();
      } catch (SdkException e) {
        throw translate(e, "list", prefix);
      }
      if (contents.isEmpty()) {
        return new ListPage(found, false);
      }
      for (S3Object object : contents) {
        after = object.key();
        Optional<String> key = names.keyOf(object.key());
        if (key.isPresent()) {
          found.add(
              new ObjectInfo(
                  key.get(),
                  object.size() == null ? 0 : object.size(),
                  etag(object.eTag()),
                  lastModified(object.lastModified())));
        }
      }
      if (found.size() > maxKeys) {
        return new ListPage(found.subList(0, maxKeys), true);
      }
    }
  }

  // ---- probe and close ---------------------------------------------------------------------

  @Override
  public void probe() {
    bucket.probe();
  }

  @Override
  public void close() {
    client.close();
  }

  // ---- helpers -----------------------------------------------------------------------------

  private static Optional<String> etag(String etag) {
    if (etag == null || etag.isEmpty()) {
      return Optional.empty();
    }
    String unquoted =
        etag.startsWith("\"") && etag.endsWith("\"") && etag.length() >= 2
            ? etag.substring(1, etag.length() - 1)
            : etag;
    return Optional.of(unquoted);
  }

  private static Instant lastModified(Instant instant) {
    return instant == null ? Instant.EPOCH : instant;
  }

  private RepositoryException notFound(String key) {
    return new RepositoryException(Kind.NOT_FOUND, name + ": no object " + Keys.abbreviate(key));
  }

  /** Translates an SDK failure into the repository's one exception. */
  private RepositoryException translate(SdkException e, String operation, String key) {
    if (e instanceof AwsServiceException service && S3Errors.isNoSuchBucket(service)) {
      return bucket.missing(e);
    }
    return S3Errors.translate(name, e, operation, key);
  }

  /** Renders an endpoint without user info, should one have been configured with it. */
  private static final class URIString {
    static String of(java.net.URI uri) {
      return uri.getScheme()
          + "://"
          + uri.getHost()
          + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    }
  }
}
