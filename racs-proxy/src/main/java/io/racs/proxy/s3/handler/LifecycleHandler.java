package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.lifecycle.LifecycleConfiguration;
import io.racs.proxy.s3.lifecycle.LifecycleRule;
import io.racs.proxy.s3.xml.S3XmlRequests;
import io.racs.proxy.s3.xml.S3XmlResponses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

/**
 * The lifecycle family: Put, Get and DeleteBucketLifecycleConfiguration. The rules are carried out
 * by the background scrub; when it is off, a configuration would be stored and never applied, so
 * PutBucketLifecycleConfiguration is refused ({@code NotImplemented}) before anything is read.
 *
 * <p>The configuration is stored as the document {@link S3XmlResponses#lifecycleConfiguration}
 * renders from the validated rules, so what GetBucketLifecycleConfiguration returns is what was
 * checked.
 */
final class LifecycleHandler {
  private final StoreBridge store;
  private final boolean applied;

  LifecycleHandler(StoreBridge store, boolean applied) {
    this.store = store;
    this.applied = applied;
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case PUT_BUCKET_LIFECYCLE -> put(request);
      case GET_BUCKET_LIFECYCLE -> get(request);
      case DELETE_BUCKET_LIFECYCLE -> {
        store.deleteBucketLifecycle(request.bucket());
        yield S3Response.status(204);
      }
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  private S3Response put(S3Request request) throws IOException {
    if (!applied) {
      throw S3Exception.of(
          S3ErrorCode.NOT_IMPLEMENTED,
          "Lifecycle rules are carried out by the background scrub, which is off (scrubInterval).");
    }
    LifecycleConfiguration given =
        S3XmlRequests.lifecycleConfiguration(ObjectHandler.readXml(request));
    byte[] document =
        S3XmlResponses.lifecycleConfiguration(
            new LifecycleConfiguration(
                given.rules().stream().map(LifecycleHandler::named).toList()));
    store.putBucketLifecycle(request.bucket(), new String(document, StandardCharsets.UTF_8));
    return S3Response.status(200);
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
            .bucketLifecycle(request.bucket())
            .orElseThrow(
                () ->
                    S3Exception.of(S3ErrorCode.NO_SUCH_LIFECYCLE_CONFIGURATION)
                        .withDetail("BucketName", request.bucket())
                        .withResource("/" + request.bucket()));
    return S3Response.xml(document.getBytes(StandardCharsets.UTF_8));
  }
}
