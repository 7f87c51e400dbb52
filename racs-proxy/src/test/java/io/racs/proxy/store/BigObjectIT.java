package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.testing.TestArray;
import io.racs.testkit.TestSeed;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves memory stays bounded whatever the object size: a 5 GiB generated object goes through PUT
 * and GET (checked by digest) in a JVM limited to a 256 MiB heap (Failsafe runs this class in its
 * own fork with -Xmx256m), over fs repositories on the real disk.
 */
class BigObjectIT {
  private static final long SIZE = 5L << 30;

  /** Seeded pseudo-random bytes, generated as they are read, digested on the way. */
  private static final class Generated extends InputStream {
    private final SplittableRandom random;
    private long left;
    final MessageDigest md5;

    Generated(long seed, long size) throws Exception {
      this.random = new SplittableRandom(seed);
      this.left = size;
      this.md5 = MessageDigest.getInstance("MD5");
    }

    @Override
    public int read() {
      throw new UnsupportedOperationException("bulk reads only");
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (left == 0) {
        return -1;
      }
      int n = (int) Math.min(len & ~7, left);
      if (n == 0) {
        n = (int) Math.min(len, left);
      }
      for (int i = 0; i < n; i += 8) {
        long v = random.nextLong();
        for (int j = 0; j < 8 && i + j < n; j++) {
          b[off + i + j] = (byte) (v >>> (8 * j));
        }
      }
      md5.update(b, off, n);
      left -= n;
      return n;
    }
  }

  @Test
  void putGet_5GiB_inA256MiBHeap(@TempDir Path dir) throws Exception {
    assertThat(Runtime.getRuntime().maxMemory())
        .as("heap limit of this fork")
        .isLessThanOrEqualTo(300L << 20);
    // Four data and two parity shards: the object takes one and a half times its size on disk.
    // Said up front, so that a small disk fails here with the reason, not halfway with FULL.
    long needed = SIZE / 4 * 6 + (512L << 20);
    assertThat(java.nio.file.Files.getFileStore(dir).getUsableSpace())
        .as("usable bytes under %s (java.io.tmpdir); this test writes %d", dir, needed)
        .isGreaterThanOrEqualTo(needed);
    long seed = TestSeed.get();
    try (TestArray array = TestArray.builder("4x2").fs(dir).open()) {
      ErasureStore store = array.store();
      store.createBucket("bkt");
      Generated body = new Generated(seed, SIZE);
      VersionMeta meta = store.put("bkt", "huge", body, -1, ObjectStore.PutOptions.defaults());
      assertThat(meta.sizeBytes()).isEqualTo(SIZE);
      byte[] expected = body.md5.digest();
      MessageDigest md5 = MessageDigest.getInstance("MD5");
      try (ObjectStore.ObjectReader reader = store.get("bkt", "huge", 0, -1, 0)) {
        byte[] buffer = new byte[1 << 16];
        for (int n; (n = reader.body().read(buffer)) > 0; ) {
          md5.update(buffer, 0, n);
        }
      }
      assertThat(md5.digest()).as("seed %d", seed).isEqualTo(expected);
      assertThat(meta.etag()).isEqualTo(java.util.HexFormat.of().formatHex(expected));
    }
  }
}
