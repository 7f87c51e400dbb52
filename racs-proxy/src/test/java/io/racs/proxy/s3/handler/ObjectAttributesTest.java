package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumType;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectAttributesResponse;
import software.amazon.awssdk.services.s3.model.ObjectAttributes;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * Proves GetObjectAttributes as S3 documents it: only the attributes asked for, the ETag unquoted,
 * the object's checksum with its type, ObjectParts for a multipart object only and paged by {@code
 * x-amz-max-parts} and {@code x-amz-part-number-marker}, and the S3 errors for a missing or unknown
 * attribute, a bad number, a missing key and another version.
 */
class ObjectAttributesTest {
  private static final String BUCKET = "attributes";
  private static final int PART_BYTES = 5 * 1024 * 1024;
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET);

  private static GetObjectAttributesResponse attributes(String key, ObjectAttributes... wanted) {
    return proxy.s3().getObjectAttributes(b -> b.bucket(BUCKET).key(key).objectAttributes(wanted));
  }

  @Test
  void getObjectAttributes_whenSinglePut_etagSizeClassAndChecksum() {
    String etag =
        proxy
            .s3()
            .putObject(
                b -> b.bucket(BUCKET).key("single").checksumAlgorithm(ChecksumAlgorithm.CRC32),
                RequestBody.fromString("hello"))
            .eTag();
    GetObjectAttributesResponse a =
        attributes(
            "single",
            ObjectAttributes.E_TAG,
            ObjectAttributes.OBJECT_SIZE,
            ObjectAttributes.STORAGE_CLASS,
            ObjectAttributes.CHECKSUM,
            ObjectAttributes.OBJECT_PARTS);
    assertThat(a.eTag()).isEqualTo(etag.replace("\"", ""));
    assertThat(a.objectSize()).isEqualTo(5L);
    assertThat(a.storageClass()).isEqualTo(StorageClass.STANDARD);
    assertThat(a.checksum().checksumCRC32()).isEqualTo("NhCmhg==");
    assertThat(a.checksum().checksumType()).isEqualTo(ChecksumType.FULL_OBJECT);
    assertThat(a.objectParts()).isNull();
    assertThat(a.lastModified()).isNotNull();
  }

  @Test
  void getObjectAttributes_whenOnlySizeAsked_onlySize() throws Exception {
    proxy.put("size-only", "abc");
    S3FrontEnd.Raw raw =
        proxy.send(
            "GET",
            "/" + BUCKET + "/size-only",
            "attributes",
            Map.of("x-amz-object-attributes", "ObjectSize"),
            null);
    assertThat(raw.status()).isEqualTo(200);
    assertThat(raw.text())
        .contains("<ObjectSize>3</ObjectSize>")
        .doesNotContain("<ETag>")
        .doesNotContain("StorageClass");
  }

  @Test
  void getObjectAttributes_whenMultipart_partsPaged() {
    String key = "multi";
    String upload =
        proxy
            .s3()
            .createMultipartUpload(
                b -> b.bucket(BUCKET).key(key).checksumAlgorithm(ChecksumAlgorithm.CRC32))
            .uploadId();
    List<CompletedPart> parts = new ArrayList<>();
    for (int n = 1; n <= 3; n++) {
      int number = n;
      byte[] data = new byte[n == 3 ? 10 : PART_BYTES];
      String crc =
          proxy
              .s3()
              .uploadPart(
                  b ->
                      b.bucket(BUCKET)
                          .key(key)
                          .uploadId(upload)
                          .partNumber(number)
                          .checksumAlgorithm(ChecksumAlgorithm.CRC32),
                  RequestBody.fromBytes(data))
              .checksumCRC32();
      parts.add(CompletedPart.builder().partNumber(n).checksumCRC32(crc).eTag("x").build());
    }
    List<CompletedPart> withEtags = new ArrayList<>();
    for (CompletedPart p : parts) {
      withEtags.add(p.toBuilder().eTag(etagOf(key, upload, p.partNumber())).build());
    }
    proxy
        .s3()
        .completeMultipartUpload(
            b ->
                b.bucket(BUCKET)
                    .key(key)
                    .uploadId(upload)
                    .multipartUpload(m -> m.parts(withEtags)));
    GetObjectAttributesResponse all =
        attributes(key, ObjectAttributes.OBJECT_PARTS, ObjectAttributes.CHECKSUM);
    assertThat(all.objectParts().totalPartsCount()).isEqualTo(3);
    assertThat(all.objectParts().isTruncated()).isFalse();
    assertThat(all.objectParts().parts()).hasSize(3);
    assertThat(all.objectParts().parts().get(2).size()).isEqualTo(10L);
    assertThat(all.objectParts().parts().get(0).checksumCRC32())
        .isEqualTo(withEtags.get(0).checksumCRC32());
    assertThat(all.checksum().checksumCRC32()).endsWith("-3");
    assertThat(all.checksum().checksumType()).isEqualTo(ChecksumType.COMPOSITE);
    GetObjectAttributesResponse page =
        proxy
            .s3()
            .getObjectAttributes(
                b ->
                    b.bucket(BUCKET)
                        .key(key)
                        .objectAttributes(ObjectAttributes.OBJECT_PARTS)
                        .maxParts(1)
                        .partNumberMarker(1));
    assertThat(page.objectParts().parts()).singleElement();
    assertThat(page.objectParts().parts().get(0).partNumber()).isEqualTo(2);
    assertThat(page.objectParts().isTruncated()).isTrue();
    assertThat(page.objectParts().nextPartNumberMarker()).isEqualTo(2);
    assertThat(page.objectParts().maxParts()).isEqualTo(1);
  }

  private static String etagOf(String key, String upload, int partNumber) {
    return proxy
        .s3()
        .listParts(b -> b.bucket(BUCKET).key(key).uploadId(upload))
        .parts()
        .get(partNumber - 1)
        .eTag();
  }

  @Test
  void getObjectAttributes_whenAttributeMissingOrUnknown_invalidArgument() throws Exception {
    proxy.put("bad-attr", "x");
    String path = "/" + BUCKET + "/bad-attr";
    S3FrontEnd.Raw raw = proxy.send("GET", path, "attributes", Map.of(), null);
    assertThat(raw.status()).isEqualTo(400);
    assertThat(raw.code()).isEqualTo("InvalidArgument");
    raw =
        proxy.send(
            "GET", path, "attributes", Map.of("x-amz-object-attributes", "ETag,Colour"), null);
    assertThat(raw.status()).isEqualTo(400);
    assertThat(raw.code()).isEqualTo("InvalidArgument");
    raw =
        proxy.send(
            "GET",
            path,
            "attributes",
            Map.of("x-amz-object-attributes", "ObjectParts", "x-amz-max-parts", "-1"),
            null);
    assertThat(raw.code()).isEqualTo("InvalidArgument");
  }

  @Test
  void getObjectAttributes_whenNoKeyOrOtherVersion_noSuchKeyOrNoSuchVersion() throws Exception {
    S3Exception e = S3FrontEnd.error(() -> attributes("absent", ObjectAttributes.E_TAG));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchKey");
    proxy.put("versioned", "x");
    S3FrontEnd.Raw raw =
        proxy.send(
            "GET",
            "/" + BUCKET + "/versioned",
            "attributes&versionId=other",
            Map.of("x-amz-object-attributes", "ETag"),
            null);
    assertThat(raw.status()).isEqualTo(404);
    assertThat(raw.code()).isEqualTo("NoSuchVersion");
  }

  @Test
  void getObjectAttributes_whenVersionedBucket_answersTheVersionNamedAndNamesIt() {
    String bucket = "attributes-versioned";
    proxy.s3().createBucket(b -> b.bucket(bucket));
    proxy
        .s3()
        .putBucketVersioning(
            b ->
                b.bucket(bucket)
                    .versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
    String first =
        proxy
            .s3()
            .putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("first"))
            .versionId();
    String second =
        proxy
            .s3()
            .putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("second!"))
            .versionId();
    GetObjectAttributesResponse old =
        proxy
            .s3()
            .getObjectAttributes(
                b ->
                    b.bucket(bucket)
                        .key("k")
                        .versionId(first)
                        .objectAttributes(ObjectAttributes.OBJECT_SIZE));
    assertThat(old.objectSize()).isEqualTo(5);
    assertThat(old.versionId()).isEqualTo(first);
    GetObjectAttributesResponse current =
        proxy
            .s3()
            .getObjectAttributes(
                b -> b.bucket(bucket).key("k").objectAttributes(ObjectAttributes.OBJECT_SIZE));
    assertThat(current.objectSize()).isEqualTo(7);
    assertThat(current.versionId()).isEqualTo(second);
    // A delete marker named by its version: 405, as for GET and HEAD.
    String marker = proxy.s3().deleteObject(b -> b.bucket(bucket).key("k")).versionId();
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .getObjectAttributes(
                        b ->
                            b.bucket(bucket)
                                .key("k")
                                .versionId(marker)
                                .objectAttributes(ObjectAttributes.OBJECT_SIZE)));
    assertThat(e.statusCode()).isEqualTo(405);
  }
}
