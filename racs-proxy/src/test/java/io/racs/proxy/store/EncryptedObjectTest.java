package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.MasterKey;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.SealRecord;
import io.racs.proxy.store.format.Sealing;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.Repository;
import io.racs.repos.fs.FsRepository;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Objects sealed before striping (SSE-S3 and SSE-C) on six directories: they read back exact,
 * whole, ranged and by part; no repository file holds any 16-byte block of their plaintext; a
 * customer key is needed, and the right one; and bytes altered on the repositories (with their
 * piece checksums fixed up, as a malicious provider would) fail the read instead of coming back.
 */
class EncryptedObjectTest {
  private static final int BLOCK = 256 * 1024;
  private static final int PART = 5 * 1024 * 1024;

  @TempDir Path dir;
  private final List<Path> roots = new ArrayList<>();
  private ErasureStore store;

  @BeforeEach
  void open() throws IOException {
    store =
        TestArray.builder("4x2")
            .blockBytes(BLOCK)
            .slowShardTimeout(Duration.ofSeconds(5))
            .settled()
            .keys(Keyring.of(MasterKey.generate()))
            .fs(dir)
            .open()
            .store();
    for (int i = 0; i < 6; i++) {
      roots.add(dir.resolve("r" + i));
    }
    store.createBucket("bkt");
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static CustomerKey customerKey(byte[] raw) {
    try {
      return CustomerKey.of(
          "AES256",
          Base64.getEncoder().encodeToString(raw),
          Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(raw)));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static final CustomerKey CUSTOMER = customerKey(new byte[32]);
  private static final CustomerKey OTHER = customerKey(HexFormat.of().parseHex("11".repeat(32)));

  private VersionMeta put(String key, byte[] data, Sealing sealing) {
    return store.put(
        "bkt",
        key,
        new ByteArrayInputStream(data),
        data.length,
        ObjectStore.PutOptions.defaults().withSealing(sealing));
  }

  private byte[] get(String key, CustomerKey customer) throws IOException {
    try (ObjectStore.ObjectReader r = store.get("bkt", key, 0, -1, 0, customer)) {
      return r.body().readAllBytes();
    }
  }

  private byte[] multipart(String key, byte[] data, Sealing sealing, CustomerKey customer) {
    String upload =
        store.createMultipartUpload(
            "bkt", key, ObjectStore.PutOptions.defaults().withSealing(sealing));
    List<ObjectStore.CompletedPart> parts = new ArrayList<>();
    for (int p = 0; p * PART < data.length; p++) {
      int from = p * PART;
      int to = Math.min(data.length, from + PART);
      ObjectStore.PartInfo info =
          store.uploadPart(
              "bkt",
              key,
              upload,
              p + 1,
              new ByteArrayInputStream(data, from, to - from),
              to - from,
              Map::of,
              customer);
      assertThat(info.sizeBytes()).isEqualTo(to - from);
      parts.add(new ObjectStore.CompletedPart(p + 1, info.etag()));
    }
    store.completeMultipartUpload("bkt", key, upload, parts, chosen -> Map.of());
    return data;
  }

  @Test
  void sealedObjects_whenWrittenInEveryShape_readBackExactAndNoFileHoldsTheirPlaintext()
      throws IOException {
    Random random = new Random(TestSeed.get());
    List<byte[]> plaintexts = new ArrayList<>();
    int[] sizes = {0, 1, 64 * 1024 - 1, 64 * 1024, 64 * 1024 + 1, 3 * BLOCK + 5};
    for (Sealing sealing : List.of(Sealing.S3_MANAGED, new Sealing.Customer(CUSTOMER))) {
      CustomerKey reader = sealing instanceof Sealing.Customer ? CUSTOMER : null;
      String tag = sealing instanceof Sealing.Customer ? "c" : "s3";
      for (int size : sizes) {
        byte[] data = SeededBytes.bytes(random.nextLong(), size);
        plaintexts.add(data);
        VersionMeta meta = put(tag + "/" + size, data, sealing);
        assertThat(meta.sizeBytes()).isEqualTo(size);
        assertThat(meta.encryption()).isNotNull();
        assertThat(get(tag + "/" + size, reader)).as("%s %d bytes", tag, size).isEqualTo(data);
        if (sealing == Sealing.S3_MANAGED) {
          // S3's ETag of an SSE-S3 object is its plaintext's MD5.
          assertThat(meta.etag()).isEqualTo(HexFormat.of().formatHex(md5(data)));
        }
        // The same bytes with their length unknown until they end (a browser form's file).
        VersionMeta streamed =
            store.put(
                "bkt",
                tag + "/streamed/" + size,
                new ByteArrayInputStream(data),
                -1,
                ObjectStore.PutOptions.defaults().withSealing(sealing));
        assertThat(streamed.sizeBytes()).isEqualTo(size);
        assertThat(get(tag + "/streamed/" + size, reader))
            .as("%s %d bytes, length unknown", tag, size)
            .isEqualTo(data);
        if (sealing == Sealing.S3_MANAGED) {
          assertThat(streamed.etag()).isEqualTo(meta.etag());
        }
      }
      byte[] big = SeededBytes.bytes(random.nextLong(), PART + 1);
      plaintexts.add(multipart(tag + "/multi", big, sealing, reader));
      assertThat(get(tag + "/multi", reader)).isEqualTo(big);
      // A range across the part boundary, and part 2 alone.
      try (ObjectStore.ObjectReader r =
          store.get("bkt", tag + "/multi", PART - 100, 101, 0, reader)) {
        assertThat(r.body().readAllBytes())
            .isEqualTo(Arrays.copyOfRange(big, PART - 100, PART + 1));
      }
      try (ObjectStore.ObjectReader r = store.get("bkt", tag + "/multi", 0, -1, 2, reader)) {
        assertThat(r.body().readAllBytes()).isEqualTo(new byte[] {big[PART]});
      }
    }
    Set<ByteBuffer> blocks = new HashSet<>();
    for (byte[] p : plaintexts) {
      for (int at = 0; at + 16 <= p.length; at += 16) {
        blocks.add(ByteBuffer.wrap(Arrays.copyOfRange(p, at, at + 16)));
      }
    }
    // Any 32-byte run of plaintext would hold one of these 16-byte aligned blocks.
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        byte[] stored = Files.readAllBytes(f);
        for (int at = 0; at + 16 <= stored.length; at++) {
          assertThat(blocks.contains(ByteBuffer.wrap(stored, at, 16).slice()))
              .as("plaintext at %d of %s", at, f)
              .isFalse();
        }
      }
    }
  }

  @Test
  void rangedRead_whenRandomRanges_returnsExactlyThoseBytes() throws IOException {
    Random random = new Random(TestSeed.get());
    byte[] data = SeededBytes.bytes(random.nextLong(), 2 * BLOCK + 12345);
    put("k", data, Sealing.S3_MANAGED);
    for (int i = 0; i < 40; i++) {
      int off = random.nextInt(data.length);
      int len = 1 + random.nextInt(data.length - off);
      try (ObjectStore.ObjectReader r = store.get("bkt", "k", off, len, 0, null)) {
        assertThat(r.rangeLength()).isEqualTo(len);
        assertThat(r.body().readAllBytes())
            .as("[%d, +%d)", off, len)
            .isEqualTo(Arrays.copyOfRange(data, off, off + len));
      }
    }
  }

  @Test
  void customerKeyObject_whenReadWithoutOrWithAnotherKey_isRefusedAndAKeyForAPlainObjectToo() {
    put("c", new byte[] {1, 2, 3}, new Sealing.Customer(CUSTOMER));
    put("plain", new byte[] {1, 2, 3}, Sealing.NONE);
    assertThatThrownBy(() -> store.get("bkt", "c", 0, -1, 0, null))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.CUSTOMER_KEY_REQUIRED));
    assertThatThrownBy(() -> store.get("bkt", "c", 0, -1, 0, OTHER))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.CUSTOMER_KEY_MISMATCH));
    assertThatThrownBy(() -> store.checkKey(store.head("bkt", "c"), OTHER))
        .isInstanceOf(StoreException.class);
    assertThatThrownBy(() -> store.get("bkt", "plain", 0, -1, 0, CUSTOMER))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.ENCRYPTION_MISMATCH));
  }

  @Test
  void copy_whenSourceSealedWithACustomerKey_opensItAndSealsTheCopyAsAsked() throws IOException {
    byte[] data = SeededBytes.bytes(TestSeed.get(), 100_000);
    VersionMeta source = put("src", data, new Sealing.Customer(CUSTOMER));
    assertThatThrownBy(
            () ->
                store.copy(
                    source,
                    null,
                    "bkt",
                    "dst",
                    null,
                    Sealing.S3_MANAGED,
                    ObjectStore.WriteCondition.NONE))
        .isInstanceOf(StoreException.class);
    VersionMeta copy =
        store.copy(
            source,
            CUSTOMER,
            "bkt",
            "dst",
            null,
            Sealing.S3_MANAGED,
            ObjectStore.WriteCondition.NONE);
    assertThat(copy.encryption().mode()).isEqualTo(SealRecord.SSE_S3);
    assertThat(get("dst", null)).isEqualTo(data);
    VersionMeta plain =
        store.copy(
            source, CUSTOMER, "bkt", "plain", null, Sealing.NONE, ObjectStore.WriteCondition.NONE);
    assertThat(plain.encryption()).isNull();
    assertThat(get("plain", null)).isEqualTo(data);
  }

  @Test
  void sseS3Write_whenNoMasterKeyConfigured_isRefusedAndStoresNothing() throws IOException {
    store.close();
    store = TestArray.builder("4x2").blockBytes(BLOCK).fs(dir).open().store();
    assertThatThrownBy(() -> put("k", new byte[10], Sealing.S3_MANAGED))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.ENCRYPTION_NOT_CONFIGURED));
    assertThatThrownBy(() -> store.head("bkt", "k"))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_KEY));
  }

  @Test
  void
      get_whenSealedBytesAlteredOnEveryRepositoryWithValidPieceChecksums_failsAndReturnsNothingAltered()
          throws IOException {
    store.close();
    store =
        TestArray.builder("4x2")
            .blockBytes(BLOCK)
            .inlineBytes(0)
            .keys(Keyring.of(MasterKey.generate()))
            .fs(dir)
            .open()
            .store();
    byte[] data = SeededBytes.bytes(TestSeed.get(), 100_000);
    VersionMeta meta = put("t", data, Sealing.S3_MANAGED);
    int piece = meta.parts().get(0).pieceBytes(4, 0);
    int altered = 0;
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        if (Files.size(f) != piece + 4) {
          continue;
        }
        byte[] shard = Files.readAllBytes(f);
        shard[7] ^= 0x40;
        CRC32C crc = new CRC32C();
        crc.update(shard, 0, piece);
        ByteBuffer.wrap(shard, piece, 4).putInt((int) crc.getValue());
        Files.write(f, shard);
        altered++;
      }
    }
    assertThat(altered).isEqualTo(6);
    assertThatThrownBy(
            () -> {
              try (ObjectStore.ObjectReader r = store.get("bkt", "t", 0, -1, 0, null)) {
                InputStream body = r.body();
                byte[] got = body.readAllBytes();
                throw new AssertionError("read " + got.length + " bytes of an altered object");
              }
            })
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("authentication");
  }

  @Test
  void heal_whenAProxyWithoutAnyKeyRebuildsWipedRepositories_theKeyedReaderStillReadsExact()
      throws IOException {
    byte[] data = SeededBytes.bytes(TestSeed.get(), 3 * BLOCK + 77);
    put("h", data, new Sealing.Customer(CUSTOMER));
    put("s", data, Sealing.S3_MANAGED);
    Keyring keys = store.config().keys();
    store.close();
    // Two repositories lose everything (replaced by empty directories).
    for (int slot : new int[] {1, 4}) {
      try (Stream<Path> files = Files.walk(roots.get(slot))) {
        for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
          if (!f.equals(roots.get(slot))) {
            Files.delete(f);
          }
        }
      }
    }
    // Heal runs on a store that holds no master key and no customer key.
    store = TestArray.builder("4x2").blockBytes(BLOCK).settled().fs(dir).open().store();
    HealReport report = Healer.heal(store, HealOptions.defaults());
    assertThat(report.shardsRebuilt()).isPositive();
    store.close();
    // Now with the two healed repositories and any two others gone, the bytes are still exact.
    List<Repository> healedOnly = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Repository r = FsRepository.builder(roots.get(i)).name("r" + i).durable(false).build();
      healedOnly.add(i == 0 || i == 2 ? new io.racs.repos.decorator.FaultyRepository(r) : r);
    }
    ((io.racs.repos.decorator.FaultyRepository) healedOnly.get(0)).outage(true);
    ((io.racs.repos.decorator.FaultyRepository) healedOnly.get(2)).outage(true);
    store = TestArray.builder("4x2").blockBytes(BLOCK).keys(keys).over(healedOnly).open().store();
    assertThat(get("h", CUSTOMER)).isEqualTo(data);
    assertThat(get("s", null)).isEqualTo(data);
  }

  private static byte[] md5(byte[] data) {
    try {
      return MessageDigest.getInstance("MD5").digest(data);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
