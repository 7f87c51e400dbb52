package io.racs.proxy.store.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.StoreFixture;
import io.racs.proxy.store.format.VersionMeta;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves the store's copy-free body: GET bodies hand out their pieces as chunks the caller keeps,
 * and a chunk is never written again afterwards — all chunks of a read, kept until it ends, still
 * spell the object, for whole and ranged reads, degraded stripes (data reconstructed from parity),
 * and multipart objects.
 */
class ChunkedBodyTest {
  private static final int BLOCK = 4 * 4096;
  private final StoreFixture f = new StoreFixture("4x2", BLOCK);

  @AfterEach
  void close() {
    f.close();
  }

  /** Reads a body through nextChunk only, keeping every chunk, and joins them at the end. */
  private static byte[] readByChunks(ObjectStore.ObjectReader reader) throws IOException {
    assertThat(reader.body()).isInstanceOf(ChunkedBody.class);
    ChunkedBody body = (ChunkedBody) reader.body();
    List<ChunkedBody.Chunk> kept = new ArrayList<>();
    for (ChunkedBody.Chunk c = body.nextChunk(); c != null; c = body.nextChunk()) {
      kept.add(c);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (ChunkedBody.Chunk c : kept) {
      out.write(c.array(), c.offset(), c.length());
    }
    return out.toByteArray();
  }

  @ParameterizedTest
  @ValueSource(strings = {"healthy", "data shards 0 and 2 down", "data shard 1 rotting"})
  void chunks_keptUntilTheEnd_spellTheObject(String condition) throws IOException {
    f.store.createBucket("bkt");
    byte[] data = StoreFixture.bytes(condition.hashCode(), 7 * BLOCK + 123);
    VersionMeta meta = f.put("bkt", "k", data);
    List<Integer> slots = meta.parts().getFirst().slots();
    switch (condition) {
      case "data shards 0 and 2 down" -> {
        f.faulty.get(slots.get(0)).outage(true);
        f.faulty.get(slots.get(2)).outage(true);
      }
      case "data shard 1 rotting" -> f.faulty.get(slots.get(1)).corruptReads(true);
      default -> {}
    }
    try (ObjectStore.ObjectReader whole = f.store.get("bkt", "k", 0, -1, 0)) {
      assertThat(readByChunks(whole)).isEqualTo(data);
    }
    try (ObjectStore.ObjectReader range = f.store.get("bkt", "k", BLOCK - 5, 3 * BLOCK, 0)) {
      assertThat(readByChunks(range)).isEqualTo(Arrays.copyOfRange(data, BLOCK - 5, 4 * BLOCK - 5));
    }
    if (!condition.equals("healthy")) {
      assertThat(f.store.stats().degradedStripes()).isPositive();
    }
  }

  @Test
  void chunks_ofAMultipartObject_spellItAcrossParts() throws IOException {
    f.store.createBucket("bkt");
    String upload = f.store.createMultipartUpload("bkt", "mp", ObjectStore.PutOptions.defaults());
    byte[][] parts = {
      StoreFixture.bytes(1, BLOCK + 10), StoreFixture.bytes(2, 2 * BLOCK), StoreFixture.bytes(3, 99)
    };
    List<ObjectStore.CompletedPart> completed = new ArrayList<>();
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (int i = 0; i < parts.length; i++) {
      ObjectStore.PartInfo info =
          f.store.uploadPart(
              "bkt",
              "mp",
              upload,
              i + 1,
              StoreFixture.stream(parts[i]),
              parts[i].length,
              java.util.Map::of);
      completed.add(new ObjectStore.CompletedPart(i + 1, info.etag()));
      all.write(parts[i]);
    }
    f.store.completeMultipartUpload("bkt", "mp", upload, completed, chosen -> java.util.Map.of());
    byte[] expected = all.toByteArray();
    try (ObjectStore.ObjectReader whole = f.store.get("bkt", "mp", 0, -1, 0)) {
      assertThat(readByChunks(whole)).isEqualTo(expected);
    }
    try (ObjectStore.ObjectReader range = f.store.get("bkt", "mp", 5, BLOCK + 20, 0)) {
      assertThat(readByChunks(range)).isEqualTo(Arrays.copyOfRange(expected, 5, BLOCK + 25));
    }
    // The stream view of the same kind of body still works, byte by byte across parts.
    try (ObjectStore.ObjectReader whole = f.store.get("bkt", "mp", 0, -1, 0)) {
      assertThat(whole.body().readAllBytes()).isEqualTo(expected);
    }
  }
}
