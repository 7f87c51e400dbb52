package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that an upload's record keeps the checksum named at its creation and gives it back where
 * the S3 layer judges parts and the completion by it: to ListParts, ListMultipartUploads, the check
 * each part runs before its body is read (a refusal stores nothing and reads no byte), and the
 * derivation of the object's checksums; an upload created without one answers none.
 */
class UploadChecksumRecordTest {
  private static final int BLOCK = 4096;
  private static final ObjectStore.UploadChecksum FULL_CRC32 =
      new ObjectStore.UploadChecksum("CRC32", "FULL_OBJECT");
  private final StoreFixture f = new StoreFixture("4x2", BLOCK);

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void createMultipartUpload_withChecksum_recordsItForPartsListingsAndCompletion() {
    f.store.createBucket("bkt");
    String upload =
        f.store.createMultipartUpload("bkt", "k", ObjectStore.PutOptions.defaults(), FULL_CRC32);
    assertThat(f.store.listMultipartUploads("bkt", ""))
        .extracting(ObjectStore.UploadInfo::checksum)
        .containsExactly(FULL_CRC32);
    AtomicReference<ObjectStore.UploadInfo> seen = new AtomicReference<>();
    byte[] data = StoreFixture.bytes(1, BLOCK + 3);
    ObjectStore.PartInfo part =
        f.store.uploadPart(
            "bkt",
            "k",
            upload,
            1,
            StoreFixture.stream(data),
            data.length,
            () -> Map.of("CRC32", "AAAAAA=="),
            null,
            seen::set);
    assertThat(seen.get().checksum()).isEqualTo(FULL_CRC32);
    ObjectStore.UploadParts listed = f.store.parts("bkt", "k", upload);
    assertThat(listed.upload().checksum()).isEqualTo(FULL_CRC32);
    assertThat(listed.parts())
        .extracting(ObjectStore.PartInfo::checksums)
        .containsExactly(Map.of("CRC32", "AAAAAA=="));

    List<ObjectStore.UploadChecksum> atCompletion = new ArrayList<>();
    var meta =
        f.store.completeMultipartUpload(
            "bkt",
            "k",
            upload,
            List.of(new ObjectStore.CompletedPart(1, part.etag())),
            (ObjectStore.ObjectChecksums)
                (u, chosen) -> {
                  atCompletion.add(u.checksum());
                  return Map.of("CRC32", chosen.get(0).checksums().get("CRC32"));
                },
            ObjectStore.WriteCondition.NONE);
    assertThat(atCompletion).containsExactly(FULL_CRC32);
    assertThat(meta.checksums()).containsExactly(Map.entry("CRC32", "AAAAAA=="));
  }

  @Test
  void uploadPart_whenTheCheckRefuses_readsNoByteAndStoresNothing() {
    f.store.createBucket("bkt");
    String upload =
        f.store.createMultipartUpload("bkt", "k", ObjectStore.PutOptions.defaults(), FULL_CRC32);
    InputStream unreadable =
        new InputStream() {
          @Override
          public int read() {
            throw new AssertionError("the body was read after the check refused the part");
          }
        };
    IllegalStateException refusal = new IllegalStateException("refused");
    assertThatThrownBy(
            () ->
                f.store.uploadPart(
                    "bkt",
                    "k",
                    upload,
                    1,
                    unreadable,
                    10,
                    Map::of,
                    null,
                    u -> {
                      throw refusal;
                    }))
        .isSameAs(refusal);
    assertThat(f.store.listParts("bkt", "k", upload)).isEmpty();
  }

  @Test
  void createMultipartUpload_withoutChecksum_answersNone() {
    f.store.createBucket("bkt");
    String upload = f.store.createMultipartUpload("bkt", "k", ObjectStore.PutOptions.defaults());
    assertThat(f.store.parts("bkt", "k", upload).upload().checksum()).isNull();
    assertThat(f.store.listMultipartUploads("bkt", ""))
        .extracting(ObjectStore.UploadInfo::checksum)
        .containsOnlyNulls();
  }

  @Test
  void uploadChecksum_withoutAlgorithm_isRefused() {
    assertThatThrownBy(() -> new ObjectStore.UploadChecksum("", "COMPOSITE"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
