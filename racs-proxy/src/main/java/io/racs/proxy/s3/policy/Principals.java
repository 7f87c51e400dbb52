package io.racs.proxy.s3.policy;

import java.util.Optional;

/**
 * Where the policy decision finds who an access key belongs to: the configuration's administrator
 * keys and the users stored in the array.
 *
 * <p>Implementations are thread-safe and do not block (called on every request).
 */
@FunctionalInterface
public interface Principals {
  /** The principal of {@code accessKeyId}, or empty when the key is not known. */
  Optional<Principal> of(String accessKeyId);
}
