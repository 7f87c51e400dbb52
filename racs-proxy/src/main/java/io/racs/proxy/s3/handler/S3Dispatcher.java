package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.auth.S3Authenticator;
import io.racs.proxy.s3.authz.Access;
import io.racs.proxy.s3.authz.Administrators;
import io.racs.proxy.s3.authz.Authorizer;
import io.racs.proxy.s3.authz.BucketPolicyCache;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.policy.Principals;
import io.racs.proxy.s3.route.S3Operation;
import java.io.IOException;
import java.time.Clock;

/**
 * Sends each request to the handler of its operation's family (bucket, listing, object, multipart,
 * ACL, CORS, tagging, form upload, bucket policy) once the one decision point ({@link Authorizer})
 * allowed it; the handlers reach the store only through the {@link StoreBridge}.
 */
public final class S3Dispatcher {
  private final BucketHandler buckets;
  private final ListingHandler listings;
  private final ObjectHandler objects;
  private final MultipartHandler multipart;
  private final AclHandler acls;
  private final CorsHandler cors;
  private final TaggingHandler tagging;
  private final LifecycleHandler lifecycle;
  private final BucketEncryptionHandler bucketEncryption;
  private final PostObjectHandler forms;
  private final ObjectLockHandler objectLocks;
  private final BucketPolicyHandler policies;
  private final Authorizer authorizer;

  /**
   * Dispatches to handlers over {@code store}, answering location queries with {@code region};
   * browser form uploads are refused (they need {@link #S3Dispatcher(StoreBridge, String,
   * S3Authenticator)}).
   */
  public S3Dispatcher(StoreBridge store, String region) {
    this(store, region, null);
  }

  /**
   * Dispatches to handlers over {@code store}, answering location queries with {@code region} and
   * checking the signed policies of browser form uploads with {@code forms}.
   */
  public S3Dispatcher(StoreBridge store, String region, S3Authenticator forms) {
    this(store, region, forms, SsePolicy.DEFAULT, false);
  }

  /**
   * As {@link #S3Dispatcher(StoreBridge, String, S3Authenticator)}; {@code lifecycleApplied} tells
   * whether something (the lifecycle scan) carries out lifecycle rules, without which they are
   * refused rather than stored and ignored.
   */
  public S3Dispatcher(
      StoreBridge store, String region, S3Authenticator forms, boolean lifecycleApplied) {
    this(store, region, forms, SsePolicy.DEFAULT, lifecycleApplied);
  }

  /**
   * Dispatches as {@link #S3Dispatcher(StoreBridge, String, S3Authenticator, boolean)}, applying
   * the proxy's {@code encryption} settings.
   */
  public S3Dispatcher(
      StoreBridge store,
      String region,
      S3Authenticator forms,
      SsePolicy encryption,
      boolean lifecycleApplied) {
    this(store, region, forms, encryption, lifecycleApplied, Administrators.everyKey());
  }

  /**
   * Dispatches as {@link #S3Dispatcher(StoreBridge, String, S3Authenticator, SsePolicy, boolean)},
   * judging every request by who {@code principals} says its key belongs to ({@link
   * Administrators#of} for the configuration's keys; the users of the array once they exist) and by
   * its bucket's policy.
   */
  public S3Dispatcher(
      StoreBridge store,
      String region,
      S3Authenticator forms,
      SsePolicy encryption,
      boolean lifecycleApplied,
      Principals principals) {
    this.authorizer =
        new Authorizer(
            principals, new BucketPolicyCache(store::bucketPolicyRecently), Clock.systemUTC());
    this.policies = new BucketPolicyHandler(store);
    this.lifecycle = new LifecycleHandler(store, lifecycleApplied);
    this.buckets = new BucketHandler(store, region);
    this.listings = new ListingHandler(store);
    this.bucketEncryption = new BucketEncryptionHandler(store, encryption.masterKey());
    this.objects = new ObjectHandler(store, encryption, bucketEncryption, lifecycle);
    this.multipart = new MultipartHandler(store, encryption, bucketEncryption, lifecycle);
    this.acls = new AclHandler(store);
    this.cors = new CorsHandler(store);
    this.tagging = new TaggingHandler(store);
    this.objectLocks = new ObjectLockHandler(store);
    this.forms =
        new PostObjectHandler(store, forms, Clock.systemUTC(), bucketEncryption, encryption);
  }

  /**
   * Who {@code request} is from, before it is judged (what the access log names).
   *
   * @throws io.racs.proxy.s3.error.S3Exception {@code AccessDenied} for a key without a principal
   */
  public Access identify(S3Request request) {
    return authorizer.identify(
        new Authorizer.Request(
            request.head(), request.route(), request.auth(), request.secure(), request.sourceIp()));
  }

  /**
   * Handles one request, first judging it ({@link Access#check()}: the one decision point, before
   * any handler touches the store); failures are {@code S3Exception}s (or I/O errors of the body).
   * A served request that carries an {@code Origin} gets the CORS headers of its bucket's matching
   * rule.
   */
  public S3Response handle(S3Request unchecked) throws IOException {
    Access identified = unchecked.access() != null ? unchecked.access() : identify(unchecked);
    S3Request request = unchecked.withAccess(identified.check());
    S3Response response =
        switch (request.route().operation().family()) {
          case BUCKET -> buckets.handle(request);
          case LISTING -> listings.handle(request);
          case OBJECT -> objects.handle(request);
          case MULTIPART -> multipart.handle(request);
          case ACL -> acls.handle(request);
          case CORS -> cors.handle(request);
          case TAGGING -> tagging.handle(request);
          case LIFECYCLE -> lifecycle.handle(request);
          case ENCRYPTION -> bucketEncryption.handle(request);
          case OBJECT_LOCK -> objectLocks.handle(request);
          case FORM -> forms.handle(request);
          case POLICY -> policies.handle(request);
        };
    if (request.route().operation() == S3Operation.PREFLIGHT_CORS) {
      return response;
    }
    return cors.decorate(request, response);
  }
}
