package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.bridge.BucketDocument;
import io.racs.proxy.s3.bridge.ObjectVersion;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.lifecycle.LifecycleConfiguration;
import io.racs.proxy.s3.lifecycle.LifecycleConfigurationRequest;
import io.racs.proxy.s3.lifecycle.LifecycleRule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lifecycle family: Put, Get and DeleteBucketLifecycleConfiguration. The rules are carried out
 * by the lifecycle scan, which runs by default; when an operator turned it off, a configuration
 * would be stored and never applied, so PutBucketLifecycleConfiguration is refused ({@code
 * NotImplemented}, saying so and how to turn it on) once the configuration has been validated.
 *
 * <p>The configuration is stored as the document {@link LifecycleConfiguration#toXml} renders from
 * the validated rules, so what GetBucketLifecycleConfiguration returns is what was checked.
 */
final class LifecycleHandler {
  private static final Logger LOG = LoggerFactory.getLogger(LifecycleHandler.class);
  private static final long CACHE_NANOS = 1_000_000_000L;

  /** Why a configuration is refused when the lifecycle scan is off, and how to turn it on. */
  static final String TURNED_OFF =
      "Lifecycle is turned off on this server (lifecycleInterval: 0s in the server section of its"
          + " configuration file), so lifecycle rules would never be carried out. To turn it on,"
          + " remove that setting (the default runs the lifecycle scan every hour) or set it to a"
          + " duration such as 1h, and restart the server.";

  private record Cached(Optional<LifecycleConfiguration> rules, long readAtNanos) {}

  private final StoreBridge store;
  private final boolean applied;
  // Each bucket's rules as last read, for x-amz-expiration: read at most once a second per bucket
  // (a listing on a read quorum), and at once after a change through this proxy.
  private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();

  LifecycleHandler(StoreBridge store, boolean applied) {
    this.store = store;
    this.applied = applied;
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case PUT_BUCKET_LIFECYCLE -> put(request);
      case GET_BUCKET_LIFECYCLE -> get(request);
      case DELETE_BUCKET_LIFECYCLE -> {
        store.deleteBucketDocument(request.bucket(), BucketDocument.LIFECYCLE);
        cache.remove(request.bucket());
        yield S3Response.status(204);
      }
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  private S3Response put(S3Request request) throws IOException {
    // Checked first: a malformed configuration is S3's 400 whether or not it would be carried out.
    LifecycleConfiguration given =
        LifecycleConfigurationRequest.parse(ObjectHandler.readXml(request));
    if (!applied) {
      throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED, TURNED_OFF);
    }
    byte[] document =
        new LifecycleConfiguration(given.rules().stream().map(LifecycleHandler::named).toList())
            .toXml();
    store.putBucketDocument(
        request.bucket(), BucketDocument.LIFECYCLE, new String(document, StandardCharsets.UTF_8));
    cache.remove(request.bucket());
    return S3Response.status(200);
  }

  /**
   * Adds {@code x-amz-expiration} to the answer of a PUT, GET or HEAD of {@code version}, the
   * current version of its key, when an enabled {@code Expiration} rule of its bucket applies: the
   * earliest expiry and its rule's id, as S3 sends it ({@code expiry-date="Fri, 23 Dec 2012
   * 00:00:00 GMT", rule-id="rule"}). The header only informs: when the rules cannot be read just
   * now it is left out rather than fail a request that has done its work.
   */
  void expirationHeader(S3Response response, String bucket, ObjectVersion version) {
    if (version.deleteMarker()) {
      return;
    }
    Optional<LifecycleConfiguration> rules;
    try {
      rules = rules(bucket);
    } catch (RuntimeException e) {
      LOG.debug("lifecycle rules of {} unknown: {}", bucket, e.toString());
      return;
    }
    rules
        .flatMap(
            r ->
                r.expiry(
                    version.key(), version.sizeBytes(), version.lastModified(), version.tags()))
        .ifPresent(
            expiry ->
                response.header(
                    "x-amz-expiration",
                    "expiry-date=\""
                        + Responses.httpDate(expiry.at())
                        + "\", rule-id=\""
                        + (expiry.ruleId() == null ? "" : expiry.ruleId())
                        + "\""));
  }

  private Optional<LifecycleConfiguration> rules(String bucket) {
    long now = System.nanoTime();
    Cached cached = cache.get(bucket);
    if (cached != null && now - cached.readAtNanos() < CACHE_NANOS) {
      return cached.rules();
    }
    Optional<LifecycleConfiguration> rules =
        store
            .bucketDocument(bucket, BucketDocument.LIFECYCLE)
            .map(d -> LifecycleConfigurationRequest.parse(d.getBytes(StandardCharsets.UTF_8)));
    if (cache.size() > 10_000) {
      cache.clear(); // buckets are few; this only bounds a pathological churn
    }
    cache.put(bucket, new Cached(rules, now));
    return rules;
  }

  /**
   * The rule with an id: S3 gives a rule stored without one a random id, which
   * GetBucketLifecycleConfiguration returns.
   */
  private static LifecycleRule named(LifecycleRule rule) {
    if (rule.id() != null && !rule.id().isEmpty()) {
      return rule;
    }
    String id =
        Base64.getEncoder()
            .withoutPadding()
            .encodeToString(UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII));
    return new LifecycleRule(
        id,
        rule.enabled(),
        rule.filter(),
        rule.expirationDays(),
        rule.expirationDate(),
        rule.expiredObjectDeleteMarker(),
        rule.abortIncompleteUploadDays(),
        rule.noncurrentDays(),
        rule.newerNoncurrentVersions());
  }

  private S3Response get(S3Request request) {
    String document =
        store
            .bucketDocument(request.bucket(), BucketDocument.LIFECYCLE)
            .orElseThrow(
                () ->
                    S3Exception.of(S3ErrorCode.NO_SUCH_LIFECYCLE_CONFIGURATION)
                        .withDetail("BucketName", request.bucket())
                        .withResource("/" + request.bucket()));
    return S3Response.xml(document.getBytes(StandardCharsets.UTF_8));
  }
}
