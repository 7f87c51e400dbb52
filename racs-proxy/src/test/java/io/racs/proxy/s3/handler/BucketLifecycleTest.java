package io.racs.proxy.s3.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.s3.model.ExpirationStatus;
import software.amazon.awssdk.services.s3.model.LifecycleRule;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Proves Put, Get and DeleteBucketLifecycleConfiguration through the S3 front end: a valid
 * configuration is stored and returned (404 NoSuchLifecycleConfiguration without one, and for a
 * bucket created again), invalid ones are refused with S3's error and change nothing, actions the
 * proxy does not carry out are NotImplemented. (That the rules are carried out is proven by
 * LifecycleScrubTest and LifecycleServerTest; a proxy with lifecycle turned off refuses them,
 * saying so, proven here too.)
 */
class BucketLifecycleTest {
  private static final AtomicInteger BUCKETS = new AtomicInteger();

  @RegisterExtension static final S3FrontEnd proxy = S3FrontEnd.withBucket("lc-home");

  @RegisterExtension
  static final S3FrontEnd lifecycleOff = S3FrontEnd.withBucket("lc-off").lifecycleOff();

  private static final LifecycleRule LOGS =
      LifecycleRule.builder()
          .id("logs")
          .filter(f -> f.prefix("logs/"))
          .status(ExpirationStatus.ENABLED)
          .expiration(e -> e.days(30))
          .abortIncompleteMultipartUpload(a -> a.daysAfterInitiation(7))
          .build();

  private static String newBucket() {
    String name = "lc-" + BUCKETS.incrementAndGet();
    proxy.s3().createBucket(b -> b.bucket(name));
    return name;
  }

  private static S3FrontEnd.Raw putLifecycle(S3FrontEnd to, String bucket, String xml)
      throws Exception {
    return to.send(
        "PUT", "/" + bucket, "lifecycle", Map.of(), xml.getBytes(StandardCharsets.UTF_8));
  }

  private static void assertNoConfiguration(String bucket) {
    S3Exception e =
        S3FrontEnd.error(() -> proxy.s3().getBucketLifecycleConfiguration(b -> b.bucket(bucket)));
    assertThat(e.statusCode()).isEqualTo(404);
    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("NoSuchLifecycleConfiguration");
  }

  @Test
  void putBucketLifecycle_whenValid_isReturnedByGetUntilDeleted() {
    String bucket = newBucket();
    proxy
        .s3()
        .putBucketLifecycleConfiguration(
            b -> b.bucket(bucket).lifecycleConfiguration(c -> c.rules(LOGS)));

    List<LifecycleRule> rules =
        proxy.s3().getBucketLifecycleConfiguration(b -> b.bucket(bucket)).rules();
    assertThat(rules).containsExactly(LOGS);

    proxy.s3().deleteBucketLifecycle(b -> b.bucket(bucket));
    assertNoConfiguration(bucket);
  }

  @Test
  void putBucketLifecycle_whenNoncurrentExpirationAndExpiredMarker_isReturnedByGet() {
    String bucket = newBucket();
    LifecycleRule noncurrent =
        LifecycleRule.builder()
            .id("old-versions")
            .filter(f -> f.prefix("docs/"))
            .status(ExpirationStatus.ENABLED)
            .noncurrentVersionExpiration(n -> n.noncurrentDays(30).newerNoncurrentVersions(2))
            .build();
    LifecycleRule markers =
        LifecycleRule.builder()
            .id("markers")
            .filter(f -> f.prefix(""))
            .status(ExpirationStatus.ENABLED)
            .expiration(e -> e.expiredObjectDeleteMarker(true))
            .build();
    proxy
        .s3()
        .putBucketLifecycleConfiguration(
            b -> b.bucket(bucket).lifecycleConfiguration(c -> c.rules(noncurrent, markers)));

    assertThat(proxy.s3().getBucketLifecycleConfiguration(b -> b.bucket(bucket)).rules())
        .containsExactly(noncurrent, markers);
  }

  /** The expiry date in an {@code x-amz-expiration} of rule {@code ruleId}; fails otherwise. */
  private static java.time.Instant expiryOf(String header, String ruleId) {
    assertThat(header).isNotNull();
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("expiry-date=\"([^\"]+)\", rule-id=\"([^\"]*)\"")
            .matcher(header);
    assertThat(m.matches()).as(header).isTrue();
    assertThat(m.group(2)).isEqualTo(ruleId);
    return java.time.ZonedDateTime.parse(
            m.group(1), java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
        .toInstant();
  }

  @Test
  void expirationHeader_whenARuleMatches_isOnPutGetHeadAndCompleteWithTheMidnightAfterItsDays() {
    String bucket = newBucket();
    proxy
        .s3()
        .putBucketLifecycleConfiguration(
            b -> b.bucket(bucket).lifecycleConfiguration(c -> c.rules(LOGS)));
    java.time.Instant before = java.time.Instant.now();

    String onPut =
        proxy
            .s3()
            .putObject(
                b -> b.bucket(bucket).key("logs/a"),
                software.amazon.awssdk.core.sync.RequestBody.fromString("a"))
            .expiration();
    java.time.Instant expiry = expiryOf(onPut, "logs");
    assertThat(expiry.atOffset(java.time.ZoneOffset.UTC).toLocalTime())
        .isEqualTo(java.time.LocalTime.MIDNIGHT);
    assertThat(expiry)
        .isAfter(before.plus(java.time.Duration.ofDays(30)))
        .isBefore(before.plus(java.time.Duration.ofDays(31)).plusSeconds(60));
    assertThat(
            expiryOf(
                proxy.s3().headObject(b -> b.bucket(bucket).key("logs/a")).expiration(), "logs"))
        .isEqualTo(expiry);
    assertThat(
            expiryOf(
                proxy.s3().getObject(b -> b.bucket(bucket).key("logs/a")).response().expiration(),
                "logs"))
        .isEqualTo(expiry);
    String other =
        proxy
            .s3()
            .putObject(
                b -> b.bucket(bucket).key("data/b"),
                software.amazon.awssdk.core.sync.RequestBody.fromString("b"))
            .expiration();
    assertThat(other).isNull();
    assertThat(proxy.s3().headObject(b -> b.bucket(bucket).key("data/b")).expiration()).isNull();
    String upload =
        proxy.s3().createMultipartUpload(b -> b.bucket(bucket).key("logs/mpu")).uploadId();
    String etag =
        proxy
            .s3()
            .uploadPart(
                b -> b.bucket(bucket).key("logs/mpu").uploadId(upload).partNumber(1),
                software.amazon.awssdk.core.sync.RequestBody.fromString("part"))
            .eTag();
    String onComplete =
        proxy
            .s3()
            .completeMultipartUpload(
                b ->
                    b.bucket(bucket)
                        .key("logs/mpu")
                        .uploadId(upload)
                        .multipartUpload(
                            m ->
                                m.parts(
                                    software.amazon.awssdk.services.s3.model.CompletedPart.builder()
                                        .partNumber(1)
                                        .eTag(etag)
                                        .build())))
            .expiration();
    assertThat(expiryOf(onComplete, "logs")).isAfterOrEqualTo(expiry);
  }

  @Test
  void putBucketLifecycle_whenRuleHasNoId_getReturnsItWithOne() {
    String bucket = newBucket();
    proxy
        .s3()
        .putBucketLifecycleConfiguration(
            b ->
                b.bucket(bucket)
                    .lifecycleConfiguration(c -> c.rules(LOGS.toBuilder().id(null).build())));

    LifecycleRule stored =
        proxy.s3().getBucketLifecycleConfiguration(b -> b.bucket(bucket)).rules().get(0);
    assertThat(stored.id()).isNotBlank();
    assertThat(stored.toBuilder().id("logs").build()).isEqualTo(LOGS);
  }

  @Test
  void getBucketLifecycle_whenNeverSetOrBucketCreatedAgain_isNoSuchLifecycleConfiguration() {
    String bucket = newBucket();
    assertNoConfiguration(bucket);
    proxy
        .s3()
        .putBucketLifecycleConfiguration(
            b -> b.bucket(bucket).lifecycleConfiguration(c -> c.rules(LOGS)));
    proxy.s3().deleteBucket(b -> b.bucket(bucket));
    proxy.s3().createBucket(b -> b.bucket(bucket));
    assertNoConfiguration(bucket);
  }

  @Test
  void putBucketLifecycle_whenInvalidOrUnsupported_isRefusedAndKeepsTheRules() throws Exception {
    String bucket = newBucket();
    proxy
        .s3()
        .putBucketLifecycleConfiguration(
            b -> b.bucket(bucket).lifecycleConfiguration(c -> c.rules(LOGS)));
    Map<String, String> refusals =
        Map.of(
            "<LifecycleConfiguration></LifecycleConfiguration>",
            "MalformedXML",
            "<LifecycleConfiguration><Rule><Prefix/><Status>Enabled</Status><Expiration><Days>0"
                + "</Days></Expiration></Rule></LifecycleConfiguration>",
            "InvalidArgument",
            "<LifecycleConfiguration><Rule><Prefix/><Status>Enabled</Status>"
                + "<Transition><Days>1</Days><StorageClass>GLACIER</StorageClass>"
                + "</Transition></Rule></LifecycleConfiguration>",
            "NotImplemented",
            "<LifecycleConfiguration><Rule><Prefix/><Status>Enabled</Status></Rule>"
                + "</LifecycleConfiguration>",
            "InvalidRequest");
    for (Map.Entry<String, String> refusal : refusals.entrySet()) {
      S3FrontEnd.Raw raw = putLifecycle(proxy, bucket, refusal.getKey());
      assertThat(raw.code()).as(refusal.getKey()).isEqualTo(refusal.getValue());
      assertThat(raw.status())
          .as(refusal.getKey())
          .isEqualTo(refusal.getValue().equals("NotImplemented") ? 501 : 400);
    }
    assertThat(proxy.s3().getBucketLifecycleConfiguration(b -> b.bucket(bucket)).rules())
        .containsExactly(LOGS);
  }

  @Test
  void putBucketLifecycle_whenLifecycleIsOff_isNotImplementedSayingHowAndStoresNothing()
      throws Exception {
    S3FrontEnd.Raw raw =
        putLifecycle(
            lifecycleOff,
            "lc-off",
            "<LifecycleConfiguration><Rule><Prefix/><Status>Enabled</Status><Expiration><Days>1"
                + "</Days></Expiration></Rule></LifecycleConfiguration>");
    assertThat(raw.status()).isEqualTo(501);
    assertThat(raw.code()).isEqualTo("NotImplemented");
    assertThat(new String(raw.body(), StandardCharsets.UTF_8))
        .contains("Lifecycle is turned off on this server")
        .contains("lifecycleInterval")
        .contains("To turn it on");
    S3FrontEnd.Raw get = lifecycleOff.send("GET", "/lc-off", "lifecycle", Map.of(), null);
    assertThat(get.status()).isEqualTo(404);
    assertThat(get.code()).isEqualTo("NoSuchLifecycleConfiguration");
  }
}
