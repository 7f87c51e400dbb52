package io.racs.proxy.s3.authz;

import io.racs.proxy.s3.auth.Authentication;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.http.Headers;
import io.racs.proxy.s3.http.QueryParams;
import io.racs.proxy.s3.http.RequestHead;
import io.racs.proxy.s3.policy.Policy;
import io.racs.proxy.s3.policy.PolicyEvaluator;
import io.racs.proxy.s3.policy.PolicyEvaluator.Decision;
import io.racs.proxy.s3.policy.Principal;
import io.racs.proxy.s3.policy.Principals;
import io.racs.proxy.s3.policy.RequestContext;
import io.racs.proxy.s3.route.CopySourceName;
import io.racs.proxy.s3.route.S3Operation;
import io.racs.proxy.s3.route.S3Route;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The one decision point for access: judges a request by the action and resource its operation
 * names ({@link S3Operation#action()}, {@link S3Operation#resource()}), who signed it ({@link
 * Principals}; nobody for an unsigned request, {@link RequestContext#ANONYMOUS}), the condition
 * keys the request carries, and the policies that apply: the caller's identity policies and the
 * bucket's policy. The rule:
 *
 * <ul>
 *   <li>An administrator (a key of the configuration) is allowed everything unless the bucket's
 *       policy explicitly denies it; it is never denied Get, Put or DeleteBucketPolicy, so that it
 *       cannot lock itself out (as AWS's root user cannot).
 *   <li>Anyone else needs an Allow in one of those policies and no Deny in any ({@link
 *       PolicyEvaluator}).
 * </ul>
 *
 * <p>A denial is {@code AccessDenied} (403), thrown before the handler runs, so nothing changed.
 * Thread-safe; reading a bucket's policy may block (it comes from the store, usually its cache), so
 * this runs on the request's thread, never on the event loop.
 */
public final class Authorizer {
  /** The prefix of every S3 resource's ARN. */
  public static final String ARN = "arn:aws:s3:::";

  /** What an administrator may always do, whatever a bucket policy says. */
  static final Set<String> ADMINISTRATOR_ALWAYS =
      Set.of("s3:GetBucketPolicy", "s3:PutBucketPolicy", "s3:DeleteBucketPolicy");

  private static final Set<S3Operation> BYPASSING =
      Set.of(
          S3Operation.DELETE_OBJECT, S3Operation.DELETE_OBJECTS, S3Operation.PUT_OBJECT_RETENTION);

  /**
   * What the decision knows of one request.
   *
   * @param head the request head
   * @param route its route
   * @param auth who signed it; null when unsigned (anonymous, a form upload, a CORS preflight)
   * @param secure whether it came over TLS
   * @param sourceIp the client's address (no port), or null when unknown
   */
  public record Request(
      RequestHead head, S3Route route, Authentication auth, boolean secure, String sourceIp) {}

  private final Principals principals;
  private final Function<String, Optional<Policy>> bucketPolicies;
  private final Clock clock;

  /**
   * A decision point that finds principals in {@code principals} and a bucket's policy with {@code
   * bucketPolicies} (empty when it has none).
   */
  public Authorizer(
      Principals principals, Function<String, Optional<Policy>> bucketPolicies, Clock clock) {
    this.principals = Objects.requireNonNull(principals, "principals");
    this.bucketPolicies = Objects.requireNonNull(bucketPolicies, "bucketPolicies");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Who the request is from, without judging it yet: what the access log names, and what {@link
   * Access#check()} judges.
   *
   * @throws S3Exception {@code AccessDenied} when its key has no principal (a key the credential
   *     store knows but no principal source does)
   */
  public Access identify(Request request) {
    S3Operation op = request.route().operation();
    if (op.resource() == S3Operation.Resource.NONE) {
      return new Access(this, request, null, false, null);
    }
    Principal principal = null;
    if (request.auth() != null) {
      principal = principal(request.auth().accessKeyId());
    }
    return new Access(
        this,
        request,
        principal,
        request.auth() == null,
        new RequestValues(request, principal, op, clock.instant()));
  }

  Principal principal(String accessKeyId) {
    return principals
        .of(accessKeyId)
        .orElseThrow(() -> S3Exception.of(S3ErrorCode.ACCESS_DENIED, "Access Denied"));
  }

  /** The action of {@code op} for this request: its version variant when it names a version. */
  static String action(S3Operation op, QueryParams query) {
    return query.contains("versionId") ? op.versionAction() : op.action();
  }

  /** Whether the request asks to bypass a governance-mode retention (a second action). */
  static boolean bypassesGovernance(S3Operation op, Headers headers) {
    String value = headers.get("x-amz-bypass-governance-retention");
    return BYPASSING.contains(op) && value != null && value.strip().equalsIgnoreCase("true");
  }

  /** The source a copy reads; null for any other operation. */
  static CopySourceName copySource(S3Operation op, Headers headers) {
    return op == S3Operation.COPY_OBJECT || op == S3Operation.UPLOAD_PART_COPY
        ? CopySourceName.of(headers)
        : null;
  }

  /**
   * The decision on {@code action} over {@code bucket} (null: the account) and {@code key} (null:
   * the bucket) for {@code principal} (null: anonymous).
   */
  Decision decide(
      Principal principal,
      String action,
      String bucket,
      String key,
      Map<String, List<String>> values) {
    String resource =
        bucket == null ? ARN + "*" : key == null ? ARN + bucket : ARN + bucket + "/" + key;
    RequestContext context =
        new RequestContext(
            principal == null ? RequestContext.ANONYMOUS : principal.user(),
            action,
            resource,
            values);
    Policy bucketPolicy = bucket == null ? null : bucketPolicies.apply(bucket).orElse(null);
    if (principal != null && principal.administrator()) {
      if (bucketPolicy == null || ADMINISTRATOR_ALWAYS.contains(action)) {
        return Decision.ALLOW;
      }
      Decision d = PolicyEvaluator.decide(context, List.of(bucketPolicy));
      return d == Decision.EXPLICIT_DENY ? d : Decision.ALLOW;
    }
    List<Policy> policies = new ArrayList<>();
    if (principal != null) {
      policies.addAll(principal.policies());
    }
    if (bucketPolicy != null) {
      policies.add(bucketPolicy);
    }
    return PolicyEvaluator.decide(context, policies);
  }
}
