package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * Proves that the {@code response-*} query parameters of GetObject and HeadObject replace the
 * header they name, whether the object has a value of its own or not, so the answer carries exactly
 * one value: the one asked for.
 */
class ResponseOverridesTest {
  private static final String BUCKET = "overrides";
  private static final String QUERY =
      "response-content-type=foo/bar"
          + "&response-content-language=fr"
          + "&response-expires=Thu, 01 Jan 2032 00:00:00 GMT"
          + "&response-cache-control=no-cache"
          + "&response-content-disposition=inline"
          + "&response-content-encoding=br";
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET);

  @BeforeAll
  static void store() throws Exception {
    proxy.s3().putObject(b -> b.bucket(BUCKET).key("plain"), RequestBody.fromString("plain"));
    proxy
        .s3()
        .putObject(
            b ->
                b.bucket(BUCKET)
                    .key("dressed")
                    .contentType("text/plain")
                    .contentLanguage("de")
                    .cacheControl("max-age=60")
                    .contentDisposition("attachment")
                    .contentEncoding("identity")
                    .expires(java.time.Instant.parse("2030-01-01T00:00:00Z")),
            RequestBody.fromString("dressed"));
  }

  private static void assertOverridden(S3FrontEnd.Raw raw) {
    assertThat(raw.status()).isEqualTo(200);
    assertThat(raw.all("content-type")).containsExactly("foo/bar");
    assertThat(raw.all("content-language")).containsExactly("fr");
    assertThat(raw.all("expires")).containsExactly("Thu, 01 Jan 2032 00:00:00 GMT");
    assertThat(raw.all("cache-control")).containsExactly("no-cache");
    assertThat(raw.all("content-disposition")).containsExactly("inline");
    assertThat(raw.all("content-encoding")).containsExactly("br");
  }

  @Test
  void getObject_withResponseOverrides_replacesTheDefaultContentType() throws Exception {
    S3FrontEnd.Raw raw = proxy.send("GET", "/" + BUCKET + "/plain", QUERY, Map.of(), null);
    assertOverridden(raw);
    assertThat(raw.text()).isEqualTo("plain");
  }

  @Test
  void getObject_withResponseOverrides_replacesStoredHeaders() throws Exception {
    assertOverridden(proxy.send("GET", "/" + BUCKET + "/dressed", QUERY, Map.of(), null));
  }

  @Test
  void getObject_rangedWithResponseOverrides_replacesStoredHeaders() throws Exception {
    S3FrontEnd.Raw raw =
        proxy.send("GET", "/" + BUCKET + "/dressed", QUERY, Map.of("Range", "bytes=0-2"), null);
    assertThat(raw.status()).isEqualTo(206);
    assertThat(raw.all("content-type")).containsExactly("foo/bar");
    assertThat(raw.all("cache-control")).containsExactly("no-cache");
  }

  @Test
  void headObject_withResponseOverrides_replacesStoredHeaders() throws Exception {
    assertOverridden(proxy.send("HEAD", "/" + BUCKET + "/dressed", QUERY, Map.of(), null));
  }
}
