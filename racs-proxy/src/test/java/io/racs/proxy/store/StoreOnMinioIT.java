package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.HealOptions;
import io.racs.proxy.store.heal.Healer;
import io.racs.proxy.testing.TestArray;
import io.racs.repos.Repository;
import io.racs.repos.minio.MinioServer;
import io.racs.repos.s3.S3Credentials;
import io.racs.repos.s3.S3Options;
import io.racs.repos.s3.S3Repository;
import io.racs.testkit.MinioExtension;
import io.racs.testkit.SeededBytes;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves the store over six real MinIO servers (4x2): servers stopped in the middle of a PUT or a
 * GET cost the client nothing while m or fewer are down, and a PUT that loses more than m fails
 * cleanly, leaves the previous version current and deletes what it wrote. Faults are triggered by
 * the request body itself at a chosen byte, so no test waits on time.
 */
class StoreOnMinioIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(6);
  private static final int BLOCK = 1 << 20;
  private ErasureStore store;
  private final List<Repository> repositories = new ArrayList<>();

  @BeforeEach
  void open() {
    String bucket = "racs-" + System.nanoTime();
    for (int i = 0; i < 6; i++) {
      MinioServer server = MINIO.server(i);
      MINIO.client(i).createBucket(b -> b.bucket(bucket));
      repositories.add(
          S3Repository.create(
              "minio" + i,
              S3Options.builder(bucket)
                  .endpoint(server.endpoint())
                  .region(server.region())
                  .pathStyle(true)
                  .credentials(S3Credentials.of(server.accessKey(), server.secretKey()))
                  .connectTimeout(Duration.ofSeconds(1))
                  .readTimeout(Duration.ofSeconds(5))
                  .maxAttempts(1)
                  .build()));
    }
    store =
        TestArray.builder("4x2")
            .blockBytes(BLOCK)
            .slowShardTimeout(Duration.ofSeconds(10))
            .over(repositories)
            .open()
            .store();
    store.createBucket("bkt");
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** Seeded bytes that run {@code action} once {@code trigger} bytes have been served. */
  private static final class Body extends InputStream {
    private final Random random;
    private final long size;
    private final long trigger;
    private final Runnable action;
    private long served;
    final MessageDigest md5;

    Body(long seed, long size, long trigger, Runnable action) throws Exception {
      this.random = new Random(seed);
      this.size = size;
      this.trigger = trigger;
      this.action = action;
      this.md5 = MessageDigest.getInstance("MD5");
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (served >= size) {
        return -1;
      }
      if (served < trigger && served + len >= trigger) {
        len = (int) (trigger - served); // stop exactly at the trigger
      } else if (served == trigger && action != null) {
        action.run();
      }
      int n = (int) Math.min(len, size - served);
      byte[] chunk = SeededBytes.bytes(random.nextLong(), n);
      System.arraycopy(chunk, 0, b, off, n);
      md5.update(chunk);
      served += n;
      return n;
    }
  }

  private static byte[] digestOf(InputStream in) throws Exception {
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    byte[] buffer = new byte[65536];
    for (int n; (n = in.read(buffer)) > 0; ) {
      md5.update(buffer, 0, n);
    }
    return md5.digest();
  }

  @Test
  void put_whenMServersStopMidway_succeedsAndReadsBackExactly() throws Exception {
    Body body =
        new Body(
            1,
            12L * BLOCK + 123,
            5L * BLOCK,
            () -> {
              MINIO.server(1).stop();
              MINIO.server(4).kill();
            });
    VersionMeta meta = store.put("bkt", "big", body, -1, ObjectStore.PutOptions.defaults());
    assertThat(meta.sizeBytes()).isEqualTo(12L * BLOCK + 123);
    assertThat(store.stats().underReplicatedWrites()).isPositive();
    try (ObjectStore.ObjectReader reader = store.get("bkt", "big", 0, -1, 0)) {
      assertThat(digestOf(reader.body())).isEqualTo(body.md5.digest());
    }
  }

  @Test
  void get_whenMServersStopMidStream_returnsExactBytes() throws Exception {
    Body body = new Body(2, 10L * BLOCK, Long.MAX_VALUE, null);
    store.put("bkt", "big", body, 10L * BLOCK, ObjectStore.PutOptions.defaults());
    byte[] expected = body.md5.digest();
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    try (ObjectStore.ObjectReader reader = store.get("bkt", "big", 0, -1, 0)) {
      InputStream in = reader.body();
      byte[] buffer = new byte[65536];
      long read = 0;
      boolean stopped = false;
      for (int n; (n = in.read(buffer)) > 0; ) {
        md5.update(buffer, 0, n);
        read += n;
        if (!stopped && read >= 3L * BLOCK) {
          stopped = true;
          MINIO.server(0).kill();
          MINIO.server(3).stop();
        }
      }
      assertThat(read).isEqualTo(10L * BLOCK);
    }
    assertThat(md5.digest()).isEqualTo(expected);
  }

  @Test
  void put_whenMorePlusOneServersStop_failsCleanlyAndKeepsThePreviousVersion() throws Exception {
    Body first = new Body(3, 2L * BLOCK, Long.MAX_VALUE, null);
    store.put("bkt", "k", first, 2L * BLOCK, ObjectStore.PutOptions.defaults());
    byte[] firstDigest = first.md5.digest();
    Body second =
        new Body(
            4,
            6L * BLOCK,
            3L * BLOCK,
            () -> {
              MINIO.server(0).stop();
              MINIO.server(2).stop();
              MINIO.server(5).stop();
            });
    assertThatThrownBy(() -> store.put("bkt", "k", second, -1, ObjectStore.PutOptions.defaults()))
        .isInstanceOf(StoreException.class)
        .extracting(e -> ((StoreException) e).code())
        .isEqualTo(StoreException.Code.INSUFFICIENT_SHARDS);
    for (int i : new int[] {0, 2, 5}) {
      MINIO.server(i).start();
    }
    try (ObjectStore.ObjectReader reader = store.get("bkt", "k", 0, -1, 0)) {
      assertThat(digestOf(reader.body())).isEqualTo(firstDigest);
    }
    // The failed write's shards on the servers that stayed up were deleted again.
    for (int slot : new int[] {1, 3, 4}) {
      assertThat(RepositoryArray.listAll(repositories.get(slot), "v/")).hasSize(1);
    }
  }

  @Test
  void readOnlyHealthyArray_listsAndHeals() throws IOException {
    store.put(
        "bkt",
        "a",
        new java.io.ByteArrayInputStream(new byte[10]),
        10,
        ObjectStore.PutOptions.defaults());
    assertThat(store.list("bkt", new ObjectStore.ListRequest("", null, "", 10)).objects())
        .hasSize(1);
    assertThat(Healer.heal(store, HealOptions.defaults()).unrecoverable()).isEmpty();
  }
}
