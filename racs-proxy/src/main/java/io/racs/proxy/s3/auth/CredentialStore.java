package io.racs.proxy.s3.auth;

import java.util.Optional;

/**
 * Where the proxy looks up the secret of an access key.
 *
 * <p>Implementations are thread-safe and fast (called on every request, possibly on an event-loop
 * thread, so they must not block). An access key that is unknown or disabled is {@link
 * Optional#empty()}; the authenticator then answers {@code InvalidAccessKeyId}.
 */
@FunctionalInterface
public interface CredentialStore {
  /** The secret access key of {@code accessKeyId}, or empty when it is not known. */
  Optional<String> secretKey(String accessKeyId);
}
