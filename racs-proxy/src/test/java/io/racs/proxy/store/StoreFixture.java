package io.racs.proxy.store;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link TestArray} of memory repositories, each behind a fault injector, and helpers for store
 * tests. Its fields are the array's layers; {@link #store} is the store open now.
 */
public final class StoreFixture implements AutoCloseable {
  public final List<MemoryRepository> memories;
  public final List<FaultyRepository> faulty;
  public final StoreConfig config;
  public ErasureStore store;
  private final TestArray array;

  /**
   * {@code geometry} with {@code blockBytes} stripes and parts, calls given up after 5 s, settled.
   */
  public StoreFixture(String geometry, int blockBytes) {
    this(
        TestArray.builder(geometry)
            .blockBytes(blockBytes)
            .minPartBytes(blockBytes)
            .slowShardTimeout(Duration.ofSeconds(5))
            .settled()); // collect at once, so that tests can count what is left
  }

  /** An array of {@code config}'s settings. */
  public StoreFixture(StoreConfig config) {
    this(TestArray.builder(config));
  }

  /** The array {@code array} describes, each of its memory repositories made faulty first. */
  public StoreFixture(TestArray.Builder array) {
    this.array = array.faulty().open();
    this.memories = this.array.memories();
    this.faulty = this.array.faulty();
    this.config = this.array.config();
    this.store = this.array.store();
  }

  /** Re-opens the store on the same repositories (as a restarted proxy would). */
  public ErasureStore reopen() {
    store = array.reopen();
    return store;
  }

  /** Every subset of {@code 0..n-1} with at most {@code maxSize} members (slot patterns). */
  static List<List<Integer>> subsetsUpTo(int n, int maxSize) {
    List<List<Integer>> all = new ArrayList<>();
    for (int mask = 0; mask < (1 << n); mask++) {
      if (Integer.bitCount(mask) <= maxSize) {
        List<Integer> set = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          if ((mask & (1 << i)) != 0) {
            set.add(i);
          }
        }
        all.add(set);
      }
    }
    return all;
  }

  public static byte[] bytes(long seed, int size) {
    return SeededBytes.bytes(seed, size);
  }

  public static InputStream stream(byte[] data) {
    return new ByteArrayInputStream(data);
  }

  public VersionMeta put(String bucket, String key, byte[] data) {
    VersionMeta meta =
        store.put(bucket, key, stream(data), data.length, ObjectStore.PutOptions.defaults());
    store.awaitCollections(); // so that tests see superseded versions gone, and fault scripts
    // count only the calls of the operations they drive
    return meta;
  }

  public byte[] get(String bucket, String key) {
    return get(bucket, key, 0, -1);
  }

  public byte[] get(String bucket, String key, long offset, long length) {
    try (ObjectStore.ObjectReader reader = store.get(bucket, key, offset, length, 0)) {
      return reader.body().readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every name on slot {@code slot} under {@code prefix}. */
  public List<String> names(int slot, String prefix) {
    store.awaitCollections();
    List<String> names = new ArrayList<>();
    RepositoryArray.listAll(memories.get(slot), prefix).forEach(info -> names.add(info.key()));
    return names;
  }

  @Override
  public void close() {
    store.close();
  }
}
