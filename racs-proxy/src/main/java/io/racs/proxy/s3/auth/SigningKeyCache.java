package io.racs.proxy.s3.auth;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Caches SigV4 signing keys per secret, date, region and service: a key is valid for a day and
 * deriving it costs four HMACs. Thread-safe; bounded (cleared when full, which is rare since keys
 * change daily).
 */
public final class SigningKeyCache {
  private static final int DEFAULT_MAX_ENTRIES = 4096;

  private record Key(String secret, String date, String region, String service) {
    @Override
    public String toString() {
      return date + "/" + region + "/" + service;
    }
  }

  private final ConcurrentHashMap<Key, byte[]> keys = new ConcurrentHashMap<>();
  private final int maxEntries;

  /** A cache of at most {@code maxEntries} keys. */
  public SigningKeyCache(int maxEntries) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries: " + maxEntries + " (expected: >= 1)");
    }
    this.maxEntries = maxEntries;
  }

  /** A cache of a default size. */
  public SigningKeyCache() {
    this(DEFAULT_MAX_ENTRIES);
  }

  /** The signing key for the scope; do not modify the returned array. */
  public byte[] signingKey(String secretKey, String date, String region, String service) {
    Key key = new Key(secretKey, date, region, service);
    byte[] cached = keys.get(key);
    if (cached != null) {
      return cached;
    }
    if (keys.size() >= maxEntries) {
      keys.clear();
    }
    byte[] derived = SigV4.deriveSigningKey(secretKey, date, region, service);
    keys.put(key, derived);
    return derived;
  }

  /** How many keys are cached. */
  public int size() {
    return keys.size();
  }
}
