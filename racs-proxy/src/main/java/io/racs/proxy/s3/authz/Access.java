package io.racs.proxy.s3.authz;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.policy.Principal;
import io.racs.proxy.s3.policy.RequestContext;
import io.racs.proxy.s3.route.CopySourceName;
import io.racs.proxy.s3.route.S3Operation;
import io.racs.proxy.s3.route.S3Route;
import java.util.List;
import java.util.Map;

/**
 * Who a request is from, and the decision on it ({@link Authorizer}): {@link #check()} judges the
 * operation's action on its resource before any handler runs; what a handler must judge item by
 * item it asks here ({@link #permitsDelete}, {@link #listsBucket}, {@link #signedBy}), by the same
 * rule and the same condition keys. Immutable; thread-safe.
 */
public final class Access {
  private final Authorizer authorizer;
  private final Authorizer.Request request;
  private final Principal principal;
  private final boolean anonymous;
  // Null for a request no policy judges (a CORS preflight).
  private final RequestValues source;
  private final Map<String, List<String>> values;
  private final boolean allBuckets;
  private final boolean anonymousUpload;

  Access(
      Authorizer authorizer,
      Authorizer.Request request,
      Principal principal,
      boolean anonymous,
      RequestValues source) {
    this(authorizer, request, principal, anonymous, source, true, false);
  }

  private Access(
      Authorizer authorizer,
      Authorizer.Request request,
      Principal principal,
      boolean anonymous,
      RequestValues source,
      boolean allBuckets,
      boolean anonymousUpload) {
    this.authorizer = authorizer;
    this.request = request;
    this.principal = principal;
    this.anonymous = anonymous;
    this.source = source;
    this.values = source == null ? Map.of() : RequestContext.computed(source);
    this.allBuckets = allBuckets;
    this.anonymousUpload = anonymousUpload;
  }

  /**
   * The user the access log names: the principal's name, {@code anonymous} for an unsigned request,
   * {@code -} when nobody is known yet (a form upload before its fields are read, a preflight).
   */
  public String user() {
    if (principal != null) {
      return principal.user();
    }
    S3Operation.Resource r = request.route().operation().resource();
    return anonymousUpload
            || anonymous && r != S3Operation.Resource.FORM && r != S3Operation.Resource.NONE
        ? "anonymous"
        : "-";
  }

  /**
   * Judges the request's operation: its action on its bucket or object, for a copy also the read of
   * its source, and for a request that bypasses a governance retention also {@code
   * s3:BypassGovernanceRetention}. ListBuckets without {@code s3:ListAllMyBuckets} is left to list
   * only the buckets the caller may list (see {@link #listsBucket}); DeleteObjects is judged per
   * key ({@link #permitsDelete}), a form upload once its signer is known ({@link #signedBy}), and a
   * CORS preflight not at all.
   *
   * @return this access, or one that lists only permitted buckets
   * @throws S3Exception {@code AccessDenied}
   */
  public Access check() {
    S3Route route = request.route();
    S3Operation op = route.operation();
    switch (op.resource()) {
      case SERVICE -> {
        if (permits(op.action(), null, null)) {
          return this;
        }
        if (principal == null) {
          throw denied();
        }
        return new Access(authorizer, request, principal, anonymous, source, false, false);
      }
      case BUCKET -> require(Authorizer.action(op, request.head().query()), route.bucket(), null);
      case OBJECT -> {
        require(Authorizer.action(op, request.head().query()), route.bucket(), route.key());
        CopySourceName source = Authorizer.copySource(op, request.head().headers());
        if (source != null) {
          require(
              source.versionId() == null ? "s3:GetObject" : "s3:GetObjectVersion",
              source.bucket(),
              source.key());
        }
        if (Authorizer.bypassesGovernance(op, request.head().headers())) {
          require("s3:BypassGovernanceRetention", route.bucket(), route.key());
        }
      }
      case KEYS, FORM, NONE -> {}
    }
    return this;
  }

  /** Whether the caller may delete {@code key} (its {@code versionId}, when not null). */
  public boolean permitsDelete(String key, String versionId) {
    String bucket = request.route().bucket();
    Map<String, List<String>> v =
        versionId == null ? values : RequestContext.computed(source.withVersionId(versionId));
    boolean bypass =
        Authorizer.bypassesGovernance(request.route().operation(), request.head().headers());
    return decide(versionId == null ? "s3:DeleteObject" : "s3:DeleteObjectVersion", bucket, key, v)
        && (!bypass || decide("s3:BypassGovernanceRetention", bucket, key, v));
  }

  /**
   * Whether ListBuckets shows {@code bucket}: every bucket with {@code s3:ListAllMyBuckets}, else
   * those the caller may {@code s3:ListBucket} (as MinIO lists them).
   */
  public boolean listsBucket(String bucket) {
    return allBuckets || permits("s3:ListBucket", bucket, null);
  }

  /** Whether ListBuckets shows every bucket (the caller may {@code s3:ListAllMyBuckets}). */
  public boolean listsAllBuckets() {
    return allBuckets;
  }

  /**
   * The access of a form upload signed by {@code accessKeyId}, judged for {@code s3:PutObject} of
   * {@code key} in the request's bucket.
   *
   * @throws S3Exception {@code AccessDenied}
   */
  public Access signedBy(String accessKeyId, String key) {
    return formSignedBy(accessKeyId).putting(key);
  }

  /**
   * The access of a form upload signed by {@code accessKeyId}, not judged yet: {@link #user()}
   * names the signer, so that a denial is logged under its name ({@link #putting} judges it).
   *
   * @throws S3Exception {@code AccessDenied} when the key has no principal
   */
  public Access formSignedBy(String accessKeyId) {
    Principal signer = authorizer.principal(accessKeyId);
    return new Access(authorizer, request, signer, false, source.uploadedBy(signer), true, false);
  }

  /**
   * The access of an anonymous form upload (one with neither policy nor signature), judged for
   * {@code s3:PutObject} of {@code key} in the request's bucket as anonymous.
   *
   * @throws S3Exception {@code AccessDenied}
   */
  public Access anonymousForm(String key) {
    return anonymousForm().putting(key);
  }

  /** The access of an anonymous form upload, not judged yet ({@link #putting} judges it). */
  public Access anonymousForm() {
    return new Access(authorizer, request, null, true, source.uploadedBy(null), true, true);
  }

  /**
   * Judges a form upload's {@code s3:PutObject} of {@code key} in the request's bucket.
   *
   * @return this access
   * @throws S3Exception {@code AccessDenied}
   */
  public Access putting(String key) {
    require("s3:PutObject", request.route().bucket(), key);
    return this;
  }

  /** Whether {@code action} on {@code bucket} and {@code key} is allowed. */
  public boolean permits(String action, String bucket, String key) {
    return decide(action, bucket, key, values);
  }

  private boolean decide(String action, String bucket, String key, Map<String, List<String>> v) {
    return authorizer.decide(principal, action, bucket, key, v).allowed();
  }

  private void require(String action, String bucket, String key) {
    if (!permits(action, bucket, key)) {
      throw denied();
    }
  }

  /** The denial S3 answers. */
  public static S3Exception denied() {
    return S3Exception.of(S3ErrorCode.ACCESS_DENIED, "Access Denied");
  }
}
