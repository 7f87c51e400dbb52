package io.racs.repos.gcs;

import io.racs.repos.KeyCodec;
import io.racs.repos.Keys;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * How a {@link GcsRepository} names keys in its bucket: the key prefix (never escaped), then the
 * key's {@link KeyCodec} safe name, and back.
 *
 * <p><b>Why the safe name.</b> GCS refuses object names holding a carriage return or a line feed,
 * or that are {@code .} or {@code ..}, and advises against {@code #}, {@code [}, {@code ]}, {@code
 * *}, {@code ?} and control characters. The safe name escapes every ASCII character other than
 * letters and digits, and keeps UTF-8 binary order, which is the order GCS (and fake-gcs-server)
 * lists names in, so listings come back in key order with no further step (unlike Azure's, see
 * {@code io.racs.repos.azure.BlobNames}). GCS's one limit, 1024 bytes of UTF-8 per name, is checked
 * up front.
 */
final class ObjectNames {
  /** GCS's longest object name, in UTF-8 bytes. */
  static final int MAX_NAME_BYTES = 1024;

  private final String repository;
  private final String keyPrefix;

  ObjectNames(String repository, String keyPrefix) {
    this.repository = repository;
    this.keyPrefix = keyPrefix;
  }

  /**
   * The object name of {@code key}.
   *
   * @throws IllegalArgumentException if the key is invalid, or its name is too long for GCS
   */
  String of(String key) {
    Keys.check(key);
    String name = unchecked(key);
    int bytes = utf8Length(name);
    if (bytes > MAX_NAME_BYTES) {
      throw new IllegalArgumentException(
          "key: "
              + Keys.abbreviate(key)
              + " is stored as "
              + bytes
              + " bytes in "
              + repository
              + " (expected: at most "
              + MAX_NAME_BYTES
              + " once prefixed and escaped; check accepts(key))");
    }
    return name;
  }

  /** Whether {@code key}'s object name is within GCS's limit. */
  boolean accepts(String key) {
    Keys.check(key);
    return utf8Length(unchecked(key)) <= MAX_NAME_BYTES;
  }

  /** The name prefix under which every key starting with {@code prefix} is stored. */
  String ofPrefix(String prefix) {
    return keyPrefix + KeyCodec.encodePrefix(prefix);
  }

  /** The object name of {@code key}, unchecked: for {@code startAfter} bounds. */
  String unchecked(String key) {
    return keyPrefix + KeyCodec.encode(key);
  }

  /** The key an object name stands for; empty for names this repository did not write. */
  Optional<String> keyOf(String name) {
    if (!name.startsWith(keyPrefix)) {
      return Optional.empty();
    }
    return KeyCodec.decode(name.substring(keyPrefix.length()));
  }

  private static int utf8Length(String name) {
    return name.getBytes(StandardCharsets.UTF_8).length;
  }
}
