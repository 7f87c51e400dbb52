package io.racs.proxy.s3.auth;

import java.util.Map;
import java.util.Optional;

/** A fixed set of access keys, e.g. read once from the configuration. Immutable. */
public final class StaticCredentialStore implements CredentialStore {
  private final Map<String, String> secretsByAccessKey;

  private StaticCredentialStore(Map<String, String> secretsByAccessKey) {
    this.secretsByAccessKey = Map.copyOf(secretsByAccessKey);
  }

  /** A store of the given access key → secret pairs. */
  public static StaticCredentialStore of(Map<String, String> secretsByAccessKey) {
    secretsByAccessKey.forEach(
        (ak, secret) -> {
          if (ak.isEmpty() || secret.isEmpty()) {
            throw new IllegalArgumentException(
                "access key " + ak + ": empty key or secret (expected: non-empty)");
          }
        });
    return new StaticCredentialStore(secretsByAccessKey);
  }

  /** A store of one access key. */
  public static StaticCredentialStore of(String accessKeyId, String secretKey) {
    return of(Map.of(accessKeyId, secretKey));
  }

  @Override
  public Optional<String> secretKey(String accessKeyId) {
    return Optional.ofNullable(secretsByAccessKey.get(accessKeyId));
  }

  @Override
  public String toString() {
    return "StaticCredentialStore" + secretsByAccessKey.keySet();
  }
}
