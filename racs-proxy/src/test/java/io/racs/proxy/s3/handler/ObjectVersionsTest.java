package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves, through the S3 front end with the AWS SDK v2 and raw signed requests, what a versioned
 * bucket answers as S3 documents it: ListObjectVersions lists every version and delete marker
 * newest first with IsLatest, pages by key and version id (also inside one key's versions), rolls
 * up common prefixes and URL-encodes on request; DeleteObject and DeleteObjects with a version id
 * remove exactly that version (removing the newest delete marker brings the key back), answer 204
 * for a well-formed id the key has not, and InvalidArgument for a malformed one; a key whose
 * current version is a delete marker is a 404 that names the marker.
 */
class ObjectVersionsTest {
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket("plain");

  private static String versionedBucket(String name) {
    proxy.s3().createBucket(b -> b.bucket(name));
    proxy
        .s3()
        .putBucketVersioning(
            b ->
                b.bucket(name)
                    .versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
    return name;
  }

  private static String put(String bucket, String key, String text) {
    return proxy
        .s3()
        .putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(text))
        .versionId();
  }

  @Test
  void listObjectVersions_whenPagedByOne_everyVersionAndMarkerNewestFirstWithIsLatest() {
    String bucket = versionedBucket("list-paged");
    String a1 = put(bucket, "a", "1");
    String a2 = put(bucket, "a", "2");
    String a3 = proxy.s3().deleteObject(b -> b.bucket(bucket).key("a")).versionId();
    String b1 = put(bucket, "b", "3");

    ListObjectVersionsResponse all = proxy.s3().listObjectVersions(b -> b.bucket(bucket));
    assertThat(all.isTruncated()).isFalse();
    assertThat(all.deleteMarkers())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(m.key()).isEqualTo("a");
              assertThat(m.versionId()).isEqualTo(a3);
              assertThat(m.isLatest()).isTrue();
            });
    assertThat(all.versions()).extracting(v -> v.versionId()).containsExactly(a2, a1, b1);
    assertThat(all.versions()).extracting(v -> v.isLatest()).containsExactly(false, false, true);
    assertThat(all.versions().get(0).size()).isEqualTo(1);
    assertThat(all.versions().get(0).eTag()).startsWith("\"");

    List<String> paged = new ArrayList<>();
    String keyMarker = null;
    String idMarker = null;
    for (int page = 0; page < 10; page++) {
      String k = keyMarker;
      String v = idMarker;
      ListObjectVersionsResponse r =
          proxy
              .s3()
              .listObjectVersions(b -> b.bucket(bucket).maxKeys(1).keyMarker(k).versionIdMarker(v));
      r.deleteMarkers().forEach(m -> paged.add(m.versionId()));
      r.versions().forEach(x -> paged.add(x.versionId()));
      if (!r.isTruncated()) {
        break;
      }
      if (page == 0) {
        assertThat(r.nextKeyMarker()).isEqualTo("a"); // truncated inside the versions of "a"
        assertThat(r.nextVersionIdMarker()).isEqualTo(a3);
      }
      keyMarker = r.nextKeyMarker();
      idMarker = r.nextVersionIdMarker();
    }
    assertThat(paged).containsExactly(a3, a2, a1, b1);
  }

  @Test
  void listObjectVersions_withDelimiterAndUrlEncoding_rollsUpAndEncodes() throws Exception {
    String bucket = versionedBucket("list-rolled");
    put(bucket, "dir one/x", "1");
    put(bucket, "dir one/x", "2");
    put(bucket, "top", "3");
    S3FrontEnd.Raw raw =
        proxy.send("GET", "/" + bucket, "versions&delimiter=/&encoding-type=url", Map.of(), null);
    assertThat(raw.status()).isEqualTo(200);
    assertThat(raw.text())
        .contains(
            "<CommonPrefixes><Prefix>dir+one/</Prefix></CommonPrefixes>" /* a space, as S3 encodes it */)
        .contains("<EncodingType>url</EncodingType>")
        .contains("<Key>top</Key>")
        .doesNotContain("<Key>dir");
    ListObjectVersionsResponse under =
        proxy.s3().listObjectVersions(b -> b.bucket(bucket).prefix("dir one/"));
    assertThat(under.versions()).extracting(v -> v.key()).containsExactly("dir one/x", "dir one/x");
  }

  @Test
  void listObjectVersions_whenMarkersAreBad_invalidArgument() throws Exception {
    String bucket = versionedBucket("list-bad");
    S3FrontEnd.Raw noKey =
        proxy.send(
            "GET", "/" + bucket, "versions&version-id-marker=" + "0".repeat(32), Map.of(), null);
    assertThat(noKey.status()).isEqualTo(400);
    assertThat(noKey.code()).isEqualTo("InvalidArgument");
    S3FrontEnd.Raw malformed =
        proxy.send(
            "GET",
            "/" + bucket,
            "versions&key-marker=a&version-id-marker=nonsense",
            Map.of(),
            null);
    assertThat(malformed.status()).isEqualTo(400);
    assertThat(malformed.code()).isEqualTo("InvalidArgument");
  }

  @Test
  void deleteObject_withVersionId_removesExactlyThatVersion() throws Exception {
    String bucket = versionedBucket("delete-version");
    String first = put(bucket, "k", "first");
    String second = put(bucket, "k", "second");

    DeleteObjectResponse removed =
        proxy.s3().deleteObject(b -> b.bucket(bucket).key("k").versionId(second));

    assertThat(removed.versionId()).isEqualTo(second);
    assertThat(removed.deleteMarker()).isNull();
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String())
        .isEqualTo("first");
    S3FrontEnd.Raw gone =
        proxy.send("GET", "/" + bucket + "/k", "versionId=" + second, Map.of(), null);
    assertThat(gone.code()).isEqualTo("NoSuchVersion");
    assertThat(proxy.s3().listObjectVersions(b -> b.bucket(bucket)).versions())
        .extracting(v -> v.versionId())
        .containsExactly(first);
  }

  @Test
  void deleteObject_withTheMarkersVersionId_bringsTheKeyBack() throws Exception {
    String bucket = versionedBucket("undelete");
    put(bucket, "k", "kept");
    String marker = proxy.s3().deleteObject(b -> b.bucket(bucket).key("k")).versionId();
    for (String method : new String[] {"GET", "HEAD"}) {
      S3FrontEnd.Raw hidden = proxy.send(method, "/" + bucket + "/k", "", Map.of(), null);
      assertThat(hidden.status()).as(method).isEqualTo(404);
      assertThat(hidden.all("x-amz-delete-marker")).as(method).containsExactly("true");
      assertThat(hidden.all("x-amz-version-id")).as(method).containsExactly(marker);
    }
    assertThat(proxy.send("GET", "/" + bucket + "/k", "", Map.of(), null).code())
        .isEqualTo("NoSuchKey");

    S3FrontEnd.Raw removed =
        proxy.send("DELETE", "/" + bucket + "/k", "versionId=" + marker, Map.of(), null);

    assertThat(removed.status()).isEqualTo(204);
    assertThat(removed.all("x-amz-delete-marker")).containsExactly("true");
    assertThat(removed.all("x-amz-version-id")).containsExactly(marker);
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String())
        .isEqualTo("kept");
  }

  @Test
  void getObject_whenUnversionedKeyDeleted_plainNoSuchKeyWithoutMarkerHeaders() throws Exception {
    proxy.put("gone", "x");
    proxy.s3().deleteObject(b -> b.bucket("plain").key("gone"));
    S3FrontEnd.Raw raw = proxy.send("GET", "/plain/gone", "", Map.of(), null);
    assertThat(raw.status()).isEqualTo(404);
    assertThat(raw.all("x-amz-delete-marker")).isEmpty();
    assertThat(raw.all("x-amz-version-id")).isEmpty();
  }

  @Test
  void deleteObject_withUnknownOrMalformedVersionId_204OrInvalidArgumentAndNothingChanges()
      throws Exception {
    String bucket = versionedBucket("delete-unknown");
    String kept = put(bucket, "k", "kept");
    String unknown = "0".repeat(32);
    S3FrontEnd.Raw none =
        proxy.send("DELETE", "/" + bucket + "/k", "versionId=" + unknown, Map.of(), null);
    assertThat(none.status()).isEqualTo(204);
    assertThat(none.all("x-amz-version-id")).containsExactly(unknown);
    assertThat(none.all("x-amz-delete-marker")).isEmpty();
    for (String bad : new String[] {"3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY", ""}) {
      S3FrontEnd.Raw raw =
          proxy.send("DELETE", "/" + bucket + "/k", "versionId=" + bad, Map.of(), null);
      assertThat(raw.status()).as(bad).isEqualTo(400);
      assertThat(raw.code()).as(bad).isEqualTo("InvalidArgument");
    }
    assertThat(proxy.s3().listObjectVersions(b -> b.bucket(bucket)).versions())
        .extracting(v -> v.versionId())
        .containsExactly(kept);
    assertThat(proxy.s3().listObjectVersions(b -> b.bucket(bucket)).deleteMarkers()).isEmpty();
  }

  @Test
  void deleteObjects_withVersionIds_removesThemAndNamesRemovedMarkers() {
    String bucket = versionedBucket("batch-versions");
    String first = put(bucket, "k", "first");
    String second = put(bucket, "k", "second");
    String marker = proxy.s3().deleteObject(b -> b.bucket(bucket).key("k")).versionId();

    DeleteObjectsResponse batch =
        proxy
            .s3()
            .deleteObjects(
                b ->
                    b.bucket(bucket)
                        .delete(
                            d ->
                                d.objects(
                                    ObjectIdentifier.builder().key("k").versionId(marker).build(),
                                    ObjectIdentifier.builder().key("k").versionId(second).build(),
                                    ObjectIdentifier.builder()
                                        .key("k")
                                        .versionId("bad-id")
                                        .build())));

    assertThat(batch.deleted()).hasSize(2);
    assertThat(batch.deleted().get(0).versionId()).isEqualTo(marker);
    assertThat(batch.deleted().get(0).deleteMarker()).isTrue();
    assertThat(batch.deleted().get(0).deleteMarkerVersionId()).isEqualTo(marker);
    assertThat(batch.deleted().get(1).versionId()).isEqualTo(second);
    assertThat(batch.deleted().get(1).deleteMarker()).isNull();
    assertThat(batch.errors())
        .singleElement()
        .satisfies(e -> assertThat(e.code()).isEqualTo("InvalidArgument"));
    assertThat(proxy.s3().getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String())
        .isEqualTo("first");
    assertThat(proxy.s3().listObjectVersions(b -> b.bucket(bucket)).versions())
        .extracting(v -> v.versionId())
        .containsExactly(first);
  }

  @Test
  void deleteObject_withVersionIdInMissingBucket_noSuchBucket() {
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .deleteObject(b -> b.bucket("no-such").key("k").versionId("0".repeat(32))));
    assertThat(e.statusCode()).isEqualTo(404);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchBucket");
  }
}
