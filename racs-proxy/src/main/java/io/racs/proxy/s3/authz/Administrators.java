package io.racs.proxy.s3.authz;

import io.racs.proxy.s3.policy.Principal;
import io.racs.proxy.s3.policy.Principals;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link Principals} of a proxy without users: the access keys of the configuration file, each
 * an administrator (allowed everything a bucket policy does not explicitly deny), named by its
 * access key. Immutable.
 */
public final class Administrators implements Principals {
  private final Set<String> keys;

  private Administrators(Set<String> keys) {
    this.keys = keys;
  }

  /** The administrators {@code accessKeyIds}; every other key is unknown. */
  public static Administrators of(Set<String> accessKeyIds) {
    return new Administrators(Set.copyOf(accessKeyIds));
  }

  /**
   * Every key as an administrator: for a server whose credential store holds only administrators
   * (tests, and callers that predate users), since only keys it knows pass authentication.
   */
  public static Principals everyKey() {
    return key -> Optional.of(administrator(key));
  }

  @Override
  public Optional<Principal> of(String accessKeyId) {
    return keys.contains(accessKeyId) ? Optional.of(administrator(accessKeyId)) : Optional.empty();
  }

  private static Principal administrator(String accessKeyId) {
    return new Principal(accessKeyId, true, List.of());
  }
}
