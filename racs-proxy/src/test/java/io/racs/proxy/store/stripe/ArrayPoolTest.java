package io.racs.proxy.store.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.StoreFixture;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.repos.ObjectStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that reusing shard pieces is safe: a {@link ShardPipe} gives a piece back only once its
 * reader has copied all of it (or its {@code transferTo} has returned from writing it), and
 * concurrent PUTs whose stripes come out of one shared pool still leave on every repository exactly
 * the shard bytes (pieces and CRCs) that encoding the object afresh gives — data and parity alike,
 * so a piece reused too early cannot hide behind parity.
 */
class ArrayPoolTest {
  private static final int BLOCK = 4 * 1024;
  private static final int PIECE = BLOCK / 4;
  private final StoreFixture f = new StoreFixture("4x2", BLOCK);

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void pipe_givesBackAPieceOnlyAfterItsLastByteWasRead() throws Exception {
    List<byte[]> consumed = new ArrayList<>();
    byte[] a = {1, 2, 3};
    byte[] b = {4, 5};
    ShardPipe pipe = finishedPipe(consumed, a, b);
    byte[] into = new byte[8];

    assertThat(pipe.read(into, 0, 2)).isEqualTo(2);
    assertThat(consumed).isEmpty(); // one byte of a still unread
    assertThat(pipe.read(into, 2, 6)).isEqualTo(1);
    assertThat(consumed).isEmpty(); // a is read out, but the reader has not moved on yet
    assertThat(pipe.read(into, 3, 5)).isEqualTo(2);
    assertThat(consumed).containsExactly(a);
    assertThat(pipe.read(into, 5, 3)).isEqualTo(-1);
    assertThat(consumed).containsExactly(a, b);
    assertThat(into).startsWith(1, 2, 3, 4, 5);
  }

  @Test
  void pipe_transferTo_writesThePiecesAndGivesEachBackOnlyAfterItsWrite() throws Exception {
    List<byte[]> consumed = new ArrayList<>();
    byte[] a = {1, 2, 3};
    byte[] b = {4, 5};
    ShardPipe pipe = finishedPipe(consumed, a, b);
    byte[] first = new byte[1];
    assertThat(pipe.read(first, 0, 1)).isEqualTo(1);
    List<String> writes = new ArrayList<>();
    OutputStream out =
        new OutputStream() {
          @Override
          public void write(int x) {
            throw new AssertionError("a piece is written whole");
          }

          @Override
          public void write(byte[] piece, int off, int len) {
            assertThat(consumed).as("given back while being written").doesNotContain(piece);
            writes.add((piece == a ? "a" : piece == b ? "b" : "copy") + off + "+" + len);
          }
        };

    assertThat(pipe.transferTo(out)).isEqualTo(4);
    assertThat(writes).containsExactly("a1+2", "b0+2"); // the pieces themselves, a's rest first
    assertThat(consumed).containsExactly(a, b);
    assertThat(pipe.read(first, 0, 1)).isEqualTo(-1);
  }

  @Test
  void pipe_transferTo_whenAborted_fails() throws Exception {
    ShardPipe pipe = new ShardPipe(4);
    assertThat(pipe.offer(new byte[] {1}, 1_000_000_000L)).isTrue();
    pipe.abort("a quorum was lost");
    assertThatThrownBy(() -> pipe.transferTo(OutputStream.nullOutputStream()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("a quorum was lost");
  }

  @Test
  void concurrentPuts_withPooledPieces_storeExactlyTheEncodedShards() throws Exception {
    f.store.createBucket("bkt");
    int threads = 4;
    int perThread = 12;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<List<Stored>>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long seed = 20261124L + t;
      futures.add(pool.submit(() -> putMany(seed, perThread)));
    }
    List<Stored> all = new ArrayList<>();
    try {
      for (Future<List<Stored>> future : futures) {
        all.addAll(future.get());
      }
    } finally {
      pool.shutdown();
    }
    assertThat(all).hasSize(threads * perThread);
    ErasureCodec codec = ErasureCodec.create(Geometry.of(4, 2));
    for (Stored s : all) {
      PartMeta part = s.meta().parts().getFirst();
      byte[][] expected = expectedShards(codec, s.data());
      for (int i = 0; i < 6; i++) {
        byte[] actual;
        try (ObjectStream in =
            f.memories.get(part.slots().get(i)).get(Layout.shard(part.dataId(), i))) {
          actual = in.readAllBytes();
        }
        assertThat(actual)
            .as("shard %d of %s (%d bytes)", i, s.meta().key(), s.data().length)
            .isEqualTo(expected[i]);
      }
    }
  }

  /** A pipe holding {@code pieces} and its end, handing finished pieces to {@code consumed}. */
  private static ShardPipe finishedPipe(List<byte[]> consumed, byte[]... pieces)
      throws InterruptedException {
    ShardPipe pipe = new ShardPipe(4, consumed::add, () -> {});
    for (byte[] piece : pieces) {
      assertThat(pipe.offer(piece, 1_000_000_000L)).isTrue();
    }
    assertThat(pipe.finish(1_000_000_000L)).isTrue();
    return pipe;
  }

  private record Stored(VersionMeta meta, byte[] data) {}

  /**
   * Objects whose last stripe is full, one byte short of full (a full-size piece with padding in a
   * reused array) or short; lengths are known or not.
   */
  private List<Stored> putMany(long seed, int count) throws IOException {
    Random random = new Random(seed);
    List<Stored> stored = new ArrayList<>();
    for (int j = 0; j < count; j++) {
      int stripes = 2 + random.nextInt(6);
      int size =
          switch (j % 3) {
            case 0 -> stripes * BLOCK;
            case 1 -> stripes * BLOCK - 1;
            default -> stripes * BLOCK - 1 - random.nextInt(3 * PIECE);
          };
      byte[] data = StoreFixture.bytes(random.nextLong(), size);
      long declared = j % 2 == 0 ? size : -1;
      String key = "seed" + seed + "/" + j;
      try (InputStream body = StoreFixture.stream(data)) {
        VersionMeta meta =
            f.store.put("bkt", key, body, declared, ObjectStore.PutOptions.defaults());
        stored.add(new Stored(meta, data));
      }
    }
    return stored;
  }

  /** Every shard object of {@code data}, encoded afresh stripe by stripe into new arrays. */
  private static byte[][] expectedShards(ErasureCodec codec, byte[] data) {
    ByteArrayOutputStream[] shards = new ByteArrayOutputStream[6];
    for (int i = 0; i < 6; i++) {
      shards[i] = new ByteArrayOutputStream();
    }
    for (int from = 0; from < data.length; from += BLOCK) {
      int length = Math.min(BLOCK, data.length - from);
      byte[] block = new byte[length];
      System.arraycopy(data, from, block, 0, length);
      byte[][] stripe = PartWriter.encodeStripe(codec, block, length, byte[]::new);
      for (int i = 0; i < 6; i++) {
        shards[i].writeBytes(stripe[i]);
      }
    }
    byte[][] out = new byte[6][];
    for (int i = 0; i < 6; i++) {
      out[i] = shards[i].toByteArray();
    }
    return out;
  }
}
