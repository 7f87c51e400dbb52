package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.VersionMeta;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that a write's condition is checked against the key's current version just before the
 * write commits, after its body was read: a version committed while the body was streaming is the
 * one the condition sees, and a refused write leaves neither a version nor its data behind.
 */
class WriteConditionTest {
  private static final int SIZE = 10_000; // above the inline limit: the data goes to shards
  private StoreFixture f;

  @BeforeEach
  void setUp() {
    f = new StoreFixture("4x2", 4096);
    f.store.createBucket("bkt");
  }

  @AfterEach
  void tearDown() {
    f.close();
  }

  /** A condition that refuses any current version, as {@code If-None-Match: *} does. */
  private static final ObjectStore.WriteCondition ABSENT =
      current -> {
        if (current.isPresent()) {
          throw new IllegalStateException("exists: " + current.get().etag());
        }
      };

  /** A body that, when read to its end, first lets {@code meanwhile} run (a concurrent write). */
  private static InputStream bodyThen(byte[] data, Runnable meanwhile) {
    return new FilterInputStream(StoreFixture.stream(data)) {
      private boolean ran;

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n < 0 && !ran) {
          ran = true;
          meanwhile.run();
        }
        return n;
      }

      @Override
      public int read() throws IOException {
        int c = super.read();
        if (c < 0 && !ran) {
          ran = true;
          meanwhile.run();
        }
        return c;
      }
    };
  }

  @Test
  void put_whenAVersionCommitsWhileTheBodyStreams_conditionSeesItAndNothingIsLeft() {
    byte[] other = StoreFixture.bytes(2, SIZE);
    List<VersionMeta> committed = new ArrayList<>();
    InputStream body =
        bodyThen(StoreFixture.bytes(1, SIZE), () -> committed.add(f.put("bkt", "k", other)));
    assertThatThrownBy(
            () -> f.store.put("bkt", "k", body, SIZE, ObjectStore.PutOptions.defaults(), ABSENT))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("exists: ");
    assertThat(f.get("bkt", "k")).isEqualTo(other);
    for (int slot = 0; slot < 6; slot++) {
      assertThat(f.names(slot, "v/")).as("shards on slot %d", slot).hasSize(1);
      assertThat(f.names(slot, "i/bkt/"))
          .as("entries on slot %d", slot)
          .singleElement()
          .asString()
          .endsWith(committed.get(0).versionId());
    }
  }

  @Test
  void put_whenConditionHolds_commits() {
    byte[] data = StoreFixture.bytes(3, SIZE);
    f.store.put(
        "bkt", "k", StoreFixture.stream(data), SIZE, ObjectStore.PutOptions.defaults(), ABSENT);
    assertThat(f.get("bkt", "k")).isEqualTo(data);
  }

  @Test
  void completeMultipartUpload_whenConditionFails_keyAndUploadUnchanged() {
    byte[] first = StoreFixture.bytes(4, SIZE);
    f.put("bkt", "k", first);
    String upload = f.store.createMultipartUpload("bkt", "k", ObjectStore.PutOptions.defaults());
    ObjectStore.PartInfo part =
        f.store.uploadPart(
            "bkt",
            "k",
            upload,
            1,
            StoreFixture.stream(StoreFixture.bytes(5, SIZE)),
            SIZE,
            java.util.Map::of);
    List<ObjectStore.CompletedPart> parts = List.of(new ObjectStore.CompletedPart(1, part.etag()));
    assertThatThrownBy(
            () ->
                f.store.completeMultipartUpload(
                    "bkt", "k", upload, parts, chosen -> java.util.Map.of(), ABSENT))
        .isInstanceOf(IllegalStateException.class);
    assertThat(f.get("bkt", "k")).isEqualTo(first);
    assertThat(f.store.listParts("bkt", "k", upload)).hasSize(1);
  }

  @Test
  void delete_whenConditionFails_keyKept() {
    byte[] data = StoreFixture.bytes(6, SIZE);
    f.put("bkt", "k", data);
    assertThatThrownBy(() -> f.store.delete("bkt", "k", ABSENT))
        .isInstanceOf(IllegalStateException.class);
    assertThat(f.get("bkt", "k")).isEqualTo(data);
  }

  @Test
  void delete_whenKeyMissing_conditionSeesNoVersion() {
    List<Optional<VersionMeta>> seen = new ArrayList<>();
    f.store.delete("bkt", "missing", seen::add);
    assertThat(seen).containsExactly(Optional.empty());
  }
}
