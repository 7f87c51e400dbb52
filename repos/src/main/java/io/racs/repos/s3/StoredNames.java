package io.racs.repos.s3;

import io.racs.repos.KeyCodec;
import io.racs.repos.Keys;
import io.racs.repos.s3.S3Options.KeyEncoding;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * How an {@link S3Repository} names keys in its bucket: the key prefix, then the key's {@link
 * KeyCodec} safe name (or the key itself with {@link KeyEncoding#RAW}), and back.
 */
final class StoredNames {
  private final String repository;
  private final String keyPrefix;
  private final boolean escaped;

  StoredNames(String repository, S3Options options) {
    this.repository = repository;
    this.keyPrefix = options.keyPrefix();
    this.escaped = options.keyEncoding() == KeyEncoding.ESCAPED;
  }

  /**
   * The stored name of {@code key}.
   *
   * @throws IllegalArgumentException if the key is invalid, or its stored name too long for S3
   */
  String of(String key) {
    Keys.check(key);
    String name = unchecked(key);
    int bytes = name.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > S3Options.MAX_STORED_KEY_BYTES) {
      throw new IllegalArgumentException(
          "key: "
              + Keys.abbreviate(key)
              + " is stored as "
              + bytes
              + " bytes in "
              + repository
              + " (expected: at most "
              + S3Options.MAX_STORED_KEY_BYTES
              + " once prefixed and escaped; check accepts(key))");
    }
    return name;
  }

  /** The UTF-8 length of {@code key}'s stored name. */
  int length(String key) {
    return unchecked(key).getBytes(StandardCharsets.UTF_8).length;
  }

  /** The stored prefix under which every key starting with {@code prefix} is stored. */
  String ofPrefix(String prefix) {
    return keyPrefix + (escaped ? KeyCodec.encodePrefix(prefix) : prefix);
  }

  /** The stored name of {@code key}, unchecked: for {@code startAfter} bounds. */
  String unchecked(String key) {
    return keyPrefix + (escaped ? KeyCodec.encode(key) : key);
  }

  /** The key a stored name stands for; empty for names this repository did not write. */
  Optional<String> keyOf(String stored) {
    if (!stored.startsWith(keyPrefix)) {
      return Optional.empty();
    }
    String name = stored.substring(keyPrefix.length());
    if (escaped) {
      return KeyCodec.decode(name);
    }
    return name.isEmpty() ? Optional.empty() : Optional.of(name);
  }
}
