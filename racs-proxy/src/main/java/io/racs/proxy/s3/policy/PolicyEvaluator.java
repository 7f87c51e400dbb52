package io.racs.proxy.s3.policy;

import java.util.Collection;

/**
 * The one evaluation rule, as AWS evaluates policies within one account: an explicit {@code Deny}
 * in any policy that applies wins; otherwise an {@code Allow} in any of them (a user's identity
 * policies or the bucket's policy) is needed; with neither the request is denied.
 */
public final class PolicyEvaluator {
  /** What the policies decide of one request. */
  public enum Decision {
    /** Some statement allows it and none denies it. */
    ALLOW,
    /** A statement denies it: nothing else can allow it. */
    EXPLICIT_DENY,
    /** No statement speaks of it. */
    IMPLICIT_DENY;

    /** Whether the request may go on. */
    public boolean allowed() {
      return this == ALLOW;
    }
  }

  private PolicyEvaluator() {}

  /** Decides {@code request} by {@code policies} (null entries are skipped). */
  public static Decision decide(RequestContext request, Collection<Policy> policies) {
    boolean allowed = false;
    for (Policy policy : policies) {
      if (policy == null) {
        continue;
      }
      for (Policy.Statement s : policy.statements()) {
        if (!s.applies(request)) {
          continue;
        }
        if (s.effect() == Policy.Effect.DENY) {
          return Decision.EXPLICIT_DENY;
        }
        allowed = true;
      }
    }
    return allowed ? Decision.ALLOW : Decision.IMPLICIT_DENY;
  }
}
