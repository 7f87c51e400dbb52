package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.config.EncryptionConfig;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.MasterKey;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.testing.TestArray;
import io.racs.proxy.testing.TestClients;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * Server-side encryption through the real S3 server and the AWS SDK for Java v2, as S3 answers it:
 * SSE-S3 and SSE-C round trips (single, multipart, copy between keys) with S3's response headers; a
 * customer-key object refused without its key (400) or with another (403); SSE-KMS, SSE-S3 without
 * a master key, SSE-C over plain HTTP, and encryption headers on an operation that would ignore
 * them all refused before anything is stored.
 */
class EncryptionServerTest {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";
  private static final String BUCKET = "enc";
  private static final byte[] KEY = HexFormat.of().parseHex("a1".repeat(32));
  private static final byte[] OTHER_KEY = HexFormat.of().parseHex("b2".repeat(32));

  @TempDir Path dir;
  private RacsServer server;
  private S3Client s3;

  private void start(Keyring keys, boolean customerKeysOverHttp, boolean byDefault)
      throws Exception {
    ErasureStore store =
        TestArray.builder("4x2")
            .blockBytes(256 << 10)
            .slowShardTimeout(Duration.ofSeconds(5))
            .keys(keys)
            .fs(dir)
            .open()
            .store();
    server =
        RacsServer.start(
            store,
            ServerConfig.defaults().with("127.0.0.1:0", Map.of(ACCESS, SECRET)).withAdmin(null),
            new EncryptionConfig(keys, byDefault, customerKeysOverHttp),
            AccessLog.off());
    s3 = TestClients.s3(server.port(), ACCESS, SECRET);
    s3.createBucket(b -> b.bucket(BUCKET));
  }

  private void start() throws Exception {
    start(Keyring.of(MasterKey.generate()), true, false);
  }

  @AfterEach
  void stop() {
    if (s3 != null) {
      s3.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static String b64(byte[] b) {
    return Base64.getEncoder().encodeToString(b);
  }

  private static String md5(byte[] b) throws Exception {
    return b64(MessageDigest.getInstance("MD5").digest(b));
  }

  private static Consumer<GetObjectRequest.Builder> getWith(String key, byte[] customer)
      throws Exception {
    String md5 = md5(customer);
    return g ->
        g.bucket(BUCKET)
            .key(key)
            .sseCustomerAlgorithm("AES256")
            .sseCustomerKey(b64(customer))
            .sseCustomerKeyMD5(md5);
  }

  private static int status(Runnable call) {
    try {
      call.run();
      return 200;
    } catch (S3Exception e) {
      return e.statusCode();
    }
  }

  private static String errorCode(Runnable call) {
    try {
      call.run();
      return "none";
    } catch (S3Exception e) {
      return e.awsErrorDetails().errorCode();
    }
  }

  @Test
  void sseS3_whenPutAndRead_roundTripsWithItsHeaderAndThePlaintextsMd5AsETag() throws Exception {
    start();
    byte[] data = SeededBytes.bytes(TestSeed.get(), 300_000);
    PutObjectResponse put =
        s3.putObject(
            p -> p.bucket(BUCKET).key("s3").serverSideEncryption(ServerSideEncryption.AES256),
            RequestBody.fromBytes(data));
    assertThat(put.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
    assertThat(put.eTag())
        .isEqualTo(
            "\"" + HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data)) + "\"");
    ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("s3"));
    assertThat(got.asByteArray()).isEqualTo(data);
    assertThat(got.response().serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
    ResponseBytes<GetObjectResponse> range =
        s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("s3").range("bytes=70000-200000"));
    assertThat(range.asByteArray()).isEqualTo(Arrays.copyOfRange(data, 70000, 200001));
    HeadObjectResponse head = s3.headObject(h -> h.bucket(BUCKET).key("s3"));
    assertThat(head.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
    assertThat(head.contentLength()).isEqualTo(data.length);
  }

  @Test
  void sseC_whenReadWithoutTheKeyOrWithAnother_isRefusedAs400And403() throws Exception {
    start();
    byte[] data = "customer secret".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    String md5 = md5(KEY);
    PutObjectResponse put =
        s3.putObject(
            p ->
                p.bucket(BUCKET)
                    .key("c")
                    .sseCustomerAlgorithm("AES256")
                    .sseCustomerKey(b64(KEY))
                    .sseCustomerKeyMD5(md5),
            RequestBody.fromBytes(data));
    assertThat(put.sseCustomerAlgorithm()).isEqualTo("AES256");
    // As on S3, an SSE-C object's ETag is not its plaintext's MD5.
    assertThat(put.eTag())
        .matches("\"[0-9a-f]{32}\"")
        .isNotEqualTo(
            "\"" + HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data)) + "\"");
    assertThat(put.sseCustomerKeyMD5()).isEqualTo(md5);
    ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(getWith("c", KEY));
    assertThat(got.asByteArray()).isEqualTo(data);
    assertThat(got.response().sseCustomerKeyMD5()).isEqualTo(md5);
    assertThat(status(() -> s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("c")))).isEqualTo(400);
    assertThat(status(() -> s3.headObject(h -> h.bucket(BUCKET).key("c")))).isEqualTo(400);
    Consumer<GetObjectRequest.Builder> other = getWith("c", OTHER_KEY);
    assertThat(errorCode(() -> s3.getObjectAsBytes(other))).isEqualTo("AccessDenied");
    // A key for an object that has none.
    s3.putObject(p -> p.bucket(BUCKET).key("plain"), RequestBody.fromBytes(data));
    Consumer<GetObjectRequest.Builder> plainWithKey = getWith("plain", KEY);
    assertThat(errorCode(() -> s3.getObjectAsBytes(plainWithKey))).isEqualTo("InvalidRequest");
  }

  @Test
  void sseC_whenMultipartAndCopiedToSseS3_roundTrips() throws Exception {
    start();
    byte[] data = SeededBytes.bytes(TestSeed.get(), 5 * 1024 * 1024 + 1);
    String md5 = md5(KEY);
    String upload =
        s3.createMultipartUpload(
                c ->
                    c.bucket(BUCKET)
                        .key("m")
                        .sseCustomerAlgorithm("AES256")
                        .sseCustomerKey(b64(KEY))
                        .sseCustomerKeyMD5(md5))
            .uploadId();
    List<CompletedPart> parts = new ArrayList<>();
    int[][] ranges = {{0, 5 * 1024 * 1024}, {5 * 1024 * 1024, data.length}};
    for (int i = 0; i < ranges.length; i++) {
      int part = i + 1;
      byte[] body = Arrays.copyOfRange(data, ranges[i][0], ranges[i][1]);
      String etag =
          s3.uploadPart(
                  u ->
                      u.bucket(BUCKET)
                          .key("m")
                          .uploadId(upload)
                          .partNumber(part)
                          .sseCustomerAlgorithm("AES256")
                          .sseCustomerKey(b64(KEY))
                          .sseCustomerKeyMD5(md5),
                  RequestBody.fromBytes(body))
              .eTag();
      parts.add(CompletedPart.builder().partNumber(part).eTag(etag).build());
    }
    // A part with another key, or without the upload's key, is refused (400, as s3-tests'
    // test_encryption_sse_c_multipart_invalid_chunks_1 and _2 expect).
    String otherMd5 = md5(OTHER_KEY);
    assertThat(
            status(
                () ->
                    s3.uploadPart(
                        u ->
                            u.bucket(BUCKET)
                                .key("m")
                                .uploadId(upload)
                                .partNumber(3)
                                .sseCustomerAlgorithm("AES256")
                                .sseCustomerKey(b64(OTHER_KEY))
                                .sseCustomerKeyMD5(otherMd5),
                        RequestBody.fromBytes(new byte[1]))))
        .isEqualTo(400);
    assertThat(
            status(
                () ->
                    s3.uploadPart(
                        u -> u.bucket(BUCKET).key("m").uploadId(upload).partNumber(3),
                        RequestBody.fromBytes(new byte[1]))))
        .isEqualTo(400);
    s3.completeMultipartUpload(
        c -> c.bucket(BUCKET).key("m").uploadId(upload).multipartUpload(u -> u.parts(parts)));
    assertThat(s3.getObjectAsBytes(getWith("m", KEY)).asByteArray()).isEqualTo(data);
    // Part 2 alone, by number: the parts' object sizes, not the sealed sizes they are stored in.
    String md5Key = md5;
    ResponseBytes<GetObjectResponse> part2 =
        s3.getObjectAsBytes(
            g ->
                g.bucket(BUCKET)
                    .key("m")
                    .partNumber(2)
                    .sseCustomerAlgorithm("AES256")
                    .sseCustomerKey(b64(KEY))
                    .sseCustomerKeyMD5(md5Key));
    assertThat(part2.asByteArray()).isEqualTo(new byte[] {data[data.length - 1]});
    // GetObjectAttributes tells nothing of an SSE-C object without its key, as HEAD.
    assertThat(
            status(
                () ->
                    s3.getObjectAttributes(
                        a ->
                            a.bucket(BUCKET)
                                .key("m")
                                .objectAttributes(
                                    software.amazon.awssdk.services.s3.model.ObjectAttributes
                                        .OBJECT_SIZE))))
        .isEqualTo(400);
    // With it, it answers (the SDK sends the key headers; the router refused them before).
    var attributes =
        s3.getObjectAttributes(
            a ->
                a.bucket(BUCKET)
                    .key("m")
                    .sseCustomerAlgorithm("AES256")
                    .sseCustomerKey(b64(KEY))
                    .sseCustomerKeyMD5(md5)
                    .objectAttributes(
                        software.amazon.awssdk.services.s3.model.ObjectAttributes.OBJECT_SIZE,
                        software.amazon.awssdk.services.s3.model.ObjectAttributes.OBJECT_PARTS));
    assertThat(attributes.objectSize()).isEqualTo(data.length);
    assertThat(attributes.objectParts().totalPartsCount()).isEqualTo(2);
    s3.copyObject(
        c ->
            c.sourceBucket(BUCKET)
                .sourceKey("m")
                .destinationBucket(BUCKET)
                .destinationKey("copied")
                .copySourceSSECustomerAlgorithm("AES256")
                .copySourceSSECustomerKey(b64(KEY))
                .copySourceSSECustomerKeyMD5(md5)
                .serverSideEncryption(ServerSideEncryption.AES256));
    ResponseBytes<GetObjectResponse> copied =
        s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("copied"));
    assertThat(copied.asByteArray()).isEqualTo(data);
    assertThat(copied.response().serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
    // Without the source's key the copy is refused.
    assertThat(
            status(
                () ->
                    s3.copyObject(
                        c ->
                            c.sourceBucket(BUCKET)
                                .sourceKey("m")
                                .destinationBucket(BUCKET)
                                .destinationKey("copied2"))))
        .isEqualTo(400);
    assertThat(status(() -> s3.headObject(h -> h.bucket(BUCKET).key("copied2")))).isEqualTo(404);
  }

  @Test
  void sseC_whenPartCopiedIntoCustomerKeyUpload_answersTheKeyHeadersAndRoundTrips()
      throws Exception {
    start();
    byte[] data = SeededBytes.bytes(TestSeed.get(), 70_000);
    s3.putObject(b -> b.bucket(BUCKET).key("plain-source"), RequestBody.fromBytes(data));
    String md5 = md5(KEY);
    String uploadId =
        s3.createMultipartUpload(
                b ->
                    b.bucket(BUCKET)
                        .key("c-copied")
                        .sseCustomerAlgorithm("AES256")
                        .sseCustomerKey(b64(KEY))
                        .sseCustomerKeyMD5(md5))
            .uploadId();
    var copied =
        s3.uploadPartCopy(
            b ->
                b.sourceBucket(BUCKET)
                    .sourceKey("plain-source")
                    .destinationBucket(BUCKET)
                    .destinationKey("c-copied")
                    .uploadId(uploadId)
                    .partNumber(1)
                    .sseCustomerAlgorithm("AES256")
                    .sseCustomerKey(b64(KEY))
                    .sseCustomerKeyMD5(md5));
    assertThat(copied.sseCustomerAlgorithm()).isEqualTo("AES256");
    assertThat(copied.sseCustomerKeyMD5()).isEqualTo(md5);
    s3.completeMultipartUpload(
        b ->
            b.bucket(BUCKET)
                .key("c-copied")
                .uploadId(uploadId)
                .multipartUpload(
                    m ->
                        m.parts(
                            CompletedPart.builder()
                                .partNumber(1)
                                .eTag(copied.copyPartResult().eTag())
                                .build())));
    assertThat(s3.getObjectAsBytes(getWith("c-copied", KEY)).asByteArray()).isEqualTo(data);
  }

  @Test
  void refusals_whenKmsOrNoMasterKeyOrBadKeyMd5OrHeaderOnDelete_storeNothing() throws Exception {
    start(null, true, false);
    byte[] data = new byte[10];
    assertThat(
            errorCode(
                () ->
                    s3.putObject(
                        p ->
                            p.bucket(BUCKET)
                                .key("k")
                                .serverSideEncryption(ServerSideEncryption.AWS_KMS),
                        RequestBody.fromBytes(data))))
        .isEqualTo("NotImplemented");
    assertThat(
            errorCode(
                () ->
                    s3.putObject(
                        p ->
                            p.bucket(BUCKET)
                                .key("k")
                                .serverSideEncryption(ServerSideEncryption.AES256),
                        RequestBody.fromBytes(data))))
        .isEqualTo("NotImplemented");
    assertThat(
            errorCode(
                () ->
                    s3.putObject(
                        p ->
                            p.bucket(BUCKET)
                                .key("k")
                                .sseCustomerAlgorithm("AES256")
                                .sseCustomerKey(b64(KEY))
                                .sseCustomerKeyMD5(b64(new byte[16])),
                        RequestBody.fromBytes(data))))
        .isEqualTo("InvalidArgument");
    assertThat(status(() -> s3.headObject(h -> h.bucket(BUCKET).key("k")))).isEqualTo(404);
  }

  @Test
  void sseC_whenPlainHttpNotAllowed_isRefusedAsS3RefusesIt() throws Exception {
    start(Keyring.of(MasterKey.generate()), false, false);
    String md5 = md5(KEY);
    assertThat(
            errorCode(
                () ->
                    s3.putObject(
                        p ->
                            p.bucket(BUCKET)
                                .key("k")
                                .sseCustomerAlgorithm("AES256")
                                .sseCustomerKey(b64(KEY))
                                .sseCustomerKeyMD5(md5),
                        RequestBody.fromBytes(new byte[3]))))
        .isEqualTo("InvalidRequest");
    assertThat(status(() -> s3.headObject(h -> h.bucket(BUCKET).key("k")))).isEqualTo(404);
  }

  @Test
  void versionedBucket_whenVersionsSealedDifferently_eachReadsByItsIdWithItsOwnKey()
      throws Exception {
    start();
    s3.putBucketVersioning(
        b ->
            b.bucket(BUCKET)
                .versioningConfiguration(
                    c ->
                        c.status(
                            software.amazon.awssdk.services.s3.model.BucketVersioningStatus
                                .ENABLED)));
    byte[] first = "sealed by the proxy".getBytes(StandardCharsets.UTF_8);
    byte[] second = "sealed by the customer".getBytes(StandardCharsets.UTF_8);
    byte[] third = "stored as sent".getBytes(StandardCharsets.UTF_8);
    String md5 = md5(KEY);
    String v1 =
        s3.putObject(
                p -> p.bucket(BUCKET).key("v").serverSideEncryption(ServerSideEncryption.AES256),
                RequestBody.fromBytes(first))
            .versionId();
    String v2 =
        s3.putObject(
                p ->
                    p.bucket(BUCKET)
                        .key("v")
                        .sseCustomerAlgorithm("AES256")
                        .sseCustomerKey(b64(KEY))
                        .sseCustomerKeyMD5(md5),
                RequestBody.fromBytes(second))
            .versionId();
    String v3 =
        s3.putObject(p -> p.bucket(BUCKET).key("v"), RequestBody.fromBytes(third)).versionId();
    String marker = s3.deleteObject(d -> d.bucket(BUCKET).key("v")).versionId();
    assertThat(List.of(v1, v2, v3, marker)).doesNotHaveDuplicates().doesNotContainNull();

    ResponseBytes<GetObjectResponse> one =
        s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("v").versionId(v1));
    assertThat(one.asByteArray()).isEqualTo(first);
    assertThat(one.response().serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
    // The customer's version needs the customer's key, even named by its id.
    assertThat(status(() -> s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("v").versionId(v2))))
        .isEqualTo(400);
    Consumer<GetObjectRequest.Builder> withKey = getWith("v", KEY);
    ResponseBytes<GetObjectResponse> two =
        s3.getObjectAsBytes(g -> withKey.accept(g.versionId(v2)));
    assertThat(two.asByteArray()).isEqualTo(second);
    assertThat(two.response().sseCustomerKeyMD5()).isEqualTo(md5);
    ResponseBytes<GetObjectResponse> three =
        s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("v").versionId(v3));
    assertThat(three.asByteArray()).isEqualTo(third);
    assertThat(three.response().serverSideEncryption()).isNull();
    // Removing the sealed versions leaves the plain one readable.
    s3.deleteObject(d -> d.bucket(BUCKET).key("v").versionId(v1));
    s3.deleteObject(d -> d.bucket(BUCKET).key("v").versionId(v2));
    assertThat(
            s3.listObjectVersions(l -> l.bucket(BUCKET).prefix("v")).versions().stream()
                .map(software.amazon.awssdk.services.s3.model.ObjectVersion::versionId)
                .toList())
        .containsExactly(v3);
    assertThat(s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("v").versionId(v3)).asByteArray())
        .isEqualTo(third);
  }

  private static software.amazon.awssdk.services.s3.model.ServerSideEncryptionConfiguration config(
      ServerSideEncryption algorithm, String kmsKey) {
    return software.amazon.awssdk.services.s3.model.ServerSideEncryptionConfiguration.builder()
        .rules(
            software.amazon.awssdk.services.s3.model.ServerSideEncryptionRule.builder()
                .applyServerSideEncryptionByDefault(
                    d -> d.sseAlgorithm(algorithm).kmsMasterKeyID(kmsKey))
                .build())
        .build();
  }

  @Test
  void bucketDefault_whenSseS3_sealsWritesThatAskForNothingUntilDeleted() throws Exception {
    start();
    assertThat(errorCode(() -> s3.getBucketEncryption(b -> b.bucket(BUCKET))))
        .isEqualTo("ServerSideEncryptionConfigurationNotFoundError");
    assertThat(
            errorCode(
                () ->
                    s3.putBucketEncryption(
                        b ->
                            b.bucket(BUCKET)
                                .serverSideEncryptionConfiguration(
                                    config(ServerSideEncryption.AWS_KMS, "k")))))
        .isEqualTo("NotImplemented");
    s3.putBucketEncryption(
        b ->
            b.bucket(BUCKET)
                .serverSideEncryptionConfiguration(config(ServerSideEncryption.AES256, null)));
    assertThat(
            s3.getBucketEncryption(b -> b.bucket(BUCKET))
                .serverSideEncryptionConfiguration()
                .rules()
                .get(0)
                .applyServerSideEncryptionByDefault()
                .sseAlgorithm())
        .isEqualTo(ServerSideEncryption.AES256);
    byte[] data = SeededBytes.bytes(TestSeed.get(), 70_000);
    assertThat(
            s3.putObject(p -> p.bucket(BUCKET).key("by-default"), RequestBody.fromBytes(data))
                .serverSideEncryption())
        .isEqualTo(ServerSideEncryption.AES256);
    ResponseBytes<GetObjectResponse> got =
        s3.getObjectAsBytes(g -> g.bucket(BUCKET).key("by-default"));
    assertThat(got.asByteArray()).isEqualTo(data);
    assertThat(got.response().serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
    // A multipart upload that asks for nothing is sealed too.
    assertThat(
            s3.createMultipartUpload(c -> c.bucket(BUCKET).key("mp-default"))
                .serverSideEncryption())
        .isEqualTo(ServerSideEncryption.AES256);
    assertThat(s3.deleteBucketEncryption(b -> b.bucket(BUCKET)).sdkHttpResponse().statusCode())
        .isEqualTo(204);
    assertThat(errorCode(() -> s3.getBucketEncryption(b -> b.bucket(BUCKET))))
        .isEqualTo("ServerSideEncryptionConfigurationNotFoundError");
    assertThat(
            s3.putObject(p -> p.bucket(BUCKET).key("after"), RequestBody.fromBytes(data))
                .serverSideEncryption())
        .isNull();
  }

  @Test
  void bucketDefault_whenNoMasterKey_isRefusedAndNotStored() throws Exception {
    start(null, true, false);
    assertThat(
            errorCode(
                () ->
                    s3.putBucketEncryption(
                        b ->
                            b.bucket(BUCKET)
                                .serverSideEncryptionConfiguration(
                                    config(ServerSideEncryption.AES256, null)))))
        .isEqualTo("NotImplemented");
    assertThat(errorCode(() -> s3.getBucketEncryption(b -> b.bucket(BUCKET))))
        .isEqualTo("ServerSideEncryptionConfigurationNotFoundError");
  }

  @Test
  void defaultSseS3_whenWriteAsksForNothing_encryptsItAndSaysSo() throws Exception {
    start(Keyring.of(MasterKey.generate()), false, true);
    PutObjectResponse put =
        s3.putObject(p -> p.bucket(BUCKET).key("d"), RequestBody.fromBytes(new byte[] {1, 2}));
    assertThat(put.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
    assertThat(s3.headObject(h -> h.bucket(BUCKET).key("d")).serverSideEncryption())
        .isEqualTo(ServerSideEncryption.AES256);
    assertThat(
            errorCode(
                () ->
                    s3.deleteObject(
                        d ->
                            d.bucket(BUCKET)
                                .key("d")
                                .overrideConfiguration(
                                    o -> o.putHeader("x-amz-server-side-encryption", "AES256")))))
        .isEqualTo("NotImplemented");
  }
}
