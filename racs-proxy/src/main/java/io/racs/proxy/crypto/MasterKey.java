package io.racs.proxy.crypto;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;

/**
 * The proxy's master key for SSE-S3: 32 bytes that wrap every object's data key and are never
 * stored beside the data. Read from a key file that only its owner may read (as ssh reads a private
 * key), or from the environment.
 *
 * <p>Its {@link #id()} (a hash of the key, which reveals nothing of it) is recorded with every data
 * key it wraps, so that after a rotation the proxy knows which key to unwrap with. Immutable and
 * thread-safe; {@link #toString()} never shows the key.
 */
public final class MasterKey {
  private static final Set<PosixFilePermission> OTHERS =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  private final byte[] key;
  private final String id;

  private MasterKey(byte[] key) {
    if (key.length != ChunkSealer.KEY_BYTES) {
      throw new IllegalArgumentException(
          "master key: " + key.length + " bytes (expected: " + ChunkSealer.KEY_BYTES + ")");
    }
    this.key = key.clone();
    this.id = idOf(key);
  }

  /** A new random master key (for {@code racs keys generate} and tests). */
  public static MasterKey generate() {
    return new MasterKey(KeyWrap.randomBytes(ChunkSealer.KEY_BYTES));
  }

  /**
   * The key in a key file: 64 hex digits or the base64 of 32 bytes (surrounding white space is
   * ignored). The file must be readable by its owner only.
   *
   * @throws IllegalArgumentException if group or others may access the file, or it holds no key
   * @throws IOException if it cannot be read
   */
  public static MasterKey load(Path file) throws IOException {
    PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
    if (posix != null) {
      Set<PosixFilePermission> permissions = posix.readAttributes().permissions();
      Set<PosixFilePermission> loose = EnumSet.noneOf(PosixFilePermission.class);
      loose.addAll(permissions);
      loose.retainAll(OTHERS);
      if (!loose.isEmpty()) {
        throw new IllegalArgumentException(
            "encryption key file "
                + file
                + " may be accessed by others ("
                + java.nio.file.attribute.PosixFilePermissions.toString(permissions)
                + "): make it readable by its owner only (chmod 600)");
      }
    }
    return parse(Files.readString(file, StandardCharsets.US_ASCII), "key file " + file);
  }

  /**
   * A key given as text (64 hex digits or base64 of 32 bytes), e.g. from an environment variable.
   *
   * @param source where it came from, for the error message (never the key)
   * @throws IllegalArgumentException if the text is not a 32-byte key
   */
  public static MasterKey parse(String text, String source) {
    String t = text.strip();
    byte[] key = null;
    if (t.length() == 2 * ChunkSealer.KEY_BYTES) {
      try {
        key = HexFormat.of().parseHex(t);
      } catch (IllegalArgumentException notHex) {
        key = null;
      }
    }
    if (key == null) {
      try {
        key = Base64.getDecoder().decode(t);
      } catch (IllegalArgumentException notBase64) {
        key = null;
      }
    }
    if (key == null || key.length != ChunkSealer.KEY_BYTES) {
      throw new IllegalArgumentException(
          source
              + ": not an encryption key (expected: 64 hex digits or the base64 of 32 bytes, e.g."
              + " from 'openssl rand -hex 32')");
    }
    return new MasterKey(key);
  }

  /** The key's id: 16 hex digits of a SHA-256 of it. */
  public String id() {
    return id;
  }

  /** Seals a data key with this key. */
  public WrappedKey wrap(byte[] dataKey) {
    return KeyWrap.wrap(key, id, dataKey);
  }

  /**
   * Opens a data key this key sealed.
   *
   * @throws TamperedDataException if another key sealed it, or it was altered
   */
  public byte[] unwrap(WrappedKey wrapped) throws TamperedDataException {
    if (!wrapped.keyId().equals(id)) {
      throw new TamperedDataException(
          "the data key was sealed by master key " + wrapped.keyId() + ", not by " + id);
    }
    return KeyWrap.unwrap(key, wrapped);
  }

  /** Seals the secret access key of {@code accessKeyId} with this key ({@link SecretSeal}). */
  public WrappedKey sealSecret(String accessKeyId, String secret) {
    return SecretSeal.seal(key, id, accessKeyId, secret);
  }

  /**
   * Opens a secret this key sealed for {@code accessKeyId}.
   *
   * @throws TamperedDataException if another key sealed it, it was sealed for another access key,
   *     or it was altered
   */
  public String openSecret(String accessKeyId, WrappedKey sealed) throws TamperedDataException {
    if (!sealed.keyId().equals(id)) {
      throw new TamperedDataException(
          "the secret was sealed by master key " + sealed.keyId() + ", not by " + id);
    }
    return SecretSeal.open(key, accessKeyId, sealed);
  }

  /** The key as 64 hex digits, for writing a new key file; never logged. */
  public String toHex() {
    return HexFormat.of().formatHex(key);
  }

  private static String idOf(byte[] key) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update("racs master key id\0".getBytes(StandardCharsets.US_ASCII));
      return HexFormat.of().formatHex(sha.digest(key), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return "MasterKey[" + id + "]";
  }
}
