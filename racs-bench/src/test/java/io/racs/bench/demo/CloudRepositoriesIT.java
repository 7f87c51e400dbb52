package io.racs.bench.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.HealReport;
import io.racs.proxy.store.heal.Healer;
import io.racs.repos.Repository;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the slots of {@code racs demo --clouds} on their real servers (two MinIO, Azurite,
 * fake-gcs-server, the in-process MINA SFTP server, a directory): the {@code racs.yaml} it writes
 * opens as {@code racs heal} opens it; objects read back byte-exact with Azurite and
 * fake-gcs-server killed, and a write goes on; the two come back with what they held and a heal
 * repairs the write they missed, so that every object reads back byte-exact with two other slots
 * (SFTP and a MinIO) gone too.
 */
class CloudRepositoriesIT {
  @TempDir Path tmp;

  @Test
  void anyTwoLost_readsByteExact_andHealRestoresRedundancy() throws IOException {
    long seed = TestSeed.get();
    try (CloudRepositories slots = new CloudRepositories(tmp.resolve("demo"), false)) {
      slots.prepareDirectory();
      slots.open().forEach(Repository::close);
      assertThat(String.join("\n", slots.lines()))
          .contains("Azurite at http://127.0.0.1:", "fake-gcs-server at http://127.0.0.1:")
          .contains("Apache MINA SSHD in this JVM");
      Path config = slots.writeConfig(Geometry.of(4, 2));
      assertThat(slots.describe(1, 4)).isEqualTo("azurite in slot 1 and sftp in slot 4");

      List<byte[]> bodies = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        bodies.add(SeededBytes.bytes(seed + i, 200_000 + i));
      }
      try (ErasureStore store = ArrayConfig.load(config).open()) {
        store.createBucket("demo");
        for (int i = 0; i < 3; i++) {
          put(store, "photo-" + i, bodies.get(i));
        }
        slots.breakSlots(1, 4);
        for (int i = 0; i < 3; i++) {
          assertThat(get(store, "photo-" + i))
              .as("seed %d, photo-%d", seed, i)
              .isEqualTo(bodies.get(i));
        }
        put(store, "photo-3", bodies.get(3));

        slots.comeBack(1, 4);
        HealReport healed = Healer.heal(store, HealOptions.defaults());
        assertThat(healed.unrecoverable()).isEmpty();
        slots.breakSlots(2, 3);
        for (int i = 0; i < 4; i++) {
          assertThat(get(store, "photo-" + i))
              .as("seed %d, photo-%d", seed, i)
              .isEqualTo(bodies.get(i));
        }
        slots.restoreSlots(2, 3);
      }
    }
  }

  private static void put(ErasureStore store, String key, byte[] body) {
    store.put(
        "demo",
        key,
        new ByteArrayInputStream(body),
        body.length,
        ObjectStore.PutOptions.defaults());
  }

  private static byte[] get(ErasureStore store, String key) throws IOException {
    try (ObjectStore.ObjectReader reader = store.get("demo", key, 0, -1, 0)) {
      return reader.body().readAllBytes();
    }
  }
}
