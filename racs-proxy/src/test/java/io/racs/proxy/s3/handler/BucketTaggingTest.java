package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.Tag;

/**
 * Proves bucket tagging through the S3 front end: Put, Get and DeleteBucketTagging store, return
 * and remove a validated tag set; GetBucketTagging without one is 404 NoSuchTagSet; invalid sets
 * are refused with S3's error and change nothing; a bucket deleted and created again starts without
 * tags.
 */
class BucketTaggingTest {
  private static final AtomicInteger BUCKETS = new AtomicInteger();
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket("tagging-home");

  private static String newBucket() {
    String name = "btag-" + BUCKETS.incrementAndGet();
    proxy.s3().createBucket(b -> b.bucket(name));
    return name;
  }

  private static Tag tag(String key, String value) {
    return Tag.builder().key(key).value(value).build();
  }

  private static S3FrontEnd.Raw putTagging(String bucket, String xml) throws Exception {
    return proxy.send(
        "PUT", "/" + bucket, "tagging", Map.of(), xml.getBytes(StandardCharsets.UTF_8));
  }

  private static String tagsXml(int count, int keyChars, int valueChars) {
    StringBuilder b = new StringBuilder("<Tagging><TagSet>");
    for (int i = 0; i < count; i++) {
      String key = (i + "k".repeat(keyChars)).substring(0, keyChars);
      b.append("<Tag><Key>")
          .append(key)
          .append("</Key><Value>")
          .append("v".repeat(valueChars))
          .append("</Value></Tag>");
    }
    return b.append("</TagSet></Tagging>").toString();
  }

  @Test
  void putBucketTagging_whenValid_isReturnedByGetUntilDeleted() {
    String bucket = newBucket();
    proxy
        .s3()
        .putBucketTagging(
            b -> b.bucket(bucket).tagging(t -> t.tagSet(tag("team", "storage"), tag("env", ""))));

    assertThat(proxy.s3().getBucketTagging(b -> b.bucket(bucket)).tagSet())
        .containsExactlyInAnyOrder(tag("team", "storage"), tag("env", ""));

    proxy.s3().deleteBucketTagging(b -> b.bucket(bucket));
    S3Exception e = S3FrontEnd.error(() -> proxy.s3().getBucketTagging(b -> b.bucket(bucket)));
    assertThat(e.statusCode()).isEqualTo(404);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchTagSet");
  }

  @Test
  void putBucketTagging_whenPutAgain_replacesTheWholeSet() {
    String bucket = newBucket();
    proxy.s3().putBucketTagging(b -> b.bucket(bucket).tagging(t -> t.tagSet(tag("a", "1"))));
    proxy.s3().putBucketTagging(b -> b.bucket(bucket).tagging(t -> t.tagSet(tag("b", "2"))));

    assertThat(proxy.s3().getBucketTagging(b -> b.bucket(bucket)).tagSet())
        .containsExactly(tag("b", "2"));
  }

  @Test
  void getBucketTagging_whenNeverSet_isNoSuchTagSet() throws Exception {
    S3FrontEnd.Raw raw = proxy.send("GET", "/" + newBucket(), "tagging", Map.of(), null);
    assertThat(raw.status()).isEqualTo(404);
    assertThat(raw.code()).isEqualTo("NoSuchTagSet");
  }

  @Test
  void putBucketTagging_whenBucketMissing_isNoSuchBucket() {
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .putBucketTagging(
                        b -> b.bucket("btag-nowhere").tagging(t -> t.tagSet(tag("a", "1")))));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchBucket");
  }

  @Test
  void putBucketTagging_whenInvalid_isRefusedAndKeepsTheTags() throws Exception {
    String bucket = newBucket();
    proxy.s3().putBucketTagging(b -> b.bucket(bucket).tagging(t -> t.tagSet(tag("keep", "me"))));
    Map<String, String> refusals =
        Map.of(
            tagsXml(51, 3, 1),
            "BadRequest",
            tagsXml(1, 129, 1),
            "InvalidTag",
            tagsXml(1, 3, 257),
            "InvalidTag",
            "<Tagging><TagSet><Tag><Key>a</Key><Value>1</Value></Tag>"
                + "<Tag><Key>a</Key><Value>2</Value></Tag></TagSet></Tagging>",
            "InvalidTag",
            "<Tagging><TagSet><Tag><Key>aws:x</Key><Value>1</Value></Tag></TagSet></Tagging>",
            "InvalidTag",
            "<Tagging><TagSet><Tag><Key></Key><Value>1</Value></Tag></TagSet></Tagging>",
            "InvalidTag",
            "<Tagging><TagSet><Tag><Key>a</Key></Tag></TagSet></Tagging>",
            "MalformedXML",
            "<Tagging></Tagging>",
            "MalformedXML",
            "<Tagging><TagSet>",
            "MalformedXML");
    for (Map.Entry<String, String> refusal : refusals.entrySet()) {
      S3FrontEnd.Raw raw = putTagging(bucket, refusal.getKey());
      assertThat(raw.status()).as(refusal.getKey()).isEqualTo(400);
      assertThat(raw.code()).as(refusal.getKey()).isEqualTo(refusal.getValue());
    }
    assertThat(proxy.s3().getBucketTagging(b -> b.bucket(bucket)).tagSet())
        .containsExactly(tag("keep", "me"));

    assertThat(putTagging(bucket, tagsXml(50, 128, 256)).status()).isEqualTo(204);
    assertThat(proxy.s3().getBucketTagging(b -> b.bucket(bucket)).tagSet())
        .hasSize(50)
        .allMatch(t -> t.key().length() == 128 && t.value().length() == 256);
  }

  @Test
  void createBucket_afterDeleteWithTags_startsWithoutTags() {
    String bucket = newBucket();
    proxy.s3().putBucketTagging(b -> b.bucket(bucket).tagging(t -> t.tagSet(tag("old", "1"))));
    proxy.s3().deleteBucket(b -> b.bucket(bucket));
    proxy.s3().createBucket(b -> b.bucket(bucket));

    S3Exception e = S3FrontEnd.error(() -> proxy.s3().getBucketTagging(b -> b.bucket(bucket)));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchTagSet");
  }

  @Test
  void putBucketTagging_withUnicodeKeys_roundTrips() {
    String bucket = newBucket();
    Tag[] tags =
        IntStream.range(0, 3)
            .mapToObj(i -> tag("ключ-" + i + " +=&", "wert " + i))
            .toArray(Tag[]::new);
    proxy.s3().putBucketTagging(b -> b.bucket(bucket).tagging(t -> t.tagSet(tags)));
    assertThat(proxy.s3().getBucketTagging(b -> b.bucket(bucket)).tagSet())
        .containsExactlyInAnyOrder(tags);
  }
}
