package io.racs.proxy.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Master and customer keys: a key file others can read is refused, wrapped data keys open only with
 * the key that wrapped them, and no key ever shows in a string form.
 */
class KeysTest {
  @TempDir Path dir;

  @Test
  void load_whenFileReadableByGroupOrOthers_refusesAndSaysChmod600() throws Exception {
    Path file = dir.resolve("master.key");
    Files.writeString(file, MasterKey.generate().toHex());
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> MasterKey.load(file))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("chmod 600");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    assertThatThrownBy(() -> MasterKey.load(file)).isInstanceOf(IllegalArgumentException.class);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    assertThat(MasterKey.load(file).id()).hasSize(16);
  }

  @Test
  void parse_whenHexOrBase64_givesTheSameKeyAndRefusesAnythingElseWithoutEchoingIt() {
    MasterKey key = MasterKey.generate();
    String b64 = Base64.getEncoder().encodeToString(HexFormat.of().parseHex(key.toHex()));
    assertThat(MasterKey.parse(" " + key.toHex() + "\n", "test").id()).isEqualTo(key.id());
    assertThat(MasterKey.parse(b64, "test").id()).isEqualTo(key.id());
    assertThatThrownBy(() -> MasterKey.parse("secret-but-short", "env RACS_KEY"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("env RACS_KEY")
        .hasMessageNotContaining("secret-but-short");
  }

  @Test
  void unwrap_whenWrappedByThisKey_opensAndByAnotherOrAltered_fails() throws Exception {
    MasterKey key = MasterKey.generate();
    DataKey data = DataKey.generate();
    WrappedKey wrapped = WrappedKey.decode(key.wrap(data.key()).encode());
    assertThat(key.unwrap(wrapped)).isEqualTo(data.key());
    assertThatThrownBy(() -> MasterKey.generate().unwrap(wrapped))
        .isInstanceOf(TamperedDataException.class);
    byte[] sealed = wrapped.sealed();
    sealed[3] ^= 1;
    WrappedKey altered = new WrappedKey(wrapped.keyId(), wrapped.nonce(), sealed);
    assertThatThrownBy(() -> key.unwrap(altered)).isInstanceOf(TamperedDataException.class);
  }

  @Test
  void toString_never_showsAKey() {
    MasterKey key = MasterKey.generate();
    assertThat(key.toString()).doesNotContain(key.toHex());
    CustomerKey customer = customer(new byte[32]);
    assertThat(customer.toString())
        .doesNotContain(Base64.getEncoder().encodeToString(new byte[32]));
  }

  @Test
  void customerKey_whenMd5WrongOrAlgorithmOrLength_refusesWithS3sReason() throws Exception {
    byte[] raw = new byte[32];
    raw[0] = 9;
    String b64 = Base64.getEncoder().encodeToString(raw);
    String md5 = Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(raw));
    assertThat(CustomerKey.of("AES256", b64, md5).keyMd5()).isEqualTo(md5);
    assertThatThrownBy(() -> CustomerKey.of("AES128", b64, md5)).hasMessageContaining("algorithm");
    assertThatThrownBy(
            () -> CustomerKey.of("AES256", b64, Base64.getEncoder().encodeToString(new byte[16])))
        .hasMessageContaining("MD5");
    byte[] short16 = new byte[16];
    assertThatThrownBy(
            () ->
                CustomerKey.of(
                    "AES256",
                    Base64.getEncoder().encodeToString(short16),
                    Base64.getEncoder()
                        .encodeToString(MessageDigest.getInstance("MD5").digest(short16))))
        .hasMessageContaining("invalid");
  }

  @Test
  void customerKey_verifierAndWrap_tellTheRightKeyFromAWrongOne() throws Exception {
    CustomerKey right =
        customer("right key, thirty-two bytes long".getBytes(StandardCharsets.US_ASCII));
    CustomerKey wrong =
        customer("wrong key, thirty-two bytes long".getBytes(StandardCharsets.US_ASCII));
    byte[] salt = "salt".getBytes(StandardCharsets.US_ASCII);
    byte[] verifier = right.verifier(salt);
    assertThat(right.matches(salt, verifier)).isTrue();
    assertThat(wrong.matches(salt, verifier)).isFalse();
    DataKey data = DataKey.generate();
    WrappedKey wrapped = right.wrap(data.key());
    assertThat(right.unwrap(wrapped)).isEqualTo(data.key());
    assertThatThrownBy(() -> wrong.unwrap(wrapped)).isInstanceOf(TamperedDataException.class);
  }

  private static CustomerKey customer(byte[] raw) {
    try {
      return CustomerKey.of(
          "AES256",
          Base64.getEncoder().encodeToString(raw),
          Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(raw)));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
