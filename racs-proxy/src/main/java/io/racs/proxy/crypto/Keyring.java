package io.racs.proxy.crypto;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The master keys a proxy holds: the current one, which wraps every new data key, and earlier ones
 * still named by stored data keys until {@code racs keys rotate} has re-wrapped them. Immutable and
 * thread-safe.
 */
public final class Keyring {
  private final MasterKey current;
  private final Map<String, MasterKey> byId;

  private Keyring(MasterKey current, List<MasterKey> previous) {
    this.current = Objects.requireNonNull(current, "current");
    Map<String, MasterKey> keys = new LinkedHashMap<>();
    keys.put(current.id(), current);
    for (MasterKey k : previous) {
      keys.putIfAbsent(k.id(), k);
    }
    this.byId = Map.copyOf(keys);
  }

  /** A keyring of one key. */
  public static Keyring of(MasterKey current) {
    return new Keyring(current, List.of());
  }

  /** A keyring with earlier keys that stored data keys may still name. */
  public static Keyring of(MasterKey current, List<MasterKey> previous) {
    return new Keyring(current, previous);
  }

  /** The key new data keys are wrapped with. */
  public MasterKey current() {
    return current;
  }

  /** Wraps a data key with the current key. */
  public WrappedKey wrap(byte[] dataKey) {
    return current.wrap(dataKey);
  }

  /**
   * Opens a data key with whichever held key wrapped it.
   *
   * @throws TamperedDataException if no held key has its id, or it does not open
   */
  public byte[] unwrap(WrappedKey wrapped) throws TamperedDataException {
    MasterKey key = byId.get(wrapped.keyId());
    if (key == null) {
      throw new TamperedDataException(
          "the data key was wrapped by master key "
              + wrapped.keyId()
              + ", which this proxy does not hold (it holds "
              + byId.keySet()
              + ")");
    }
    return key.unwrap(wrapped);
  }

  /** Seals a user's secret access key with the current key. */
  public WrappedKey sealSecret(String accessKeyId, String secret) {
    return current.sealSecret(accessKeyId, secret);
  }

  /**
   * Opens a user's secret with whichever held key sealed it.
   *
   * @throws TamperedDataException if no held key has its id, or it does not open
   */
  public String openSecret(String accessKeyId, WrappedKey sealed) throws TamperedDataException {
    MasterKey key = byId.get(sealed.keyId());
    if (key == null) {
      throw new TamperedDataException(
          "the secret of "
              + accessKeyId
              + " was sealed by master key "
              + sealed.keyId()
              + ", which this proxy does not hold (it holds "
              + byId.keySet()
              + ")");
    }
    return key.openSecret(accessKeyId, sealed);
  }

  @Override
  public String toString() {
    return "Keyring[current=" + current.id() + ", held=" + byId.keySet() + "]";
  }
}
