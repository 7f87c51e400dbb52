package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.SeededBytes;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.transfer.s3.S3TransferManager;

/**
 * The proxy process over six real MinIO servers (4x2), driven by the AWS SDK for Java v2 as
 * applications use it, over HTTP and HTTPS: sync and async clients with their default checksums,
 * CRC64NVME asked for explicitly, multipart through the transfer manager, byte-exact round trips of
 * 0 B, 1 B, 5 MiB + 1 and 70 MiB, metadata, object attributes and ACLs, bucket CORS and preflights,
 * listings with delimiters, deletes, the admin endpoints, and the failures a client must see (wrong
 * secret, wrong checksum: correct error, nothing stored).
 */
@ResourceLock(SdkV2Support.LOCK)
class SdkV2IT extends SdkV2Support {
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void syncClient_roundTripsEverySize(boolean secure) throws Exception {
    try (S3Client s3 = client(secure, ProxyProcess.SECRET_KEY)) {
      String bucket = "sdk-sync-" + (secure ? "tls" : "plain");
      s3.createBucket(b -> b.bucket(bucket));
      long[] sizes =
          secure
              ? new long[] {0, 1, 5 * 1024 * 1024 + 1}
              : new long[] {0, 1, 5 * 1024 * 1024 + 1, 70L * 1024 * 1024};
      for (long size : sizes) {
        Path file = file(size + 7, size);
        String key = "objects/size-" + size;
        s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromFile(file));
        try (ResponseInputStream<GetObjectResponse> in =
            s3.getObject(b -> b.bucket(bucket).key(key).checksumMode(ChecksumMode.ENABLED))) {
          assertThat(md5(in)).as("size %d", size).isEqualTo(md5(file));
          assertThat(in.response().contentLength()).isEqualTo(size);
        }
      }
      assertThat(s3.headObject(b -> b.bucket(bucket).key("objects/size-1")).contentLength())
          .isEqualTo(1);
      s3.deleteObject(b -> b.bucket(bucket).key("objects/size-1"));
      assertThatThrownBy(() -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("objects/size-1")))
          .isInstanceOf(NoSuchKeyException.class);
    }
  }

  @Test
  void crc64nvme_whenRequested_isVerifiedAndReturned() throws Exception {
    try (S3Client s3 = client(false, ProxyProcess.SECRET_KEY)) {
      s3.createBucket(b -> b.bucket("sdk-crc64"));
      byte[] data = SeededBytes.bytes(64, 300_000);
      var put =
          s3.putObject(
              b -> b.bucket("sdk-crc64").key("k").checksumAlgorithm(ChecksumAlgorithm.CRC64_NVME),
              RequestBody.fromBytes(data));
      assertThat(put.checksumCRC64NVME()).isNotBlank();
      var got =
          s3.getObjectAsBytes(
              b -> b.bucket("sdk-crc64").key("k").checksumMode(ChecksumMode.ENABLED));
      assertThat(got.asByteArray()).isEqualTo(data);
      assertThat(got.response().checksumCRC64NVME()).isEqualTo(put.checksumCRC64NVME());
    }
  }

  @Test
  void asyncClientAndTransferManager_multipartRoundTrip() throws Exception {
    Path file = file(70, 70L * 1024 * 1024 + 3);
    try (S3AsyncClient s3 = asyncClient(false);
        S3TransferManager tm = S3TransferManager.builder().s3Client(s3).build()) {
      s3.createBucket(b -> b.bucket("sdk-async")).join();
      tm.uploadFile(u -> u.source(file).putObjectRequest(p -> p.bucket("sdk-async").key("big")))
          .completionFuture()
          .join();
      Path back = dir.resolve("back");
      tm.downloadFile(
              d -> d.destination(back).getObjectRequest(g -> g.bucket("sdk-async").key("big")))
          .completionFuture()
          .join();
      assertThat(md5(back)).isEqualTo(md5(file));
      var head = s3.headObject(b -> b.bucket("sdk-async").key("big")).join();
      assertThat(head.eTag()).contains("-"); // a multipart ETag
      s3.putObject(b -> b.bucket("sdk-async").key("small"), AsyncRequestBody.fromString("hello"))
          .join();
      assertThat(
              s3.getObject(
                      b -> b.bucket("sdk-async").key("small"), AsyncResponseTransformer.toBytes())
                  .join()
                  .asUtf8String())
          .isEqualTo("hello");
    }
  }

  /**
   * PutObject and CreateMultipartUpload with every standard header and user metadata, CopyObject
   * with the COPY and the REPLACE directive: the proxy answers them on GET and HEAD, and the SDK's
   * GetObject and HeadObject responses carry them.
   */
  @Test
  void metadata_onPutMultipartAndCopy_isStoredAndReturnedOnGetAndHead() throws Exception {
    String bucket = "sdk-metadata";
    Map<String, String> standard = Clients.STANDARD_HEADERS;
    Instant expires = Instant.parse("2038-01-01T00:00:00Z");
    Path small = Clients.gzipFile(dir.resolve("metadata-small.gz"), 50, 100_000);
    Path large = Clients.gzipFile(dir.resolve("metadata-large.gz"), 51, 7 * 1024 * 1024);
    try (S3Client s3 = client(false, ProxyProcess.SECRET_KEY)) {
      s3.createBucket(b -> b.bucket(bucket));
      s3.putObject(
          b ->
              b.bucket(bucket)
                  .key("put")
                  .cacheControl(standard.get("Cache-Control"))
                  .contentDisposition(standard.get("Content-Disposition"))
                  .contentEncoding(standard.get("Content-Encoding"))
                  .contentLanguage(standard.get("Content-Language"))
                  .contentType(standard.get("Content-Type"))
                  .expires(expires)
                  .metadata(Clients.USER_METADATA),
          RequestBody.fromFile(small));
      String uploadId =
          s3.createMultipartUpload(
                  b ->
                      b.bucket(bucket)
                          .key("multipart")
                          .cacheControl(standard.get("Cache-Control"))
                          .contentDisposition(standard.get("Content-Disposition"))
                          .contentEncoding(standard.get("Content-Encoding"))
                          .contentLanguage(standard.get("Content-Language"))
                          .contentType(standard.get("Content-Type"))
                          .expires(expires)
                          .metadata(Clients.USER_METADATA))
              .uploadId();
      byte[] data = Files.readAllBytes(large);
      int partSize = 5 * 1024 * 1024;
      List<CompletedPart> parts = new ArrayList<>();
      for (int number = 1, offset = 0; offset < data.length; number++, offset += partSize) {
        int n = number;
        byte[] part = Arrays.copyOfRange(data, offset, Math.min(data.length, offset + partSize));
        String etag =
            s3.uploadPart(
                    b -> b.bucket(bucket).key("multipart").uploadId(uploadId).partNumber(n),
                    RequestBody.fromBytes(part))
                .eTag();
        parts.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
      }
      s3.completeMultipartUpload(
          b ->
              b.bucket(bucket)
                  .key("multipart")
                  .uploadId(uploadId)
                  .multipartUpload(m -> m.parts(parts)));
      s3.copyObject(
          b ->
              b.sourceBucket(bucket)
                  .sourceKey("put")
                  .destinationBucket(bucket)
                  .destinationKey("copy")
                  .metadataDirective(MetadataDirective.COPY));
      s3.copyObject(
          b ->
              b.sourceBucket(bucket)
                  .sourceKey("put")
                  .destinationBucket(bucket)
                  .destinationKey("replaced")
                  .metadataDirective(MetadataDirective.REPLACE)
                  .cacheControl(Clients.REPLACED_HEADERS.get("Cache-Control"))
                  .contentType(Clients.REPLACED_HEADERS.get("Content-Type"))
                  .metadata(Clients.REPLACED_METADATA));

      Map<String, Path> sources =
          Map.of("put", small, "multipart", large, "copy", small, "replaced", small);
      for (String key : List.of("put", "multipart", "copy", "replaced")) {
        boolean replaced = key.equals("replaced");
        Map<String, String> headers = replaced ? Clients.REPLACED_HEADERS : standard;
        Map<String, String> user = replaced ? Clients.REPLACED_METADATA : Clients.USER_METADATA;
        byte[] body =
            Clients.assertStoredMetadata(PROXIES.http().endpoint(), bucket, key, headers, user);
        assertThat(Clients.md5Hex(body)).as(key).isEqualTo(Clients.md5Hex(sources.get(key)));
        HeadObjectResponse head = s3.headObject(b -> b.bucket(bucket).key(key));
        assertThat(
                sdkView(
                    head.cacheControl(),
                    head.contentDisposition(),
                    head.contentEncoding(),
                    head.contentLanguage(),
                    head.contentType(),
                    head.expiresString()))
            .as("HeadObject %s", key)
            .isEqualTo(headers);
        assertThat(head.metadata()).as("HeadObject %s", key).isEqualTo(user);
        assertThat(head.eTag().contains("-")).as(key).isEqualTo(key.equals("multipart"));
        ResponseBytes<GetObjectResponse> get = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key));
        GetObjectResponse got = get.response();
        assertThat(
                sdkView(
                    got.cacheControl(),
                    got.contentDisposition(),
                    got.contentEncoding(),
                    got.contentLanguage(),
                    got.contentType(),
                    got.expiresString()))
            .as("GetObject %s", key)
            .isEqualTo(headers);
        assertThat(got.metadata()).as("GetObject %s", key).isEqualTo(user);
        assertThat(Clients.md5Hex(get.asByteArray())).isEqualTo(Clients.md5Hex(sources.get(key)));
      }
    }
  }

  /**
   * Put/Get/DeleteBucketCors through the SDK round-trip the rules, and an unsigned OPTIONS
   * preflight sent as a browser sends it is answered from them: allowed for a matching origin and
   * method, 403 for another origin, and 403 once the configuration is deleted.
   */
  @Test
  void bucketCors_putGetDelete_andPreflightAnsweredFromTheRules() throws Exception {
    String bucket = "sdk-cors";
    CORSRule rule =
        CORSRule.builder()
            .id("app")
            .allowedOrigins("https://app.example.com")
            .allowedMethods("GET", "PUT")
            .allowedHeaders("*")
            .exposeHeaders("ETag")
            .maxAgeSeconds(600)
            .build();
    try (S3Client s3 = client(false, ProxyProcess.SECRET_KEY)) {
      s3.createBucket(b -> b.bucket(bucket));
      assertThatThrownBy(() -> s3.getBucketCors(b -> b.bucket(bucket)))
          .isInstanceOfSatisfying(
              S3Exception.class,
              e ->
                  assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchCORSConfiguration"));
      s3.putBucketCors(b -> b.bucket(bucket).corsConfiguration(c -> c.corsRules(rule)));
      assertThat(s3.getBucketCors(b -> b.bucket(bucket)).corsRules()).containsExactly(rule);

      var allowed = preflight(bucket, "https://app.example.com", "PUT", "content-type");
      assertThat(allowed.statusCode()).isEqualTo(200);
      assertThat(allowed.headers().firstValue("Access-Control-Allow-Origin"))
          .hasValue("https://app.example.com");
      assertThat(allowed.headers().firstValue("Access-Control-Allow-Methods")).hasValue("GET, PUT");
      assertThat(allowed.headers().firstValue("Access-Control-Allow-Headers"))
          .hasValue("content-type");
      assertThat(allowed.headers().firstValue("Access-Control-Expose-Headers")).hasValue("ETag");
      assertThat(allowed.headers().firstValue("Access-Control-Max-Age")).hasValue("600");
      var otherOrigin = preflight(bucket, "https://evil.example.org", "GET", null);
      assertThat(otherOrigin.statusCode()).isEqualTo(403);
      assertThat(otherOrigin.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
      var otherMethod = preflight(bucket, "https://app.example.com", "DELETE", null);
      assertThat(otherMethod.statusCode()).isEqualTo(403);

      s3.deleteBucketCors(b -> b.bucket(bucket));
      assertThatThrownBy(() -> s3.getBucketCors(b -> b.bucket(bucket)))
          .isInstanceOfSatisfying(
              S3Exception.class,
              e ->
                  assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchCORSConfiguration"));
      assertThat(preflight(bucket, "https://app.example.com", "PUT", null).statusCode())
          .isEqualTo(403);
    }
  }

  /** An unsigned OPTIONS preflight for {@code bucket/object}, as a browser sends it. */
  private static java.net.http.HttpResponse<String> preflight(
      String bucket, String origin, String method, String headers) throws Exception {
    var request =
        java.net.http.HttpRequest.newBuilder(
                PROXIES.http().endpoint().resolve("/" + bucket + "/object"))
            .method("OPTIONS", java.net.http.HttpRequest.BodyPublishers.noBody())
            .header("Origin", origin)
            .header("Access-Control-Request-Method", method);
    if (headers != null) {
      request.header("Access-Control-Request-Headers", headers);
    }
    return java.net.http.HttpClient.newHttpClient()
        .send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
  }

  /** The standard headers an SDK response carries, by HTTP name, leaving out those it lacks. */
  private static Map<String, String> sdkView(
      String cacheControl,
      String contentDisposition,
      String contentEncoding,
      String contentLanguage,
      String contentType,
      String expires) {
    Map<String, String> view = new LinkedHashMap<>();
    String[] names = Clients.STANDARD_HEADERS.keySet().toArray(String[]::new);
    String[] values = {
      cacheControl, contentDisposition, contentEncoding, contentLanguage, contentType, expires
    };
    for (int i = 0; i < names.length; i++) {
      if (values[i] != null) {
        view.put(names[i], values[i]);
      }
    }
    return view;
  }

  @Test
  void listing_withDelimiterAndPages_andBatchDelete() {
    try (S3Client s3 = client(false, ProxyProcess.SECRET_KEY)) {
      s3.createBucket(b -> b.bucket("sdk-listing"));
      List<String> keys = List.of("a.txt", "dir/one", "dir/two", "dir/sub/three", "zeta/", "é");
      for (String key : keys) {
        s3.putObject(b -> b.bucket("sdk-listing").key(key), RequestBody.fromString(key));
      }
      var top = s3.listObjectsV2(b -> b.bucket("sdk-listing").delimiter("/"));
      assertThat(top.contents()).extracting(S3Object::key).containsExactly("a.txt", "é");
      assertThat(top.commonPrefixes())
          .extracting(CommonPrefix::prefix)
          .containsExactly("dir/", "zeta/");
      List<String> all = new ArrayList<>();
      s3.listObjectsV2Paginator(b -> b.bucket("sdk-listing").maxKeys(2))
          .contents()
          .forEach(o -> all.add(o.key()));
      assertThat(all).containsExactly("a.txt", "dir/one", "dir/sub/three", "dir/two", "zeta/", "é");
      var v1 = s3.listObjects(b -> b.bucket("sdk-listing").prefix("dir/").delimiter("/"));
      assertThat(v1.contents()).extracting(S3Object::key).containsExactly("dir/one", "dir/two");
      s3.deleteObjects(
          b ->
              b.bucket("sdk-listing")
                  .delete(
                      d ->
                          d.objects(
                              ObjectIdentifier.builder().key("a.txt").build(),
                              ObjectIdentifier.builder().key("dir/one").build())));
      assertThat(s3.listObjectsV2(b -> b.bucket("sdk-listing")).keyCount()).isEqualTo(4);
    }
  }

  @Test
  void wrongSecretOrWrongChecksum_isRejectedAndStoresNothing() {
    try (S3Client good = client(false, ProxyProcess.SECRET_KEY);
        S3Client bad = client(false, "not-the-secret")) {
      good.createBucket(b -> b.bucket("sdk-negative"));
      assertThatThrownBy(
              () ->
                  bad.putObject(
                      b -> b.bucket("sdk-negative").key("k"), RequestBody.fromString("x")))
          .isInstanceOf(S3Exception.class)
          .satisfies(
              e -> {
                assertThat(((S3Exception) e).statusCode()).isEqualTo(403);
                assertThat(((S3Exception) e).awsErrorDetails().errorCode())
                    .isEqualTo("SignatureDoesNotMatch");
              });
      assertThatThrownBy(
              () ->
                  good.putObject(
                      b -> b.bucket("sdk-negative").key("k").checksumCRC32("AAAAAA=="),
                      RequestBody.fromString("payload")))
          .isInstanceOf(S3Exception.class)
          .satisfies(
              e ->
                  assertThat(((S3Exception) e).awsErrorDetails().errorCode())
                      .isEqualTo("BadDigest"));
      assertThat(good.listObjectsV2(b -> b.bucket("sdk-negative")).keyCount()).isZero();
      assertThatThrownBy(() -> good.getObjectAsBytes(b -> b.bucket("nope-bucket").key("k")))
          .isInstanceOf(S3Exception.class)
          .satisfies(
              e ->
                  assertThat(((S3Exception) e).awsErrorDetails().errorCode())
                      .isEqualTo("NoSuchBucket"));
    }
  }

  @Test
  void adminEndpoints_reportReadinessAndMetrics() throws Exception {
    var client = java.net.http.HttpClient.newHttpClient();
    var ready =
        client.send(
            java.net.http.HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + PROXIES.http().adminPort() + "/health/ready"))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).contains("\"healthy\":6", "\"state\":\"up\"");
    var metrics =
        client.send(
            java.net.http.HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + PROXIES.http().adminPort() + "/metrics"))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.body())
        .contains("racs_s3_requests_total", "racs_store_degraded_stripes_total");
  }

  /**
   * GetObjectAttributes through the SDK: the ETag, size, storage class and CRC32 of a single PUT;
   * GetObjectAcl answers the owner with FULL_CONTROL and PutObjectAcl public-read is refused.
   */
  @Test
  void objectAttributesAndAcl_answeredAsStored() {
    try (S3Client s3 = client(false, ProxyProcess.SECRET_KEY)) {
      String bucket = "sdk-attributes";
      s3.createBucket(b -> b.bucket(bucket));
      var put =
          s3.putObject(
              b ->
                  b.bucket(bucket)
                      .key("a")
                      .checksumAlgorithm(
                          software.amazon.awssdk.services.s3.model.ChecksumAlgorithm.CRC32),
              RequestBody.fromString("attributes"));
      var attributes =
          s3.getObjectAttributes(
              b ->
                  b.bucket(bucket)
                      .key("a")
                      .objectAttributes(
                          software.amazon.awssdk.services.s3.model.ObjectAttributes.E_TAG,
                          software.amazon.awssdk.services.s3.model.ObjectAttributes.OBJECT_SIZE,
                          software.amazon.awssdk.services.s3.model.ObjectAttributes.STORAGE_CLASS,
                          software.amazon.awssdk.services.s3.model.ObjectAttributes.CHECKSUM));
      assertThat(attributes.eTag()).isEqualTo(put.eTag().replace("\"", ""));
      assertThat(attributes.objectSize()).isEqualTo(10L);
      assertThat(attributes.storageClassAsString()).isEqualTo("STANDARD");
      assertThat(attributes.checksum().checksumCRC32()).isEqualTo(put.checksumCRC32());
      var acl = s3.getObjectAcl(b -> b.bucket(bucket).key("a"));
      assertThat(acl.owner().id()).isEqualTo(s3.listBuckets().owner().id());
      assertThat(acl.grants()).singleElement();
      assertThat(acl.grants().get(0).permissionAsString()).isEqualTo("FULL_CONTROL");
      assertThatThrownBy(
              () ->
                  s3.putObjectAcl(
                      b ->
                          b.bucket(bucket)
                              .key("a")
                              .acl(
                                  software.amazon.awssdk.services.s3.model.ObjectCannedACL
                                      .PUBLIC_READ)))
          .isInstanceOf(S3Exception.class)
          .satisfies(
              e ->
                  assertThat(((S3Exception) e).awsErrorDetails().errorCode())
                      .isEqualTo("NotImplemented"));
    }
  }
}
