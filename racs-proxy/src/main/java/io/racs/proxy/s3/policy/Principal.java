package io.racs.proxy.s3.policy;

import java.util.List;
import java.util.Objects;

/**
 * Who signed a request, as the policy decision sees it.
 *
 * @param user the user's name (the principal policies name); an administrator's is its access key
 * @param administrator a key from the configuration file: allowed every action unless a bucket
 *     policy explicitly denies it
 * @param policies the identity policies attached to the user (none for an administrator)
 */
public record Principal(String user, boolean administrator, List<Policy> policies) {
  /** Checks the fields and copies the policies. */
  public Principal {
    Objects.requireNonNull(user, "user");
    policies = List.copyOf(policies);
  }
}
