package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.TestSeed;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.ChecksumType;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListPartsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.ObjectAttributes;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;

/**
 * Proves through the real front end and the AWS SDK v2 that a CompleteMultipartUpload's {@code
 * x-amz-checksum-*} header is the object's checksum, not its XML body's: minio-go's composite
 * CRC32C without {@code -N} completes, a full-object CRC64NVME or CRC32 is checked against the CRC
 * of the whole object, a wrong one is {@code 400 BadDigest} and completes nothing, and GET, HEAD
 * and GetObjectAttributes answer the object's checksum and type as S3 does; a sealed upload's CRCs
 * combine by the plaintext sizes. An upload whose creation named its checksum keeps it: echoed,
 * listed, required of every part (computed for a part that sends none, as S3 computes it), and the
 * type of its completion.
 */
class CompleteMultipartChecksumTest {
  private static final String BUCKET = "mpu-checksums";
  private static final int PART_BYTES = 5 * 1024 * 1024;
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET).encrypting();

  private static byte[][] parts;
  private static byte[] whole;

  @BeforeAll
  static void data() {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    parts = new byte[][] {new byte[PART_BYTES], new byte[1 + random.nextInt(100_000)]};
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      random.nextBytes(p);
      all.writeBytes(p);
    }
    whole = all.toByteArray();
  }

  private static String crc(Checksum c, byte[] data) {
    c.update(data, 0, data.length);
    return Base64.getEncoder()
        .encodeToString(ByteBuffer.allocate(4).putInt((int) c.getValue()).array());
  }

  /** Uploads the parts with {@code algorithm}; the completed parts carry their checksums. */
  private static List<CompletedPart> upload(
      String key, String uploadId, ChecksumAlgorithm algorithm) {
    List<CompletedPart> done = new ArrayList<>();
    for (int i = 0; i < parts.length; i++) {
      int number = i + 1;
      var r =
          proxy
              .s3()
              .uploadPart(
                  b ->
                      b.bucket(BUCKET)
                          .key(key)
                          .uploadId(uploadId)
                          .partNumber(number)
                          .checksumAlgorithm(algorithm),
                  RequestBody.fromBytes(parts[i]));
      done.add(
          CompletedPart.builder()
              .partNumber(number)
              .eTag(r.eTag())
              .checksumCRC32(r.checksumCRC32())
              .checksumCRC32C(r.checksumCRC32C())
              .checksumCRC64NVME(r.checksumCRC64NVME())
              .build());
    }
    return done;
  }

  private static String create(String key, ChecksumAlgorithm algorithm, ChecksumType type) {
    return created(key, algorithm, type).uploadId();
  }

  private static CreateMultipartUploadResponse created(
      String key, ChecksumAlgorithm algorithm, ChecksumType type) {
    return proxy
        .s3()
        .createMultipartUpload(
            b -> b.bucket(BUCKET).key(key).checksumAlgorithm(algorithm).checksumType(type));
  }

  /** HEAD with checksum mode: the stored checksum and its type. */
  private static HeadObjectResponse headWithChecksum(String key) {
    return proxy.s3().headObject(b -> b.bucket(BUCKET).key(key).checksumMode(ChecksumMode.ENABLED));
  }

  private static CompleteMultipartUploadResponse complete(
      String key,
      String uploadId,
      List<CompletedPart> done,
      java.util.function.Consumer<CompleteMultipartUploadRequest.Builder> checksum) {
    return proxy
        .s3()
        .completeMultipartUpload(
            b -> {
              b.bucket(BUCKET).key(key).uploadId(uploadId).multipartUpload(m -> m.parts(done));
              checksum.accept(b);
            });
  }

  @Test
  void complete_whenMinioGoSendsCompositeCrc32cWithoutPartCount_completesAndAnswersDashN() {
    String key = "minio-go";
    String uploadId = create(key, ChecksumAlgorithm.CRC32_C, null);
    List<CompletedPart> done = upload(key, uploadId, ChecksumAlgorithm.CRC32_C);
    CRC32C ofChecksums = new CRC32C();
    for (CompletedPart p : done) {
      ofChecksums.update(Base64.getDecoder().decode(p.checksumCRC32C()));
    }
    String bare =
        Base64.getEncoder()
            .encodeToString(ByteBuffer.allocate(4).putInt((int) ofChecksums.getValue()).array());
    // minio-go sends the composite value as a header; SDK v2 sends this field as that header.
    CompleteMultipartUploadResponse answer =
        complete(key, uploadId, done, b -> b.checksumCRC32C(bare));
    assertThat(answer.checksumCRC32C()).isEqualTo(bare + "-2");
    assertThat(answer.checksumType()).isEqualTo(ChecksumType.COMPOSITE);
    HeadObjectResponse head = headWithChecksum(key);
    assertThat(head.checksumCRC32C()).isEqualTo(bare + "-2");
    assertThat(head.checksumType()).isEqualTo(ChecksumType.COMPOSITE);
    assertThat(
            proxy
                .s3()
                .getObjectAttributes(
                    b -> b.bucket(BUCKET).key(key).objectAttributes(ObjectAttributes.CHECKSUM))
                .checksum()
                .checksumType())
        .isEqualTo(ChecksumType.COMPOSITE);
  }

  @Test
  void complete_whenFullObjectCrc64nvme_checksTheWholeAndGetAnswersIt() {
    String key = "full-crc64nvme";
    String uploadId = create(key, ChecksumAlgorithm.CRC64_NVME, ChecksumType.FULL_OBJECT);
    List<CompletedPart> done = upload(key, uploadId, ChecksumAlgorithm.CRC64_NVME);
    var crc = new io.racs.proxy.s3.checksum.Crc64Nvme();
    crc.update(whole, 0, whole.length);
    String expected =
        Base64.getEncoder().encodeToString(ByteBuffer.allocate(8).putLong(crc.getValue()).array());
    String wrong = Base64.getEncoder().encodeToString(new byte[8]);

    S3Exception refused =
        S3FrontEnd.error(
            () ->
                complete(
                    key,
                    uploadId,
                    done,
                    b -> b.checksumCRC64NVME(wrong).checksumType(ChecksumType.FULL_OBJECT)));
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("BadDigest");
    assertThat(
            S3FrontEnd.error(() -> proxy.s3().headObject(b -> b.bucket(BUCKET).key(key)))
                .statusCode())
        .as("a refused completion completes nothing")
        .isEqualTo(404);

    CompleteMultipartUploadResponse answer =
        complete(
            key,
            uploadId,
            done,
            b -> b.checksumCRC64NVME(expected).checksumType(ChecksumType.FULL_OBJECT));
    assertThat(answer.checksumCRC64NVME()).isEqualTo(expected);
    assertThat(answer.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
    ResponseBytes<GetObjectResponse> got =
        proxy
            .s3()
            .getObjectAsBytes(b -> b.bucket(BUCKET).key(key).checksumMode(ChecksumMode.ENABLED));
    assertThat(got.asByteArray()).isEqualTo(whole);
    assertThat(got.response().checksumCRC64NVME()).isEqualTo(expected);
    assertThat(got.response().checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
  }

  @Test
  void complete_whenFullObjectCrc32WithoutValue_answersTheWholesCrc() {
    String key = "full-crc32";
    String uploadId = create(key, ChecksumAlgorithm.CRC32, ChecksumType.FULL_OBJECT);
    List<CompletedPart> done = upload(key, uploadId, ChecksumAlgorithm.CRC32);
    CompleteMultipartUploadResponse answer =
        complete(key, uploadId, done, b -> b.checksumType(ChecksumType.FULL_OBJECT));
    assertThat(answer.checksumCRC32()).isEqualTo(crc(new CRC32(), whole));
    HeadObjectResponse head = headWithChecksum(key);
    assertThat(head.checksumCRC32()).isEqualTo(crc(new CRC32(), whole));
    assertThat(head.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
  }

  @Test
  void complete_whenSealedWithSseS3_combinesThePlaintextSizes() {
    // A sealed part is stored larger than it is: the CRCs combine by the client's sizes.
    String key = "sealed-full-crc32c";
    String uploadId =
        proxy
            .s3()
            .createMultipartUpload(
                b ->
                    b.bucket(BUCKET)
                        .key(key)
                        .serverSideEncryption(ServerSideEncryption.AES256)
                        .checksumAlgorithm(ChecksumAlgorithm.CRC32_C)
                        .checksumType(ChecksumType.FULL_OBJECT))
            .uploadId();
    List<CompletedPart> done = upload(key, uploadId, ChecksumAlgorithm.CRC32_C);
    String expected = crc(new CRC32C(), whole);
    CompleteMultipartUploadResponse answer =
        complete(
            key,
            uploadId,
            done,
            b -> b.checksumCRC32C(expected).checksumType(ChecksumType.FULL_OBJECT));
    assertThat(answer.checksumCRC32C()).isEqualTo(expected);
    assertThat(answer.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
  }

  @Test
  void complete_whenBodyNamesAWrongPartChecksum_invalidPart() {
    String key = "wrong-part";
    String uploadId = create(key, ChecksumAlgorithm.CRC32, null);
    List<CompletedPart> done = new ArrayList<>(upload(key, uploadId, ChecksumAlgorithm.CRC32));
    done.set(1, done.get(1).toBuilder().checksumCRC32(crc(new CRC32(), new byte[] {7})).build());
    S3Exception refused = S3FrontEnd.error(() -> complete(key, uploadId, done, b -> {}));
    assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("InvalidPart");
  }

  @Test
  void create_withFullObjectCrc32_echoesItAndTheCompletionNamingNoTypeIsFullObject() {
    String key = "recorded-full-crc32";
    CreateMultipartUploadResponse created =
        created(key, ChecksumAlgorithm.CRC32, ChecksumType.FULL_OBJECT);
    assertThat(created.checksumAlgorithm()).isEqualTo(ChecksumAlgorithm.CRC32);
    assertThat(created.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
    List<CompletedPart> done = upload(key, created.uploadId(), ChecksumAlgorithm.CRC32);
    ListPartsResponse listed =
        proxy.s3().listParts(b -> b.bucket(BUCKET).key(key).uploadId(created.uploadId()));
    assertThat(listed.checksumAlgorithm()).isEqualTo(ChecksumAlgorithm.CRC32);
    assertThat(listed.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
    assertThat(listed.parts().get(0).checksumCRC32()).isEqualTo(done.get(0).checksumCRC32());
    assertThat(proxy.s3().listMultipartUploads(b -> b.bucket(BUCKET).prefix(key)).uploads().get(0))
        .returns(ChecksumAlgorithm.CRC32, MultipartUpload::checksumAlgorithm)
        .returns(ChecksumType.FULL_OBJECT, MultipartUpload::checksumType);

    // Without the recorded type a CRC32 completion naming none would be composite.
    CompleteMultipartUploadResponse answer = complete(key, created.uploadId(), done, b -> {});
    assertThat(answer.checksumCRC32()).isEqualTo(crc(new CRC32(), whole));
    assertThat(answer.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
    HeadObjectResponse head = headWithChecksum(key);
    assertThat(head.checksumCRC32()).isEqualTo(crc(new CRC32(), whole));
    assertThat(head.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
  }

  @Test
  void create_withCrc32cAlone_isCompositeAndRefusesAnotherTypeOrAlgorithmAtCompletion() {
    String key = "recorded-composite-crc32c";
    CreateMultipartUploadResponse created = created(key, ChecksumAlgorithm.CRC32_C, null);
    assertThat(created.checksumType()).isEqualTo(ChecksumType.COMPOSITE);
    List<CompletedPart> done = upload(key, created.uploadId(), ChecksumAlgorithm.CRC32_C);
    S3Exception otherType =
        S3FrontEnd.error(
            () ->
                complete(
                    key, created.uploadId(), done, b -> b.checksumType(ChecksumType.FULL_OBJECT)));
    assertThat(otherType.awsErrorDetails().errorCode()).isEqualTo("InvalidRequest");
    S3Exception otherAlgorithm =
        S3FrontEnd.error(
            () ->
                complete(
                    key, created.uploadId(), done, b -> b.checksumCRC32(crc(new CRC32(), whole))));
    assertThat(otherAlgorithm.awsErrorDetails().errorCode()).isEqualTo("InvalidRequest");
    CompleteMultipartUploadResponse answer = complete(key, created.uploadId(), done, b -> {});
    assertThat(answer.checksumCRC32C()).endsWith("-2");
    assertThat(answer.checksumType()).isEqualTo(ChecksumType.COMPOSITE);
  }

  @Test
  void uploadPart_ofAnotherAlgorithm_invalidRequestAndStoresNothing() {
    String key = "recorded-other-part";
    String uploadId = create(key, ChecksumAlgorithm.CRC32, null);
    S3Exception refused =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .uploadPart(
                        b ->
                            b.bucket(BUCKET)
                                .key(key)
                                .uploadId(uploadId)
                                .partNumber(1)
                                .checksumAlgorithm(ChecksumAlgorithm.SHA256),
                        RequestBody.fromBytes(parts[1])));
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("InvalidRequest");
    assertThat(proxy.s3().listParts(b -> b.bucket(BUCKET).key(key).uploadId(uploadId)).parts())
        .isEmpty();
  }

  @Test
  void uploadPart_withoutChecksum_getsTheUploadsComputedAsS3Does() throws Exception {
    String key = "recorded-computed";
    String uploadId = create(key, ChecksumAlgorithm.CRC32_C, ChecksumType.FULL_OBJECT);
    S3FrontEnd.Raw raw =
        proxy.send(
            "PUT",
            "/" + BUCKET + "/" + key,
            "partNumber=2&uploadId=" + uploadId,
            Map.of(),
            parts[1]);
    assertThat(raw.status()).as(raw.text()).isEqualTo(200);
    assertThat(raw.all("x-amz-checksum-crc32c")).containsExactly(crc(new CRC32C(), parts[1]));
    // A copied part announces none either: it gets one too.
    proxy.s3().putObject(b -> b.bucket(BUCKET).key("copy-source"), RequestBody.fromBytes(parts[0]));
    var copied =
        proxy
            .s3()
            .uploadPartCopy(
                b ->
                    b.sourceBucket(BUCKET)
                        .sourceKey("copy-source")
                        .destinationBucket(BUCKET)
                        .destinationKey(key)
                        .uploadId(uploadId)
                        .partNumber(1));
    assertThat(copied.copyPartResult().checksumCRC32C()).isEqualTo(crc(new CRC32C(), parts[0]));
    List<CompletedPart> done =
        List.of(
            CompletedPart.builder().partNumber(1).eTag(copied.copyPartResult().eTag()).build(),
            CompletedPart.builder()
                .partNumber(2)
                .eTag(raw.headers().firstValue("ETag").orElseThrow())
                .build());
    CompleteMultipartUploadResponse answer = complete(key, uploadId, done, b -> {});
    assertThat(answer.checksumCRC32C()).isEqualTo(crc(new CRC32C(), whole));
    assertThat(answer.checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
  }

  @Test
  void create_withTypeWithoutAlgorithm_invalidRequest() {
    S3Exception refused =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .createMultipartUpload(
                        b ->
                            b.bucket(BUCKET).key("no-alg").checksumType(ChecksumType.FULL_OBJECT)));
    assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("InvalidRequest");
    assertThat(proxy.s3().listMultipartUploads(b -> b.bucket(BUCKET).prefix("no-alg")).uploads())
        .isEmpty();
  }
}
