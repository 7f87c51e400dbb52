package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.testing.TestArray;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the read rule on real {@code fs} repositories whose roots break under a running store: a
 * root deleted, replaced by a file, or replaced by an empty directory (an unmounted disk) is an
 * unavailable repository, not an empty one. With up to m broken every object reads exact and a
 * listing is complete; with more, a GET fails with {@code INSUFFICIENT_SHARDS} (a 503) and never
 * {@code NO_SUCH_KEY}, and a listing is complete or fails, never short. Once the disks are back,
 * everything reads exact again.
 */
class BrokenRootsTest {
  private static final int BLOCK = 4 * 1024;
  private static final long SEED = 0x5EED_0016L;
  private static final int OBJECTS = 40;

  @TempDir Path dir;
  private final List<Path> roots = new ArrayList<>();
  private final Map<String, byte[]> bodies = new LinkedHashMap<>();
  private ErasureStore store;

  @BeforeEach
  void open() throws IOException {
    store =
        TestArray.builder("4x2")
            .blockBytes(BLOCK)
            .minPartBytes(BLOCK)
            .slowShardTimeout(Duration.ofSeconds(5))
            .gcGrace(Duration.ZERO)
            .fs(dir)
            .open()
            .store();
    for (int i = 0; i < 6; i++) {
      roots.add(dir.resolve("r" + i));
    }
    store.createBucket("bkt");
    for (int i = 0; i < OBJECTS; i++) {
      // Half inline (one block or less: the shards live in the records), half striped.
      byte[] body = StoreFixture.bytes(SEED + i, i % 2 == 0 ? 100 + i : 3 * BLOCK + i);
      String key = "k" + (char) ('a' + i % 26) + i;
      store.put(
          "bkt", key, StoreFixture.stream(body), body.length, ObjectStore.PutOptions.defaults());
      bodies.put(key, body);
    }
    store.awaitCollections();
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** Deletes slot 0's root, replaces slot 1's by a file and slot 2's by an empty directory. */
  private List<Runnable> breakRoots(int count) throws IOException {
    List<Runnable> repairs = new ArrayList<>();
    for (int slot = 0; slot < count; slot++) {
      Path root = roots.get(slot);
      Path away = Files.move(root, dir.resolve("away" + slot));
      switch (slot % 3) {
        case 0 -> {} // missing
        case 1 -> Files.writeString(root, "a file where the root was");
        default -> Files.createDirectory(root); // the empty mount point of an unmounted disk
      }
      repairs.add(
          () -> {
            try {
              Files.deleteIfExists(root);
              Files.move(away, root);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    }
    return repairs;
  }

  private byte[] get(String key) {
    try (ObjectStore.ObjectReader reader = store.get("bkt", key, 0, -1, 0)) {
      return reader.body().readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private List<String> listAll() {
    List<String> keys = new ArrayList<>();
    String after = "";
    while (true) {
      ObjectStore.ListResult page =
          store.list("bkt", new ObjectStore.ListRequest("", null, after, 7));
      page.objects().forEach(meta -> keys.add(meta.key()));
      if (!page.truncated()) {
        return keys;
      }
      after = page.nextStartAfter().orElseThrow();
    }
  }

  @Test
  void getAndList_whenUpToMRootsBroken_exactAndComplete() throws IOException {
    List<Runnable> repairs = breakRoots(2);
    for (Map.Entry<String, byte[]> e : bodies.entrySet()) {
      assertThat(get(e.getKey())).as("%s, seed %d", e.getKey(), SEED).isEqualTo(e.getValue());
    }
    assertThat(listAll()).containsExactlyElementsOf(bodies.keySet().stream().sorted().toList());
    repairs.forEach(Runnable::run);
  }

  @Test
  void getAndList_whenMoreThanMRootsBroken_unavailableNeverMissingOrShort() throws IOException {
    List<Runnable> repairs = breakRoots(3);
    for (String key : bodies.keySet()) {
      assertThatThrownBy(() -> get(key))
          .as(key)
          .isInstanceOfSatisfying(
              StoreException.class,
              e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS));
      // The record needs one copy: HEAD still answers, and with the right size.
      assertThat(store.head("bkt", key).sizeBytes()).as(key).isEqualTo(bodies.get(key).length);
    }
    // Three listings (a read quorum is two of six) still name every committed key.
    assertThat(listAll()).containsExactlyElementsOf(bodies.keySet().stream().sorted().toList());

    // Past the read quorum, a listing or a lookup cannot be trusted: 503, never short or 404.
    Path r3 = Files.move(roots.get(3), dir.resolve("away3"));
    Path r4 = Files.move(roots.get(4), dir.resolve("away4"));
    Files.createDirectory(roots.get(4));
    assertThatThrownBy(this::listAll)
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS));
    assertThatThrownBy(() -> store.head("bkt", bodies.keySet().iterator().next()))
        .isInstanceOfSatisfying(
            StoreException.class,
            e -> assertThat(e.code()).isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS));

    Files.delete(roots.get(4));
    Files.move(r3, roots.get(3));
    Files.move(r4, roots.get(4));
    repairs.forEach(Runnable::run);
    for (Map.Entry<String, byte[]> e : bodies.entrySet()) {
      assertThat(get(e.getKey())).as("%s, seed %d", e.getKey(), SEED).isEqualTo(e.getValue());
    }
    assertThat(listAll()).containsExactlyElementsOf(bodies.keySet().stream().sorted().toList());
  }
}
