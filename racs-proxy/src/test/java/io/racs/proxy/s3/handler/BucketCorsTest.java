package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves bucket CORS through the S3 front end: Put, Get and DeleteBucketCors store, return and
 * remove a validated configuration (invalid ones are refused and change nothing); an unsigned
 * {@code OPTIONS} preflight is answered from the first matching rule, and with 403 CORSResponse
 * when none matches, the bucket has no configuration or does not exist; signed requests that carry
 * an {@code Origin} get the matching rule's headers.
 */
class BucketCorsTest {
  private static final String BUCKET = "cors-home";
  private static final AtomicInteger BUCKETS = new AtomicInteger();
  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket(BUCKET);

  private static final CORSRule APP =
      CORSRule.builder()
          .id("app")
          .allowedOrigins("https://*.example.com")
          .allowedMethods("GET", "PUT")
          .allowedHeaders("x-amz-*", "Content-Type")
          .exposeHeaders("ETag", "x-amz-request-id")
          .maxAgeSeconds(600)
          .build();
  private static final CORSRule ANYONE =
      CORSRule.builder().allowedOrigins("*").allowedMethods("HEAD").build();

  private static String newBucket() {
    String name = "cors-" + BUCKETS.incrementAndGet();
    proxy.s3().createBucket(b -> b.bucket(name));
    return name;
  }

  private static String withRules(CORSRule... rules) {
    String bucket = newBucket();
    proxy.s3().putBucketCors(b -> b.bucket(bucket).corsConfiguration(c -> c.corsRules(rules)));
    return bucket;
  }

  private static S3FrontEnd.Raw putCors(String bucket, String xml) throws Exception {
    return proxy.send("PUT", "/" + bucket, "cors", Map.of(), xml.getBytes(StandardCharsets.UTF_8));
  }

  private static S3FrontEnd.Raw preflight(String path, Map<String, String> headers)
      throws Exception {
    return proxy.sendUnsigned("OPTIONS", path, headers, null);
  }

  private static Map<String, String> ask(String origin, String method, String headers) {
    return headers == null
        ? Map.of("Origin", origin, "Access-Control-Request-Method", method)
        : Map.of(
            "Origin",
            origin,
            "Access-Control-Request-Method",
            method,
            "Access-Control-Request-Headers",
            headers);
  }

  private static void assertRefused(S3FrontEnd.Raw raw) {
    assertThat(raw.status()).as(raw.text()).isEqualTo(403);
    assertThat(raw.code()).isEqualTo("CORSResponse");
    assertThat(raw.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
  }

  @Test
  void putBucketCors_whenValid_isReturnedByGetUntilDeleted() {
    String bucket = withRules(APP, ANYONE);

    List<CORSRule> rules = proxy.s3().getBucketCors(b -> b.bucket(bucket)).corsRules();
    assertThat(rules).containsExactly(APP, ANYONE);

    proxy.s3().deleteBucketCors(b -> b.bucket(bucket));
    S3Exception e = S3FrontEnd.error(() -> proxy.s3().getBucketCors(b -> b.bucket(bucket)));
    assertThat(e.statusCode()).isEqualTo(404);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchCORSConfiguration");
  }

  @Test
  void getBucketCors_whenNeverSet_isNoSuchCorsConfiguration() {
    S3Exception e = S3FrontEnd.error(() -> proxy.s3().getBucketCors(b -> b.bucket(BUCKET)));
    assertThat(e.statusCode()).isEqualTo(404);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchCORSConfiguration");
  }

  @Test
  void putBucketCors_whenBucketMissing_isNoSuchBucket() {
    S3Exception e =
        S3FrontEnd.error(
            () ->
                proxy
                    .s3()
                    .putBucketCors(
                        b -> b.bucket("cors-nowhere").corsConfiguration(c -> c.corsRules(APP))));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchBucket");
  }

  @Test
  void putBucketCors_whenInvalid_isRefusedAndKeepsTheConfiguration() throws Exception {
    String bucket = withRules(ANYONE);
    String rule =
        "<CORSRule><AllowedOrigin>https://a.example</AllowedOrigin>"
            + "<AllowedMethod>GET</AllowedMethod></CORSRule>";
    Map<String, String> refusals =
        Map.of(
            "<CORSConfiguration></CORSConfiguration>",
            "MalformedXML",
            "<CORSConfiguration><CORSRule><AllowedMethod>GET</AllowedMethod></CORSRule>"
                + "</CORSConfiguration>",
            "MalformedXML",
            "<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin></CORSRule>"
                + "</CORSConfiguration>",
            "MalformedXML",
            "<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin>"
                + "<AllowedMethod>PATCH</AllowedMethod></CORSRule></CORSConfiguration>",
            "InvalidRequest",
            "<CORSConfiguration><CORSRule><AllowedOrigin>https://*.*.example</AllowedOrigin>"
                + "<AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>",
            "InvalidRequest",
            "<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin>"
                + "<AllowedMethod>GET</AllowedMethod><AllowedHeader>*-*</AllowedHeader>"
                + "</CORSRule></CORSConfiguration>",
            "InvalidRequest",
            "<CORSConfiguration>" + rule.repeat(101) + "</CORSConfiguration>",
            "MalformedXML",
            "<CORSConfiguration><CORSRule>",
            "MalformedXML");
    for (Map.Entry<String, String> refusal : refusals.entrySet()) {
      S3FrontEnd.Raw raw = putCors(bucket, refusal.getKey());
      assertThat(raw.status()).as(refusal.getKey()).isEqualTo(400);
      assertThat(raw.code()).as(refusal.getKey()).isEqualTo(refusal.getValue());
    }
    assertThat(
            putCors(bucket, "<CORSConfiguration>" + rule.repeat(100) + "</CORSConfiguration>")
                .status())
        .isEqualTo(200);
    assertThat(proxy.s3().getBucketCors(b -> b.bucket(bucket)).corsRules()).hasSize(100);
  }

  @Test
  void corsSubResource_whenOnAnObject_isNotImplemented() throws Exception {
    S3FrontEnd.Raw raw = proxy.send("GET", "/" + BUCKET + "/key", "cors", Map.of(), null);
    assertThat(raw.status()).isEqualTo(501);
  }

  @Test
  void bucketCors_whenBucketDeletedAndCreatedAgain_isGone() {
    String bucket = withRules(ANYONE);
    proxy.s3().deleteBucket(b -> b.bucket(bucket));
    proxy.s3().createBucket(b -> b.bucket(bucket));
    S3Exception e = S3FrontEnd.error(() -> proxy.s3().getBucketCors(b -> b.bucket(bucket)));
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchCORSConfiguration");
  }

  @Test
  void preflight_whenRuleMatches_answersItsHeadersWithoutSignature() throws Exception {
    String bucket = withRules(ANYONE, APP);
    S3FrontEnd.Raw raw =
        preflight(
            "/" + bucket + "/some/key",
            ask("https://app.example.com", "PUT", "X-Amz-Date, content-type"));

    assertThat(raw.status()).isEqualTo(200);
    assertThat(raw.headers().firstValue("Access-Control-Allow-Origin"))
        .hasValue("https://app.example.com");
    assertThat(raw.headers().firstValue("Access-Control-Allow-Methods")).hasValue("GET, PUT");
    assertThat(raw.headers().firstValue("Access-Control-Allow-Headers"))
        .hasValue("X-Amz-Date, content-type");
    assertThat(raw.headers().firstValue("Access-Control-Max-Age")).hasValue("600");
    assertThat(raw.headers().firstValue("Access-Control-Expose-Headers"))
        .hasValue("ETag, x-amz-request-id");
    assertThat(raw.headers().firstValue("Vary").orElse("")).contains("Origin");
  }

  @Test
  void preflight_whenRuleAllowsAnyOrigin_answersWildcard() throws Exception {
    String bucket = withRules(APP, ANYONE);
    S3FrontEnd.Raw raw = preflight("/" + bucket, ask("http://elsewhere.test", "HEAD", null));
    assertThat(raw.status()).isEqualTo(200);
    assertThat(raw.headers().firstValue("Access-Control-Allow-Origin")).hasValue("*");
    assertThat(raw.headers().firstValue("Access-Control-Allow-Methods")).hasValue("HEAD");
  }

  @Test
  void preflight_whenNoRuleMatches_isCorsResponse403() throws Exception {
    String bucket = withRules(APP);
    String path = "/" + bucket + "/k";
    assertRefused(preflight(path, ask("https://example.com", "GET", null))); // origin
    assertRefused(preflight(path, ask("https://app.example.com", "DELETE", null))); // method
    assertRefused(preflight(path, ask("https://app.example.com", "GET", "authorization")));
  }

  @Test
  void preflight_whenBucketHasNoConfigurationOrDoesNotExist_isCorsResponse403() throws Exception {
    assertRefused(preflight("/" + BUCKET + "/k", ask("https://a.test", "GET", null)));
    assertRefused(preflight("/cors-nowhere/k", ask("https://a.test", "GET", null)));
  }

  @Test
  void preflight_whenOriginOrMethodMissing_is400() throws Exception {
    String bucket = withRules(ANYONE);
    assertThat(
            preflight("/" + bucket + "/k", Map.of("Access-Control-Request-Method", "GET")).status())
        .isEqualTo(400);
    assertThat(preflight("/" + bucket + "/k", Map.of("Origin", "https://a.test")).status())
        .isEqualTo(400);
  }

  @Test
  void actualRequest_whenOriginMatches_getsAllowOriginAndVary() throws Exception {
    String bucket = withRules(APP);
    proxy
        .s3()
        .putObject(
            b -> b.bucket(bucket).key("k"),
            software.amazon.awssdk.core.sync.RequestBody.fromString("v"));

    S3FrontEnd.Raw allowed =
        proxy.send("GET", "/" + bucket + "/k", "", Map.of("Origin", "https://x.example.com"), null);
    assertThat(allowed.status()).isEqualTo(200);
    assertThat(allowed.headers().firstValue("Access-Control-Allow-Origin"))
        .hasValue("https://x.example.com");
    assertThat(allowed.headers().firstValue("Access-Control-Expose-Headers"))
        .hasValue("ETag, x-amz-request-id");
    assertThat(allowed.headers().firstValue("Vary").orElse("")).contains("Origin");

    List<S3FrontEnd.Raw> without = new ArrayList<>();
    without.add(proxy.send("GET", "/" + bucket + "/k", "", Map.of(), null));
    without.add(
        proxy.send("GET", "/" + bucket + "/k", "", Map.of("Origin", "https://evil.test"), null));
    without.add(
        proxy.send(
            "DELETE", "/" + bucket + "/gone", "", Map.of("Origin", "https://x.example.com"), null));
    for (S3FrontEnd.Raw raw : without) {
      assertThat(raw.status()).isBetween(200, 204);
      assertThat(raw.headers().firstValue("Access-Control-Allow-Origin")).isEmpty();
    }
  }

  @Test
  void unsignedRequest_otherThanPreflight_isStillRefused() throws Exception {
    String bucket = withRules(ANYONE);
    S3FrontEnd.Raw raw =
        proxy.sendUnsigned("GET", "/" + bucket + "?cors", Map.of("Origin", "https://a.test"), null);
    assertThat(raw.status()).isEqualTo(403);
    assertThat(raw.code()).isEqualTo("AccessDenied");
  }
}
