package io.racs.repos.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryContract;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Proves the in-heap backend keeps the whole repository contract. */
class MemoryRepositoryTest extends RepositoryContract {
  @Override
  protected Repository createRepository() {
    return MemoryRepository.create("memory-test");
  }

  /** A memory repository is its own storage: nothing beneath it can go missing. */
  @Override
  protected boolean loseStorage() {
    return false;
  }

  /**
   * A body written in writes of every size class (bytes gathered into shared chunks, writes kept as
   * chunks of their own) reads back whole, and ranged — read and transferred — from and to every
   * boundary between writes and the bytes around them.
   */
  @Test
  void put_ofMixedWrites_readsBackAcrossEveryWriteBoundary() throws IOException {
    long seed = 20261124L;
    Random random = new Random(seed);
    int[] sizes = {1, 7, 8191, 8192, 20_000, 3, 65_536, 65_539, 100, 9000, 1, 70_000};
    int total = Arrays.stream(sizes).sum();
    byte[] data = SeededBytes.bytes(seed, total);
    TreeSet<Integer> cuts = new TreeSet<>();
    int at = 0;
    for (int size : sizes) {
      at += size;
      for (int d = -1; d <= 1; d++) {
        cuts.add(Math.clamp(at + d, 0, total));
      }
    }
    cuts.add(0);
    InputStream body =
        new ByteArrayInputStream(data) {
          @Override
          public synchronized long transferTo(OutputStream out) throws IOException {
            for (int size : sizes) {
              out.write(buf, pos, size);
              pos += size;
            }
            return count;
          }
        };
    Repository repository = createRepository();
    repository.put("mixed", body, total);

    assertThat(repository.head("mixed").orElseThrow().sizeBytes()).isEqualTo(total);
    for (int from : cuts) {
      int to = cuts.ceiling(Math.min(total, from + 1 + random.nextInt(80_000)));
      byte[] expected = Arrays.copyOfRange(data, from, to);
      try (ObjectStream in = repository.get("mixed", from, to - from)) {
        assertThat(in.readAllBytes())
            .as("read [%d, %d) seed %d", from, to, seed)
            .isEqualTo(expected);
      }
      try (ObjectStream in = repository.get("mixed", from, to - from)) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(in.transferTo(out)).isEqualTo(to - from);
        assertThat(out.toByteArray())
            .as("transfer [%d, %d) seed %d", from, to, seed)
            .isEqualTo(expected);
      }
    }
    try (ObjectStream in = repository.get("mixed", 0, -1)) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
    for (int from : cuts) {
      try (ObjectStream in = repository.get("mixed", 1, -1)) {
        assertThat(in.skip(from - 1L)).isEqualTo(Math.max(0, from - 1));
        assertThat(in.readAllBytes())
            .as("skip to %d seed %d", from, seed)
            .isEqualTo(Arrays.copyOfRange(data, Math.max(1, from), total));
      }
    }
  }
}
