package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.Repository;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves multipart uploads (parts stored as they arrive, completion writing no data again, S3's
 * ETag and part rules, abort), concurrent writers of one key ending with exactly one winner and
 * never a mix, and the identity markers that keep repositories in their slots.
 */
class MultipartAndConcurrencyTest {
  private static final int BLOCK = 4096;
  private final StoreFixture f = new StoreFixture("4x2", BLOCK);

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void multipart_uploadListCompleteAndRead() throws Exception {
    f.store.createBucket("bkt");
    String upload = f.store.createMultipartUpload("bkt", "big", ObjectStore.PutOptions.defaults());
    assertThat(f.store.listMultipartUploads("bkt", ""))
        .extracting(ObjectStore.UploadInfo::uploadId)
        .containsExactly(upload);
    byte[][] parts = {
      StoreFixture.bytes(1, BLOCK + 10),
      StoreFixture.bytes(2, 2 * BLOCK),
      StoreFixture.bytes(3, 100)
    };
    List<ObjectStore.CompletedPart> completed = new ArrayList<>();
    MessageDigest md5s = MessageDigest.getInstance("MD5");
    for (int i = 0; i < parts.length; i++) {
      ObjectStore.PartInfo info =
          f.store.uploadPart(
              "bkt",
              "big",
              upload,
              i + 1,
              StoreFixture.stream(parts[i]),
              parts[i].length,
              java.util.Map::of);
      completed.add(new ObjectStore.CompletedPart(i + 1, "\"" + info.etag() + "\""));
      md5s.update(MessageDigest.getInstance("MD5").digest(parts[i]));
    }
    // Re-uploading part 2 replaces it, and its old shards go.
    int dataBefore = f.names(0, "v/").size();
    ObjectStore.PartInfo again =
        f.store.uploadPart(
            "bkt",
            "big",
            upload,
            2,
            StoreFixture.stream(parts[1]),
            parts[1].length,
            java.util.Map::of);
    assertThat(f.names(0, "v/")).hasSize(dataBefore);
    completed.set(1, new ObjectStore.CompletedPart(2, again.etag()));
    assertThat(f.store.listParts("bkt", "big", upload))
        .extracting(ObjectStore.PartInfo::partNumber)
        .containsExactly(1, 2, 3);

    int shardObjects = f.names(0, "v/").size();
    VersionMeta meta =
        f.store.completeMultipartUpload(
            "bkt", "big", upload, completed, chosen -> java.util.Map.of());
    assertThat(f.names(0, "v/")).as("completion writes no data").hasSize(shardObjects);
    assertThat(meta.etag()).isEqualTo(HexFormat.of().formatHex(md5s.digest()) + "-3");
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      all.write(p);
    }
    byte[] expected = all.toByteArray();
    assertThat(f.get("bkt", "big")).isEqualTo(expected);
    assertThat(f.get("bkt", "big", BLOCK, 2 * BLOCK + 50))
        .isEqualTo(java.util.Arrays.copyOfRange(expected, BLOCK, 3 * BLOCK + 50));
    try (ObjectStore.ObjectReader part2 = f.store.get("bkt", "big", 0, -1, 2)) {
      assertThat(part2.body().readAllBytes()).isEqualTo(parts[1]);
      assertThat(part2.rangeLength()).isEqualTo(parts[1].length);
      assertThat(part2.meta().partRange(2).orElseThrow())
          .containsExactly(parts[0].length, parts[1].length);
    }
    assertThat(f.store.listMultipartUploads("bkt", "")).isEmpty();
    assertThatThrownBy(() -> f.store.listParts("bkt", "big", upload))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_UPLOAD);
  }

  @Test
  void multipart_rulesAndAbort() {
    f.store.createBucket("bkt");
    String upload = f.store.createMultipartUpload("bkt", "k", ObjectStore.PutOptions.defaults());
    ObjectStore.PartInfo small =
        f.store.uploadPart(
            "bkt", "k", upload, 1, StoreFixture.stream(new byte[10]), 10, java.util.Map::of);
    ObjectStore.PartInfo last =
        f.store.uploadPart(
            "bkt", "k", upload, 2, StoreFixture.stream(new byte[10]), 10, java.util.Map::of);
    assertThatThrownBy(
            () ->
                f.store.completeMultipartUpload(
                    "bkt",
                    "k",
                    upload,
                    List.of(
                        new ObjectStore.CompletedPart(1, small.etag()),
                        new ObjectStore.CompletedPart(2, last.etag())),
                    chosen -> java.util.Map.of()))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.ENTITY_TOO_SMALL);
    assertThatThrownBy(
            () ->
                f.store.completeMultipartUpload(
                    "bkt",
                    "k",
                    upload,
                    List.of(
                        new ObjectStore.CompletedPart(2, last.etag()),
                        new ObjectStore.CompletedPart(1, small.etag())),
                    chosen -> java.util.Map.of()))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INVALID_PART_ORDER);
    assertThatThrownBy(
            () ->
                f.store.completeMultipartUpload(
                    "bkt",
                    "k",
                    upload,
                    List.of(new ObjectStore.CompletedPart(1, "0123")),
                    chosen -> java.util.Map.of()))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INVALID_PART);
    assertThatThrownBy(
            () ->
                f.store.uploadPart(
                    "bkt",
                    "k",
                    upload,
                    10_001,
                    StoreFixture.stream(new byte[1]),
                    1,
                    java.util.Map::of))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INVALID_ARGUMENT);
    f.store.abortMultipartUpload("bkt", "k", upload);
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, "v/")).isEmpty();
      assertThat(f.names(slot, "u/")).isEmpty();
    }
    assertThatThrownBy(() -> f.store.abortMultipartUpload("bkt", "k", upload))
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.NO_SUCH_UPLOAD);
  }

  @Test
  void concurrentPutsAndDeletes_onOneKey_endWithOneWinnerNeverAMix() throws Exception {
    f.store.createBucket("bkt");
    int writers = 6;
    List<byte[]> bodies = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      bodies.add(StoreFixture.bytes(100 + i, 3 * BLOCK + i * 100));
    }
    for (int round = 0; round < 5; round++) {
      CountDownLatch start = new CountDownLatch(1);
      try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
          byte[] body = bodies.get(i);
          boolean deleter = i == writers - 1;
          futures.add(
              pool.submit(
                  () -> {
                    start.await();
                    if (deleter) {
                      f.store.delete("bkt", "k");
                    } else {
                      f.put("bkt", "k", body);
                    }
                    return null;
                  }));
        }
        start.countDown();
        for (Future<?> future : futures) {
          future.get();
        }
      }
      try {
        byte[] got = f.get("bkt", "k");
        assertThat(bodies).as("round %d", round).anySatisfy(b -> assertThat(got).isEqualTo(b));
      } catch (StoreException e) {
        assertThat(e.code()).isEqualTo(StoreException.Code.NO_SUCH_KEY);
      }
    }
  }

  @Test
  void identity_whenRepositoriesSwappedOrForeign_refusesToOpen_andAdoptsAnEmptyOne() {
    f.store.createBucket("bkt");
    f.put("bkt", "k", new byte[] {1, 2, 3});
    List<Repository> swapped = new ArrayList<>(f.faulty);
    java.util.Collections.swap(swapped, 0, 1);
    assertThatThrownBy(() -> ErasureStore.open(f.config, swapped))
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("configured in slot 0")
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INCONSISTENT);

    StoreFixture other = new StoreFixture("4x2", BLOCK);
    List<Repository> mixed = new ArrayList<>(f.faulty);
    mixed.set(2, other.faulty.get(2));
    assertThatThrownBy(() -> ErasureStore.open(f.config, mixed))
        .hasMessageContaining("different arrays");
    other.close();

    List<Repository> replaced = new ArrayList<>(f.faulty);
    replaced.set(3, io.racs.repos.memory.MemoryRepository.create("fresh"));
    ErasureStore adopted = ErasureStore.open(f.config, replaced);
    assertThat(adopted.arrayId()).isEqualTo(f.store.arrayId());
  }
}
