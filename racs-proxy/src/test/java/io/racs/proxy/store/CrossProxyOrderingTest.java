package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Proves that versions are ordered by commit, not by clock, across proxies (issue #19): with two or
 * three stores over the same repositories whose clocks differ by 30 s, a write acknowledged through
 * one store and then a write of the same key through another leave the second write current, as
 * every store reads it, for every ordered pair of stores and every kind of write (inline and
 * striped PUT, DELETE, CopyObject, CompleteMultipartUpload) on either side. Ordered by wall clock
 * alone, the second write is lost whenever its store's clock is behind the first one's.
 */
public class CrossProxyOrderingTest {
  /** The kinds of write that create a version. */
  enum Write {
    PUT_INLINE,
    PUT_STRIPED,
    DELETE,
    COPY,
    COMPLETE_MULTIPART
  }

  /** What a key reads as after a write: its bytes, or empty when the write deleted it. */
  private record Prepared(
      Write write, ErasureStore store, String key, Optional<byte[]> result, String upload) {
    Prepared(Write write, ErasureStore store, String key, Optional<byte[]> result) {
      this(write, store, key, result, null);
    }
  }

  private int keys;

  @ParameterizedTest
  @EnumSource(Write.class)
  void write_afterAWriteAcknowledgedThroughAProxyWhoseClockIsAhead_isCurrentEverywhere(
      Write second) {
    try (SharedArray array = new SharedArray(0, -30)) {
      assertEveryPairOrdersBySequence(array, second);
    }
  }

  @ParameterizedTest
  @EnumSource(Write.class)
  void write_afterAWriteAcknowledgedThroughAnyOfThreeSkewedProxies_isCurrentEverywhere(
      Write second) {
    try (SharedArray array = new SharedArray(-30, 0, 30)) {
      assertEveryPairOrdersBySequence(array, second);
    }
  }

  @Test
  void writes_alternatingBetweenSkewedProxies_eachBecomesCurrent() {
    try (SharedArray array = new SharedArray(30, -30)) {
      for (int i = 0; i < 20; i++) {
        ErasureStore store = array.stores.get(i % 2);
        byte[] data = bytes(i, 100 + i);
        put(store, "alternating", data);
        for (ErasureStore reader : array.stores) {
          assertThat(read(reader, "alternating")).contains(data);
        }
      }
    }
  }

  /**
   * For every ordered pair (a, b) of stores and every kind of first write: the first write through
   * a, then {@code second} through b (prepared before the first write where it has preparations, as
   * an upload started earlier), then a read through every store.
   */
  private void assertEveryPairOrdersBySequence(SharedArray array, Write second) {
    List<String> wrong = new ArrayList<>();
    for (int a = 0; a < array.stores.size(); a++) {
      for (int b = 0; b < array.stores.size(); b++) {
        if (a == b) {
          continue;
        }
        for (Write first : Write.values()) {
          String key = "k" + keys++;
          ErasureStore storeA = array.stores.get(a);
          ErasureStore storeB = array.stores.get(b);
          if (first == Write.DELETE) {
            put(storeA, key, bytes(keys, 10)); // a delete marker is only written over a version
          }
          Prepared p1 = prepare(first, storeA, key);
          Prepared p2 = prepare(second, storeB, key);
          commit(p1);
          commit(p2);
          for (int r = 0; r < array.stores.size(); r++) {
            Optional<byte[]> seen = read(array.stores.get(r), key);
            if (!same(seen, p2.result())) {
              wrong.add(
                  first
                      + " via store "
                      + a
                      + ", then "
                      + second
                      + " via store "
                      + b
                      + ": store "
                      + r
                      + " reads "
                      + describe(seen)
                      + ", not "
                      + describe(p2.result()));
            }
          }
        }
      }
    }
    assertThat(wrong).isEmpty();
  }

  /** Whatever the write needs beforehand (a source key, an upload and its parts). */
  private Prepared prepare(Write write, ErasureStore store, String key) {
    int seed = keys * 31 + write.ordinal();
    return switch (write) {
      case PUT_INLINE -> new Prepared(write, store, key, Optional.of(bytes(seed, 300)));
      case PUT_STRIPED -> new Prepared(write, store, key, Optional.of(bytes(seed, 10_000)));
      case DELETE -> new Prepared(write, store, key, Optional.empty());
      case COPY -> {
        byte[] data = bytes(seed, 5000);
        put(store, key + "-source", data);
        yield new Prepared(write, store, key, Optional.of(data));
      }
      case COMPLETE_MULTIPART -> {
        byte[] one = bytes(seed, 5000);
        byte[] two = bytes(seed + 1, 700);
        String upload =
            store.createMultipartUpload(SharedArray.BUCKET, key, ObjectStore.PutOptions.defaults());
        store.uploadPart(
            SharedArray.BUCKET, key, upload, 1, stream(one), one.length, java.util.Map::of);
        store.uploadPart(
            SharedArray.BUCKET, key, upload, 2, stream(two), two.length, java.util.Map::of);
        byte[] whole = Arrays.copyOf(one, one.length + two.length);
        System.arraycopy(two, 0, whole, one.length, two.length);
        yield new Prepared(write, store, key, Optional.of(whole), upload);
      }
    };
  }

  private void commit(Prepared p) {
    switch (p.write()) {
      case PUT_INLINE, PUT_STRIPED -> put(p.store(), p.key(), p.result().orElseThrow());
      case DELETE -> p.store().delete(SharedArray.BUCKET, p.key()); // none over a deleted key
      case COPY ->
          p.store()
              .copy(SharedArray.BUCKET, p.key() + "-source", SharedArray.BUCKET, p.key(), null);
      case COMPLETE_MULTIPART -> {
        String upload = p.upload();
        List<ObjectStore.PartInfo> parts = p.store().listParts(SharedArray.BUCKET, p.key(), upload);
        p.store()
            .completeMultipartUpload(
                SharedArray.BUCKET,
                p.key(),
                upload,
                parts.stream()
                    .map(part -> new ObjectStore.CompletedPart(part.partNumber(), part.etag()))
                    .toList(),
                chosen -> java.util.Map.of());
      }
    }
  }

  public static void put(ObjectStore store, String key, byte[] data) {
    store.put(
        SharedArray.BUCKET, key, stream(data), data.length, ObjectStore.PutOptions.defaults());
  }

  /** The key's current bytes through {@code store}, or empty when it has none. */
  public static Optional<byte[]> read(ObjectStore store, String key) {
    try (ObjectStore.ObjectReader reader = store.get(SharedArray.BUCKET, key, 0, -1, 0)) {
      return Optional.of(reader.body().readAllBytes());
    } catch (StoreException e) {
      if (e.code() == StoreException.Code.NO_SUCH_KEY) {
        return Optional.empty();
      }
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean same(Optional<byte[]> a, Optional<byte[]> b) {
    return a.isPresent() == b.isPresent() && (a.isEmpty() || Arrays.equals(a.get(), b.get()));
  }

  private static String describe(Optional<byte[]> bytes) {
    return bytes.map(b -> b.length + " bytes " + Arrays.hashCode(b)).orElse("no such key");
  }

  public static byte[] bytes(long seed, int size) {
    return SeededBytes.bytes(seed, size);
  }

  static ByteArrayInputStream stream(byte[] data) {
    return new ByteArrayInputStream(data);
  }
}
