package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.Tag;
import software.amazon.awssdk.services.s3.model.TaggingDirective;

/**
 * Proves object tags through the S3 front end: {@code x-amz-tagging} on PutObject,
 * CreateMultipartUpload and CopyObject (with {@code x-amz-tagging-directive} COPY or REPLACE) is
 * stored with the version, returned by GetObjectTagging and counted in {@code x-amz-tagging-count}
 * on GET and HEAD; PutObjectTagging and DeleteObjectTagging (with {@code versionId} in a versioned
 * bucket) replace the tags of exactly one version, and a copy carries them; a tag set S3 would
 * refuse (too many, too long, repeated keys, {@code aws:}) is refused with S3's error before
 * anything is stored.
 */
class ObjectTaggingTest {
  private static final String BUCKET = "object-tags";
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET);

  private static Tag tag(String key, String value) {
    return Tag.builder().key(key).value(value).build();
  }

  private static void putTagged(String key, String tagging) {
    proxy
        .s3()
        .putObject(b -> b.bucket(BUCKET).key(key).tagging(tagging), RequestBody.fromString(key));
  }

  private static List<Tag> tags(String key) {
    return proxy.s3().getObjectTagging(b -> b.bucket(BUCKET).key(key)).tagSet();
  }

  private static String query(int count, int keyChars, int valueChars) {
    return IntStream.range(0, count)
        .mapToObj(
            i -> (i + "k".repeat(keyChars)).substring(0, keyChars) + "=" + "v".repeat(valueChars))
        .collect(Collectors.joining("&"));
  }

  private static void assertAbsent(String key) {
    assertThat(
            S3FrontEnd.error(() -> proxy.s3().headObject(b -> b.bucket(BUCKET).key(key)))
                .statusCode())
        .isEqualTo(404);
  }

  @Test
  void putObject_withTagging_isReturnedByGetObjectTaggingAndCountedOnGetAndHead() throws Exception {
    putTagged("tagged", "team=storage&env=test%20run&empty=");

    assertThat(tags("tagged"))
        .containsExactlyInAnyOrder(
            tag("team", "storage"), tag("env", "test run"), tag("empty", ""));
    assertThat(proxy.s3().headObject(b -> b.bucket(BUCKET).key("tagged")).tagCount()).isEqualTo(3);
    assertThat(
            proxy.s3().getObjectAsBytes(b -> b.bucket(BUCKET).key("tagged")).response().tagCount())
        .isEqualTo(3);
    S3FrontEnd.Raw raw = proxy.send("GET", "/" + BUCKET + "/tagged", "tagging", Map.of(), null);
    assertThat(raw.status()).isEqualTo(200);
    assertThat(raw.text()).contains("<Tagging xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
  }

  @Test
  void getObjectTagging_whenUntagged_isAnEmptyTagSetAndNoCount() {
    proxy.put("plain", "plain");

    assertThat(tags("plain")).isEmpty();
    assertThat(proxy.s3().headObject(b -> b.bucket(BUCKET).key("plain")).tagCount()).isNull();
  }

  @Test
  void getObjectTagging_whenKeyMissing_isNoSuchKey() {
    S3Exception e = S3FrontEnd.error(() -> tags("nowhere"));
    assertThat(e.statusCode()).isEqualTo(404);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchKey");
  }

  @Test
  void putObject_atTheLimits_isStored() {
    putTagged("limits", query(10, 128, 256));
    assertThat(tags("limits"))
        .hasSize(10)
        .allMatch(t -> t.key().length() == 128 && t.value().length() == 256);
  }

  @Test
  void putObject_whenTaggingInvalid_isRefusedAndNothingStored() {
    Map<String, String> refusals =
        Map.of(
            query(11, 3, 1),
            "BadRequest",
            query(1, 129, 1),
            "InvalidTag",
            query(1, 3, 257),
            "InvalidTag",
            "a=1&a=2",
            "InvalidTag",
            "aws%3Atag=1",
            "InvalidTag",
            "=value",
            "InvalidTag",
            "bad=%zz",
            "InvalidArgument");
    int i = 0;
    for (Map.Entry<String, String> refusal : refusals.entrySet()) {
      String key = "refused-" + i++;
      S3Exception e = S3FrontEnd.error(() -> putTagged(key, refusal.getKey()));
      assertThat(e.statusCode()).as(refusal.getKey()).isEqualTo(400);
      assertThat(e.awsErrorDetails().errorCode())
          .as(refusal.getKey())
          .isEqualTo(refusal.getValue());
      assertAbsent(key);
    }
  }

  @Test
  void createMultipartUpload_withTagging_tagsTheCompletedObject() {
    String uploadId =
        proxy
            .s3()
            .createMultipartUpload(b -> b.bucket(BUCKET).key("multipart").tagging("part=of-it"))
            .uploadId();
    String etag =
        proxy
            .s3()
            .uploadPart(
                b -> b.bucket(BUCKET).key("multipart").uploadId(uploadId).partNumber(1),
                RequestBody.fromString("only part"))
            .eTag();
    proxy
        .s3()
        .completeMultipartUpload(
            b ->
                b.bucket(BUCKET)
                    .key("multipart")
                    .uploadId(uploadId)
                    .multipartUpload(
                        m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));

    assertThat(tags("multipart")).containsExactly(tag("part", "of-it"));
  }

  @Test
  void createMultipartUpload_whenTaggingInvalid_startsNoUpload() {
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .createMultipartUpload(
                        b -> b.bucket(BUCKET).key("multipart-bad").tagging(query(11, 2, 1))));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("BadRequest");
    assertThat(
            proxy
                .s3()
                .listMultipartUploads(b -> b.bucket(BUCKET).prefix("multipart-bad"))
                .uploads())
        .isEmpty();
  }

  @Test
  void copyObject_byDefault_copiesTheSourceTags() {
    putTagged("copy-source", "a=1&b=2");
    proxy
        .s3()
        .copyObject(
            b ->
                b.sourceBucket(BUCKET)
                    .sourceKey("copy-source")
                    .destinationBucket(BUCKET)
                    .destinationKey("copy-default"));
    assertThat(tags("copy-default")).containsExactlyInAnyOrder(tag("a", "1"), tag("b", "2"));
  }

  @Test
  void copyObject_withReplaceDirective_takesTheNewTagsAndKeepsTheMetadata() {
    proxy
        .s3()
        .putObject(
            b ->
                b.bucket(BUCKET)
                    .key("copy-meta")
                    .contentType("text/x-test")
                    .metadata(Map.of("color", "blue"))
                    .tagging("old=1"),
            RequestBody.fromString("meta"));
    proxy
        .s3()
        .copyObject(
            b ->
                b.sourceBucket(BUCKET)
                    .sourceKey("copy-meta")
                    .destinationBucket(BUCKET)
                    .destinationKey("copy-replaced")
                    .taggingDirective(TaggingDirective.REPLACE)
                    .tagging("new=2"));

    assertThat(tags("copy-replaced")).containsExactly(tag("new", "2"));
    var head = proxy.s3().headObject(b -> b.bucket(BUCKET).key("copy-replaced"));
    assertThat(head.contentType()).isEqualTo("text/x-test");
    assertThat(head.metadata()).containsEntry("color", "blue");
    assertThat(proxy.get("copy-replaced")).isEqualTo("meta");

    proxy
        .s3()
        .copyObject(
            b ->
                b.sourceBucket(BUCKET)
                    .sourceKey("copy-meta")
                    .destinationBucket(BUCKET)
                    .destinationKey("copy-untagged")
                    .taggingDirective(TaggingDirective.REPLACE));
    assertThat(tags("copy-untagged")).isEmpty();
  }

  @Test
  void copyObject_whenTaggingWithoutReplaceOrUnknownDirective_isInvalidArgument() throws Exception {
    putTagged("copy-src2", "a=1");
    for (Map<String, String> headers :
        List.of(
            Map.of("x-amz-copy-source", "/" + BUCKET + "/copy-src2", "x-amz-tagging", "b=2"),
            Map.of(
                "x-amz-copy-source",
                "/" + BUCKET + "/copy-src2",
                "x-amz-tagging-directive",
                "MERGE"))) {
      S3FrontEnd.Raw raw =
          proxy.send(
              "PUT", "/" + BUCKET + "/copy-dst2", "", headers, "".getBytes(StandardCharsets.UTF_8));
      assertThat(raw.status()).as(raw.text()).isEqualTo(400);
      assertThat(raw.code()).isEqualTo("InvalidArgument");
    }
    assertAbsent("copy-dst2");
  }

  @Test
  void putObjectTagging_replacesTheTagsUntilDeleteObjectTagging() {
    putTagged("later", "first=1");
    proxy
        .s3()
        .putObjectTagging(
            b -> b.bucket(BUCKET).key("later").tagging(t -> t.tagSet(tag("a", "1"), tag("b", ""))));

    assertThat(tags("later")).containsExactlyInAnyOrder(tag("a", "1"), tag("b", ""));
    assertThat(proxy.s3().headObject(b -> b.bucket(BUCKET).key("later")).tagCount()).isEqualTo(2);
    assertThat(proxy.get("later")).isEqualTo("later");

    proxy.s3().deleteObjectTagging(b -> b.bucket(BUCKET).key("later"));
    assertThat(tags("later")).isEmpty();
    assertThat(proxy.s3().headObject(b -> b.bucket(BUCKET).key("later")).tagCount()).isNull();
  }

  @Test
  void putObjectTagging_whenInvalid_isRefusedAndKeepsTheTags() throws Exception {
    putTagged("keep", "keep=me");
    Map<String, String> refusals =
        Map.of(
            "<Tagging><TagSet>"
                + "<Tag><Key>k</Key><Value>v</Value></Tag>".repeat(1)
                + IntStream.range(0, 10)
                    .mapToObj(i -> "<Tag><Key>k" + i + "</Key><Value>v</Value></Tag>")
                    .collect(Collectors.joining())
                + "</TagSet></Tagging>",
            "BadRequest",
            "<Tagging><TagSet><Tag><Key>"
                + "k".repeat(129)
                + "</Key><Value>v</Value></Tag>"
                + "</TagSet></Tagging>",
            "InvalidTag",
            "<Tagging><TagSet><Tag><Key>aws:k</Key><Value>v</Value></Tag></TagSet></Tagging>",
            "InvalidTag",
            "<Tagging><TagSet><Tag><Key>k</Key></Tag></TagSet></Tagging>",
            "MalformedXML",
            "not xml",
            "MalformedXML");
    for (Map.Entry<String, String> refusal : refusals.entrySet()) {
      S3FrontEnd.Raw raw =
          proxy.send(
              "PUT",
              "/" + BUCKET + "/keep",
              "tagging",
              Map.of(),
              refusal.getKey().getBytes(StandardCharsets.UTF_8));
      assertThat(raw.status()).as(refusal.getKey()).isEqualTo(400);
      assertThat(raw.code()).as(refusal.getKey()).isEqualTo(refusal.getValue());
    }
    assertThat(tags("keep")).containsExactly(tag("keep", "me"));
  }

  @Test
  void putObjectTagging_whenKeyMissing_isNoSuchKey() {
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .putObjectTagging(
                        b ->
                            b.bucket(BUCKET).key("missing").tagging(t -> t.tagSet(tag("a", "1")))));
    assertThat(e.statusCode()).isEqualTo(404);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchKey");
  }

  @Test
  void copyObject_afterPutObjectTagging_copiesTheTagsSetLater() {
    putTagged("retagged", "old=1");
    proxy
        .s3()
        .putObjectTagging(
            b -> b.bucket(BUCKET).key("retagged").tagging(t -> t.tagSet(tag("new", "2"))));
    proxy
        .s3()
        .copyObject(
            b ->
                b.sourceBucket(BUCKET)
                    .sourceKey("retagged")
                    .destinationBucket(BUCKET)
                    .destinationKey("retagged-copy"));

    assertThat(tags("retagged-copy")).containsExactly(tag("new", "2"));
    assertThat(proxy.get("retagged-copy")).isEqualTo("retagged");
  }

  @Test
  void putObjectTagging_withVersionId_tagsOnlyThatVersion() {
    String bucket = "object-tags-versioned";
    proxy.s3().createBucket(b -> b.bucket(bucket));
    proxy
        .s3()
        .putBucketVersioning(
            b -> b.bucket(bucket).versioningConfiguration(v -> v.status("Enabled")));
    String first =
        proxy
            .s3()
            .putObject(b -> b.bucket(bucket).key("k").tagging("v=1"), RequestBody.fromString("1"))
            .versionId();
    String second =
        proxy
            .s3()
            .putObject(b -> b.bucket(bucket).key("k").tagging("v=2"), RequestBody.fromString("2"))
            .versionId();

    var put =
        proxy
            .s3()
            .putObjectTagging(
                b ->
                    b.bucket(bucket)
                        .key("k")
                        .versionId(first)
                        .tagging(t -> t.tagSet(tag("v", "first"))));
    assertThat(put.versionId()).isEqualTo(first);

    assertThat(
            proxy.s3().getObjectTagging(b -> b.bucket(bucket).key("k").versionId(first)).tagSet())
        .containsExactly(tag("v", "first"));
    var current = proxy.s3().getObjectTagging(b -> b.bucket(bucket).key("k"));
    assertThat(current.tagSet()).containsExactly(tag("v", "2"));
    assertThat(
            proxy
                .s3()
                .getObjectTagging(b -> b.bucket(bucket).key("k").versionId(second))
                .versionId())
        .isEqualTo(second);

    String marker = proxy.s3().deleteObject(b -> b.bucket(bucket).key("k")).versionId();
    S3Exception e =
        S3FrontEnd.error(
            () -> proxy.s3().getObjectTagging(b -> b.bucket(bucket).key("k").versionId(marker)));
    assertThat(e.statusCode()).isEqualTo(405);
    S3Exception gone =
        S3FrontEnd.error(() -> proxy.s3().getObjectTagging(b -> b.bucket(bucket).key("k")));
    assertThat(gone.statusCode()).isEqualTo(404);
  }

  @Test
  void getObject_withTaggingHeader_isNotImplemented() throws Exception {
    proxy.put("get-tagged", "x");
    S3FrontEnd.Raw raw =
        proxy.send("GET", "/" + BUCKET + "/get-tagged", "", Map.of("x-amz-tagging", "a=1"), null);
    assertThat(raw.status()).isEqualTo(501);
    assertThat(raw.code()).isEqualTo("NotImplemented");
  }
}
