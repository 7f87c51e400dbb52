package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Proves details of conditional reads and listings that clients rely on: a 304 carries the ETag and
 * Last-Modified of the object (as S3 sends them and RFC 9110 asks); {@code max-keys=0} lists
 * nothing and is not truncated; an empty delimiter is not echoed; and {@code encoding-type=url}
 * encodes every key-shaped element S3 encodes (keys, common prefixes, prefix, delimiter, markers,
 * start-after), a space as {@code +} as Amazon S3 and MinIO write it (the ceph s3-tests expect
 * {@code %20}, which both botocore and the Java SDK decode the same way).
 */
class ListingAndNotModifiedTest {
  private static final String BUCKET = "listing";
  private static final List<String> KEYS =
      List.of("asdf+b", "foo+1/bar", "foo/bar/xyzzy", "quux ab/thud");
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET);

  private static String etag;
  private static String lastModified;

  @BeforeAll
  static void store() throws Exception {
    for (String key : KEYS) {
      proxy.s3().putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString(key));
    }
    proxy
        .s3()
        .putObject(
            b -> b.bucket(BUCKET).key("cached").cacheControl("max-age=60"),
            RequestBody.fromString("cached"));
    S3FrontEnd.Raw head = proxy.send("HEAD", "/" + BUCKET + "/cached", "", Map.of(), null);
    etag = head.headers().firstValue("etag").orElseThrow();
    lastModified = head.headers().firstValue("last-modified").orElseThrow();
  }

  private static List<String> all(String xml, String element) {
    Matcher m = Pattern.compile("<" + element + ">([^<]*)</" + element + ">").matcher(xml);
    List<String> values = new java.util.ArrayList<>();
    while (m.find()) {
      values.add(m.group(1));
    }
    return values;
  }

  private static void assertNotModified(S3FrontEnd.Raw raw) {
    assertThat(raw.status()).isEqualTo(304);
    assertThat(raw.all("etag")).containsExactly(etag);
    assertThat(raw.all("last-modified")).containsExactly(lastModified);
    assertThat(raw.all("cache-control")).containsExactly("max-age=60");
    assertThat(raw.body()).isEmpty();
  }

  @Test
  void getObject_whenIfNoneMatchMatches_notModifiedWithValidators() throws Exception {
    assertNotModified(
        proxy.send("GET", "/" + BUCKET + "/cached", "", Map.of("If-None-Match", etag), null));
  }

  @Test
  void headObject_whenNotModifiedSince_notModifiedWithValidators() throws Exception {
    assertNotModified(
        proxy.send(
            "HEAD", "/" + BUCKET + "/cached", "", Map.of("If-Modified-Since", lastModified), null));
  }

  @Test
  void getObject_rangedWhenIfNoneMatchMatches_notModifiedWithValidators() throws Exception {
    assertNotModified(
        proxy.send(
            "GET",
            "/" + BUCKET + "/cached",
            "",
            Map.of("If-None-Match", etag, "Range", "bytes=0-1"),
            null));
  }

  @Test
  void listObjects_whenMaxKeysZero_emptyAndNotTruncated() throws Exception {
    for (String query : List.of("max-keys=0", "list-type=2&max-keys=0")) {
      String xml = proxy.send("GET", "/" + BUCKET, query, Map.of(), null).text();
      assertThat(all(xml, "IsTruncated")).as(query).containsExactly("false");
      assertThat(all(xml, "Key")).as(query).isEmpty();
    }
  }

  @Test
  void listObjects_whenDelimiterEmpty_notEchoedAndNotApplied() throws Exception {
    for (String query : List.of("delimiter=", "list-type=2&delimiter=")) {
      String xml = proxy.send("GET", "/" + BUCKET, query, Map.of(), null).text();
      assertThat(xml).as(query).doesNotContain("<Delimiter");
      assertThat(all(xml, "Key")).as(query).hasSize(KEYS.size() + 1);
    }
  }

  @Test
  void listObjectsV1_withUrlEncoding_encodesKeysPrefixesAndMarkers() throws Exception {
    String xml =
        proxy
            .send(
                "GET",
                "/" + BUCKET,
                "delimiter=/&encoding-type=url&prefix=&marker=asdf+a&max-keys=3",
                Map.of(),
                null)
            .text();
    assertThat(all(xml, "Key")).containsExactly("asdf%2Bb", "cached");
    assertThat(all(xml, "Prefix")).containsExactly("", "foo%2B1/");
    assertThat(all(xml, "Marker")).containsExactly("asdf%2Ba");
    assertThat(all(xml, "NextMarker")).containsExactly("foo%2B1/");
    assertThat(all(xml, "Delimiter")).containsExactly("/");
  }

  @Test
  void listObjectsV2_withUrlEncoding_encodesKeysPrefixesAndStartAfter() throws Exception {
    String xml =
        proxy
            .send(
                "GET",
                "/" + BUCKET,
                "list-type=2&delimiter=/&encoding-type=url&start-after=asdf+a",
                Map.of(),
                null)
            .text();
    assertThat(all(xml, "Key")).containsExactly("asdf%2Bb", "cached");
    assertThat(all(xml, "Prefix")).containsExactly("", "foo%2B1/", "foo/", "quux+ab/");
    assertThat(all(xml, "StartAfter")).containsExactly("asdf%2Ba");
  }

  @Test
  void listObjectsV2_withUrlEncodingAndPrefix_encodesThePrefixEverywhere() throws Exception {
    String xml =
        proxy
            .send(
                "GET",
                "/" + BUCKET,
                "list-type=2&delimiter=/&encoding-type=url&prefix=quux ",
                Map.of(),
                null)
            .text();
    assertThat(all(xml, "Prefix")).containsExactly("quux+", "quux+ab/");
  }
}
