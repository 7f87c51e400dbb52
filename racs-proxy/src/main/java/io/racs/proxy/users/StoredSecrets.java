package io.racs.proxy.users;

import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.TamperedDataException;
import io.racs.proxy.crypto.WrappedKey;

/**
 * How a user's secret access key is kept in its record. SigV4 (and SigV2) verify a request by
 * computing its signature from the secret, so the proxy must be able to read the secret back: it
 * cannot be stored as a one-way hash, as a password is. With a master key configured ({@code
 * encryption.keyFile} or {@code key}) the secret is sealed with it (AES-256-GCM bound to the access
 * key id): {@code sealed:v1:<master key id>:<nonce>:<ciphertext>}, so the repositories hold nothing
 * that opens without the key. Without one it is stored as given, {@code plain:<secret>}, readable
 * by whoever can read the repositories' records (docs/access.md).
 *
 * <p>Immutable and thread-safe.
 */
public final class StoredSecrets {
  private static final String SEALED = "sealed:";
  private static final String PLAIN = "plain:";

  private final Keyring keys;

  /** Secrets sealed with {@code keys}, or stored as they are when {@code keys} is null. */
  public StoredSecrets(Keyring keys) {
    this.keys = keys;
  }

  /** Whether new secrets are sealed (a master key is configured). */
  public boolean sealing() {
    return keys != null;
  }

  /** The stored form of {@code accessKeyId}'s {@code secret}. */
  public String store(String accessKeyId, String secret) {
    return keys == null ? PLAIN + secret : SEALED + keys.sealSecret(accessKeyId, secret).encode();
  }

  /**
   * The secret of {@code accessKeyId} from its stored form.
   *
   * @throws IllegalStateException when it is sealed and this proxy holds no key that opens it (no
   *     master key configured, another one, or the record was altered)
   */
  public String open(String accessKeyId, String stored) {
    if (stored.startsWith(PLAIN)) {
      return stored.substring(PLAIN.length());
    }
    if (!stored.startsWith(SEALED)) {
      throw new IllegalStateException(
          "the secret of " + accessKeyId + " is stored in an unknown form");
    }
    if (keys == null) {
      throw new IllegalStateException(
          "the secret of "
              + accessKeyId
              + " is sealed with a master key, and none is configured (encryption.keyFile)");
    }
    try {
      return keys.openSecret(accessKeyId, WrappedKey.decode(stored.substring(SEALED.length())));
    } catch (TamperedDataException | IllegalArgumentException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }
}
