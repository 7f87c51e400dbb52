package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves suspended versioning and the {@code null} version through the S3 front end with the AWS
 * SDK v2, as S3 behaves: PutBucketVersioning {@code Suspended} sticks; a write in a suspended
 * bucket answers no {@code x-amz-version-id} and is the key's null version, replacing the earlier
 * one while versions with ids stay; a delete there writes a delete marker whose id is {@code null};
 * an object written before versioning was turned on is the null version ({@code VersionId=null} in
 * ListObjectVersions, GET, HEAD and DELETE by {@code versionId=null}).
 */
class SuspendedVersioningTest {
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket("unused");

  private static void versioning(String bucket, BucketVersioningStatus status) {
    proxy
        .s3()
        .putBucketVersioning(b -> b.bucket(bucket).versioningConfiguration(c -> c.status(status)));
  }

  private static String put(String bucket, String key, String text) {
    PutObjectResponse r =
        proxy.s3().putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(text));
    return r.versionId();
  }

  private static String get(String bucket, String key, String versionId) {
    return proxy
        .s3()
        .getObjectAsBytes(b -> b.bucket(bucket).key(key).versionId(versionId))
        .asUtf8String();
  }

  private static ListObjectVersionsResponse versions(String bucket) {
    return proxy.s3().listObjectVersions(b -> b.bucket(bucket));
  }

  @Test
  void putBucketVersioning_whenSuspended_getSaysSuspendedAndPutAnswersNoVersionId()
      throws Exception {
    proxy.s3().createBucket(b -> b.bucket("suspended"));
    versioning("suspended", BucketVersioningStatus.SUSPENDED);
    assertThat(proxy.s3().getBucketVersioning(b -> b.bucket("suspended")).status())
        .isEqualTo(BucketVersioningStatus.SUSPENDED);
    S3FrontEnd.Raw raw =
        proxy.send("PUT", "/suspended/k", "", Map.of(), "one".getBytes(StandardCharsets.UTF_8));
    assertThat(raw.status()).isEqualTo(200);
    assertThat(raw.all("x-amz-version-id")).isEmpty();
    assertThat(proxy.s3().headObject(b -> b.bucket("suspended").key("k")).versionId())
        .isEqualTo("null");
    assertThat(proxy.s3().getObject(b -> b.bucket("suspended").key("k")).response().versionId())
        .isEqualTo("null");
    assertThat(get("suspended", "k", "null")).isEqualTo("one");
  }

  @Test
  void put_whenSuspended_replacesTheNullVersionAndKeepsVersionsWithIds() {
    String bucket = "replace";
    proxy.s3().createBucket(b -> b.bucket(bucket));
    assertThat(put(bucket, "k", "before versioning")).isNull();
    versioning(bucket, BucketVersioningStatus.ENABLED);
    String kept = put(bucket, "k", "kept");
    assertThat(kept).isNotEmpty().isNotEqualTo("null");
    versioning(bucket, BucketVersioningStatus.SUSPENDED);
    put(bucket, "k", "first null");
    put(bucket, "k", "second null");
    List<ObjectVersion> listed = versions(bucket).versions();
    assertThat(listed).extracting(ObjectVersion::versionId).containsExactly("null", kept);
    assertThat(listed).extracting(ObjectVersion::isLatest).containsExactly(true, false);
    assertThat(get(bucket, "k", "null")).isEqualTo("second null");
    assertThat(get(bucket, "k", kept)).isEqualTo("kept");
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String())
        .isEqualTo("second null");
  }

  @Test
  void delete_whenSuspended_writesANullDeleteMarker() {
    String bucket = "marker";
    proxy.s3().createBucket(b -> b.bucket(bucket));
    versioning(bucket, BucketVersioningStatus.ENABLED);
    String kept = put(bucket, "k", "kept");
    versioning(bucket, BucketVersioningStatus.SUSPENDED);
    put(bucket, "k", "null one");
    DeleteObjectResponse deleted = proxy.s3().deleteObject(b -> b.bucket(bucket).key("k"));
    assertThat(deleted.deleteMarker()).isTrue();
    assertThat(deleted.versionId()).isEqualTo("null");
    ListObjectVersionsResponse listed = versions(bucket);
    assertThat(listed.deleteMarkers())
        .extracting(DeleteMarkerEntry::versionId, DeleteMarkerEntry::isLatest)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("null", true));
    assertThat(listed.versions()).extracting(ObjectVersion::versionId).containsExactly(kept);
    S3Exception hidden =
        S3FrontEnd.error(() -> proxy.s3().headObject(b -> b.bucket(bucket).key("k")));
    assertThat(hidden.statusCode()).isEqualTo(404);
    // Removing the null marker makes the version with an id current again.
    proxy.s3().deleteObject(b -> b.bucket(bucket).key("k").versionId("null"));
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String())
        .isEqualTo("kept");
  }

  @Test
  void nullVersion_whenWrittenBeforeVersioning_isNamedNullAndCanBeDeleted() {
    String bucket = "before";
    proxy.s3().createBucket(b -> b.bucket(bucket));
    put(bucket, "k", "old");
    put(bucket, "other", "other old");
    versioning(bucket, BucketVersioningStatus.ENABLED);
    String newer = put(bucket, "k", "new");
    assertThat(versions(bucket).versions())
        .extracting(ObjectVersion::key, ObjectVersion::versionId)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("k", newer),
            org.assertj.core.groups.Tuple.tuple("k", "null"),
            org.assertj.core.groups.Tuple.tuple("other", "null"));
    assertThat(get(bucket, "k", "null")).isEqualTo("old");
    assertThat(proxy.s3().headObject(b -> b.bucket(bucket).key("k").versionId("null")).versionId())
        .isEqualTo("null");
    DeleteObjectResponse removed =
        proxy.s3().deleteObject(b -> b.bucket(bucket).key("k").versionId("null"));
    assertThat(removed.versionId()).isEqualTo("null");
    DeleteObjectsResponse batch =
        proxy
            .s3()
            .deleteObjects(
                b ->
                    b.bucket(bucket)
                        .delete(
                            d ->
                                d.objects(
                                    ObjectIdentifier.builder()
                                        .key("other")
                                        .versionId("null")
                                        .build())));
    assertThat(batch.errors()).isEmpty();
    assertThat(versions(bucket).versions())
        .extracting(ObjectVersion::versionId)
        .containsExactly(newer);
    S3Exception gone =
        S3FrontEnd.error(
            () -> proxy.s3().getObject(b -> b.bucket(bucket).key("k").versionId("null")));
    assertThat(gone.statusCode()).isEqualTo(404);
    assertThat(gone.awsErrorDetails().errorCode()).isEqualTo("NoSuchVersion");
  }

  @Test
  void
      listObjectVersions_whenAPageEndsOnTheNullVersion_theNextPageGoesOnWithTheKeysOlderVersions() {
    String bucket = "paging-null";
    proxy.s3().createBucket(b -> b.bucket(bucket));
    versioning(bucket, BucketVersioningStatus.ENABLED);
    String kept = put(bucket, "k", "kept");
    versioning(bucket, BucketVersioningStatus.SUSPENDED);
    put(bucket, "k", "the null version");
    List<String> ids = new java.util.ArrayList<>();
    String keyMarker = null;
    String idMarker = null;
    for (int page = 0; page < 5; page++) {
      String km = keyMarker;
      String im = idMarker;
      ListObjectVersionsResponse r =
          proxy
              .s3()
              .listObjectVersions(
                  b -> b.bucket(bucket).maxKeys(1).keyMarker(km).versionIdMarker(im));
      r.versions().stream().map(ObjectVersion::versionId).forEach(ids::add);
      if (!r.isTruncated()) {
        break;
      }
      keyMarker = r.nextKeyMarker();
      idMarker = r.nextVersionIdMarker();
    }
    // Page 2 was empty: the "null" marker was taken for "after the key" (found in review).
    assertThat(ids).containsExactly("null", kept);
  }

  @Test
  void listObjectVersions_whenAPageEndsAtTheNullVersion_nextPageGoesOnWithTheKey() {
    String bucket = "paged";
    proxy.s3().createBucket(b -> b.bucket(bucket));
    versioning(bucket, BucketVersioningStatus.ENABLED);
    String oldest = put(bucket, "k", "oldest");
    versioning(bucket, BucketVersioningStatus.SUSPENDED);
    put(bucket, "k", "null one");
    versioning(bucket, BucketVersioningStatus.ENABLED);
    String newest = put(bucket, "k", "newest");
    ListObjectVersionsResponse first =
        proxy.s3().listObjectVersions(b -> b.bucket(bucket).maxKeys(2));
    assertThat(first.versions())
        .extracting(ObjectVersion::versionId)
        .containsExactly(newest, "null");
    assertThat(first.isTruncated()).isTrue();
    assertThat(first.nextVersionIdMarker()).isEqualTo("null");
    ListObjectVersionsResponse second =
        proxy
            .s3()
            .listObjectVersions(
                b ->
                    b.bucket(bucket)
                        .maxKeys(2)
                        .keyMarker(first.nextKeyMarker())
                        .versionIdMarker(first.nextVersionIdMarker()));
    assertThat(second.versions()).extracting(ObjectVersion::versionId).containsExactly(oldest);
    assertThat(second.isTruncated()).isFalse();
  }
}
