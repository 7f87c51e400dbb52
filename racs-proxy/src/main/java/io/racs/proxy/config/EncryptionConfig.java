package io.racs.proxy.config;

import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.MasterKey;
import io.racs.repos.config.ConfigSection;
import io.racs.repos.config.RepositorySetConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code encryption:} section of a RACS configuration file: the master key that wraps the data
 * keys of SSE-S3 objects, and how requests are encrypted. Absent, the proxy has no master key:
 * SSE-S3 requests are refused (501, as MinIO refuses them without a KMS) and SSE-C works alone.
 *
 * <pre>{@code
 * encryption:
 *   keyFile: /etc/racs/master.key   # 64 hex digits or base64 of 32 bytes; mode 0600 (or 0400)
 *   # key: ${env:RACS_MASTER_KEY}   # instead of keyFile
 *   previousKeyFiles: [/etc/racs/master.key.1]  # keys data keys may still be wrapped with
 *   default: SSE-S3                 # encrypt every write that does not ask (default: none)
 *   customerKeysOverHttp: false     # SSE-C over plain HTTP (only ever on loopback)
 * }</pre>
 *
 * <p>A key file that group or others may read is refused: the proxy does not start.
 *
 * @param keys the master keys, or null when none is configured
 * @param encryptByDefault whether writes that ask for no encryption get SSE-S3
 * @param customerKeysOverHttp whether SSE-C keys are accepted without TLS
 */
public record EncryptionConfig(
    Keyring keys, boolean encryptByDefault, boolean customerKeysOverHttp) {
  /** The fields of the section, as written. */
  private record Section(
      String keyFile,
      String key,
      List<String> previousKeyFiles,
      String defaultEncryption,
      Boolean customerKeysOverHttp) {}

  /** No key, nothing encrypted unless asked, SSE-C over TLS only. */
  public static final EncryptionConfig NONE = new EncryptionConfig(null, false, false);

  /** Reads the section (absent: {@link #NONE}). */
  public static EncryptionConfig from(RepositorySetConfig file) {
    ConfigSection section = file.configSection("encryption");
    if (section.node() == null) {
      return NONE;
    }
    // "default" is a Java keyword: bound by hand.
    com.fasterxml.jackson.databind.JsonNode node = section.node();
    Section s =
        new Section(
            text(node, "keyFile"),
            text(node, "key"),
            list(section, node, "previousKeyFiles"),
            text(node, "default"),
            node.has("customerKeysOverHttp") ? node.get("customerKeysOverHttp").asBoolean() : null);
    for (var names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!List.of("keyFile", "key", "previousKeyFiles", "default", "customerKeysOverHttp")
          .contains(name)) {
        throw section.error(
            name,
            "unknown field (expected: keyFile, key, previousKeyFiles, default,"
                + " customerKeysOverHttp)");
      }
    }
    if (s.keyFile() != null && s.key() != null) {
      throw section.error("key", "give keyFile or key, not both");
    }
    MasterKey current = null;
    try {
      if (s.keyFile() != null) {
        current = MasterKey.load(Path.of(s.keyFile()));
      } else if (s.key() != null) {
        current = MasterKey.parse(s.key(), "the key field");
      }
    } catch (IOException e) {
      throw section.error("keyFile", "cannot read " + s.keyFile() + ": " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw section.error(s.keyFile() != null ? "keyFile" : "key", e.getMessage());
    }
    List<MasterKey> previous = new ArrayList<>();
    for (String f : s.previousKeyFiles()) {
      try {
        previous.add(MasterKey.load(Path.of(f)));
      } catch (IOException e) {
        throw section.error("previousKeyFiles", "cannot read " + f + ": " + e.getMessage());
      } catch (IllegalArgumentException e) {
        throw section.error("previousKeyFiles", e.getMessage());
      }
    }
    if (current == null && !previous.isEmpty()) {
      throw section.error("previousKeyFiles", "previous keys need a current one (keyFile or key)");
    }
    boolean byDefault;
    if (s.defaultEncryption() == null || s.defaultEncryption().equalsIgnoreCase("none")) {
      byDefault = false;
    } else if (s.defaultEncryption().equalsIgnoreCase("SSE-S3")) {
      if (current == null) {
        throw section.error("default", "SSE-S3 by default needs a master key (keyFile or key)");
      }
      byDefault = true;
    } else {
      throw section.error("default", s.defaultEncryption() + " (expected: SSE-S3 or none)");
    }
    return new EncryptionConfig(
        current == null ? null : Keyring.of(current, previous),
        byDefault,
        Boolean.TRUE.equals(s.customerKeysOverHttp()));
  }

  private static String text(com.fasterxml.jackson.databind.JsonNode node, String field) {
    com.fasterxml.jackson.databind.JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }

  private static List<String> list(
      ConfigSection section, com.fasterxml.jackson.databind.JsonNode node, String field) {
    com.fasterxml.jackson.databind.JsonNode v = node.get(field);
    List<String> out = new ArrayList<>();
    if (v == null || v.isNull()) {
      return out;
    }
    if (!v.isArray()) {
      throw section.error(field, "expected a list of files");
    }
    v.forEach(e -> out.add(e.asText()));
    return out;
  }
}
