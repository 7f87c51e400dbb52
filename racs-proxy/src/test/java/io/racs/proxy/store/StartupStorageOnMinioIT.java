package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.RepositoryHealth;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.minio.MinioServer;
import io.racs.testkit.MinioExtension;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves what the proxy does at start-up with a configured bucket that does not exist, on a real
 * MinIO server through a configuration file as users write it: by default the store refuses to open
 * and the message names the missing bucket; with {@code create: true} the missing buckets are
 * created by the identity check and the array serves.
 */
class StartupStorageOnMinioIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(1);

  private static final AtomicInteger RUNS = new AtomicInteger();

  /** A 2x1 array over three buckets of the one server, {@code create} as given. */
  private static ArrayConfig array(String[] buckets, boolean create) {
    MinioServer server = MINIO.server(0);
    StringBuilder yaml = new StringBuilder("array: {geometry: 2x1}\nrepositories:\n");
    for (int i = 0; i < buckets.length; i++) {
      yaml.append(
          """
            - name: m%d
              type: minio
              bucket: %s
              endpoint: %s
              region: %s
              credentials: {accessKey: %s, secretKey: %s}
              retries: 0
              create: %s
          """
              .formatted(
                  i,
                  buckets[i],
                  server.endpoint(),
                  server.region(),
                  server.accessKey(),
                  server.secretKey(),
                  create));
    }
    return ArrayConfig.from(RepositoryConfigLoader.create().parse(yaml.toString(), "racs.yaml"));
  }

  private static String[] buckets() {
    int run = RUNS.incrementAndGet();
    return new String[] {"start-" + run + "-a", "start-" + run + "-b", "start-" + run + "-c"};
  }

  @Test
  void open_whenABucketIsMissing_refusesNamingIt() {
    String[] buckets = buckets();
    MINIO.client(0).createBucket(b -> b.bucket(buckets[0]));
    MINIO.client(0).createBucket(b -> b.bucket(buckets[1]));
    ArrayConfig array = array(buckets, false);
    assertThatThrownBy(array::open)
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("m2")
        .hasMessageContaining("bucket " + buckets[2] + " does not exist");
    assertThat(MINIO.client(0).listBuckets().buckets()).noneMatch(b -> b.name().equals(buckets[2]));
  }

  @Test
  void open_whenCreateAndBucketsMissing_createsThemAndServes() {
    String[] buckets = buckets();
    try (ErasureStore store = array(buckets, true).open()) {
      for (String bucket : buckets) {
        MINIO.client(0).headBucket(b -> b.bucket(bucket));
      }
      assertThat(store.health())
          .extracting(RepositoryHealth::state)
          .containsOnly(RepositoryHealth.State.UP);
      store.createBucket("bkt");
      assertThat(store.listBuckets()).isNotEmpty();
    }
  }
}
