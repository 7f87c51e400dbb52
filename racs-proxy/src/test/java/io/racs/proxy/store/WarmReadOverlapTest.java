package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.MasterKey;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.Sealing;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.Operation;
import io.racs.testkit.CountingRepository.Kind;
import io.racs.testkit.CountingRepository.Ledger;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A warm GET (a key this store served before) reads the shards of the version it served while the
 * listing that decides which version is newest is still running: one round trip over distant
 * repositories rather than two. Shown by holding the key's index listing on every repository and
 * seeing the k shard reads start anyway; for plain, SSE-S3 and SSE-C objects alike (a sealed
 * version's shards hold sealed bytes, which need no key to read; the key is checked once the
 * listing confirms the version).
 */
class WarmReadOverlapTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final int SIZE = (1 << 20) + 4321; // striped, not inline

  private ErasureStore store;

  @AfterEach
  void close() {
    if (store != null) {
      store.close();
    }
  }

  private static CustomerKey customerKey() throws Exception {
    byte[] raw = new byte[32];
    raw[0] = 7;
    return CustomerKey.of(
        "AES256",
        Base64.getEncoder().encodeToString(raw),
        Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(raw)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"none", "SSE-S3", "SSE-C"})
  void warmGet_whenListingHeld_startsReadingTheShardsMeanwhile(String sse) throws Exception {
    FaultyRepository.Gate gate =
        new FaultyRepository.Gate(Operation.LIST, prefix -> prefix.startsWith("i/bkt/k"));
    Ledger ledger = new Ledger(6);
    store =
        TestArray.builder("4x2")
            .keys(Keyring.of(MasterKey.generate()))
            .gated(gate)
            .counting(ledger)
            .open()
            .store();
    store.createBucket("bkt");
    byte[] data = SeededBytes.bytes(TestSeed.get(), SIZE);
    CustomerKey customer = sse.equals("SSE-C") ? customerKey() : null;
    Sealing sealing =
        switch (sse) {
          case "SSE-S3" -> Sealing.S3_MANAGED;
          case "SSE-C" -> new Sealing.Customer(customer);
          default -> Sealing.NONE;
        };
    store.put(
        "bkt",
        "k",
        new ByteArrayInputStream(data),
        data.length,
        ObjectStore.PutOptions.defaults().withSealing(sealing));
    assertThat(read(customer)).isEqualTo(data); // served once: warm from here on

    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();
    gate.arm(6);
    CompletableFuture<byte[]> get = CompletableFuture.supplyAsync(() -> read(customer));
    try {
      gate.awaitHeld(6, WAIT);
      // Every repository's listing is held; the k data shards are asked for all the same.
      assertThat(ledger.awaitStarted(Kind.GET, 4, WAIT))
          .as("shard reads started while the listing was held")
          .isTrue();
    } finally {
      gate.open();
    }
    assertThat(get.get()).isEqualTo(data);

    // Warm or not, the key is checked before a byte is handed out.
    StoreException.Code expected =
        switch (sse) {
          case "SSE-C" -> StoreException.Code.CUSTOMER_KEY_REQUIRED;
          default -> StoreException.Code.ENCRYPTION_MISMATCH;
        };
    CustomerKey wrong = sse.equals("SSE-C") ? null : customerKey();
    assertThatThrownBy(() -> read(wrong))
        .isInstanceOfSatisfying(
            StoreException.class, e -> assertThat(e.code()).isEqualTo(expected));
    assertThat(read(customer)).isEqualTo(data);
  }

  private byte[] read(CustomerKey customer) {
    try (ObjectStore.ObjectReader reader = store.get("bkt", "k", 0, -1, 0, customer);
        InputStream body = reader.body()) {
      return body.readAllBytes();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
