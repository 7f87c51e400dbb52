package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.MinioExtension;
import io.racs.testkit.SeededBytes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Losing m = 2 of the six MinIO repositories of a 4x2 array while clients stream GETs and PUTs is
 * invisible to them: the stop happens from inside the client loop at a chosen iteration while a
 * second client keeps writing, no request fails (the SDK's retries are off, so the proxy itself
 * must hide the outage), every read is byte-exact, and everything written during the outage reads
 * back byte-exact both while the repositories are down and after they are restarted.
 */
@Isolated
class RepositoryFailureIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(6);
  private static final String BUCKET = "failover";
  private static final int SEEDED = 8;
  private static final int ITERATIONS = 20;
  private static final int STOP_AT = 6;
  private static final int STREAM_WRITES_DURING_OUTAGE_MIN = 6;
  private static final int[] STOPPED = {1, 4};
  @TempDir static Path dir;
  private static ProxyProcess proxy;

  @BeforeAll
  static void start() throws Exception {
    for (int i = 0; i < 6; i++) {
      MINIO.client(i).createBucket(b -> b.bucket("racs"));
    }
    proxy = ProxyProcess.start(dir, ProxyProcess.minioConfig(MINIO.servers(), "racs", "4x2", null));
  }

  @AfterAll
  static void stop() {
    if (proxy != null) {
      proxy.close();
    }
  }

  private static S3Client client() {
    return S3Client.builder()
        .endpointOverride(proxy.endpoint())
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(ProxyProcess.ACCESS_KEY, ProxyProcess.SECRET_KEY)))
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()))
        .httpClientBuilder(Apache5HttpClient.builder())
        .build();
  }

  /** Seeded object bodies: sizes from empty to two stripes of 1 MiB. */
  private static byte[] body(long seed) {
    Random random = new Random(seed);
    int size = seed % 7 == 0 ? 0 : random.nextInt(2 * 1024 * 1024);
    return SeededBytes.bytes(random.nextLong(), size);
  }

  @Test
  void getsAndPuts_whenTwoRepositoriesStopMidStream_seeNoErrorAndReadBackByteExact()
      throws Exception {
    Map<String, String> written = new ConcurrentHashMap<>();
    try (S3Client s3 = client();
        S3Client streamer = client()) {
      s3.createBucket(b -> b.bucket(BUCKET));
      for (int i = 0; i < SEEDED; i++) {
        byte[] data = body(i);
        String key = "seeded/" + i;
        s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromBytes(data));
        written.put(key, Clients.md5Hex(data));
      }

      AtomicBoolean outage = new AtomicBoolean();
      AtomicBoolean mainDone = new AtomicBoolean();
      AtomicInteger streamWritesDuringOutage = new AtomicInteger();
      List<Throwable> errors = new CopyOnWriteArrayList<>();
      Thread stream =
          Thread.ofPlatform()
              .name("put-stream")
              .start(
                  () -> {
                    try {
                      for (int j = 0;
                          !mainDone.get()
                              || (outage.get()
                                  && streamWritesDuringOutage.get()
                                      < STREAM_WRITES_DURING_OUTAGE_MIN);
                          j++) {
                        boolean during = outage.get();
                        byte[] data = body(10_000 + j);
                        String key = "stream/" + j;
                        streamer.putObject(
                            b -> b.bucket(BUCKET).key(key), RequestBody.fromBytes(data));
                        written.put(key, Clients.md5Hex(data));
                        byte[] back =
                            streamer.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray();
                        assertThat(Clients.md5Hex(back)).as(key).isEqualTo(Clients.md5Hex(data));
                        if (during) {
                          streamWritesDuringOutage.incrementAndGet();
                        }
                      }
                    } catch (Throwable t) {
                      errors.add(t);
                    }
                  });

      List<String> duringOutage = new ArrayList<>();
      try {
        for (int i = 0; i < ITERATIONS && errors.isEmpty(); i++) {
          if (i == STOP_AT) {
            for (int server : STOPPED) {
              MINIO.server(server).stop();
            }
            outage.set(true);
          }
          String seeded = "seeded/" + (i % SEEDED);
          byte[] got = s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(seeded)).asByteArray();
          assertThat(Clients.md5Hex(got))
              .as("iteration %d: %s", i, seeded)
              .isEqualTo(written.get(seeded));
          byte[] data = body(1_000 + i);
          String key = "loop/" + i;
          s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromBytes(data));
          written.put(key, Clients.md5Hex(data));
          if (outage.get()) {
            duringOutage.add(key);
          }
        }
      } finally {
        mainDone.set(true);
        stream.join();
      }
      assertThat(errors).isEmpty();
      assertThat(duringOutage).hasSize(ITERATIONS - STOP_AT);
      assertThat(streamWritesDuringOutage.get())
          .isGreaterThanOrEqualTo(STREAM_WRITES_DURING_OUTAGE_MIN);

      // Degraded: two repositories still down, everything reads back from the other four.
      assertAllReadBack(s3, written);
      for (int server : STOPPED) {
        MINIO.server(server).start();
      }
      assertAllReadBack(s3, written);
      List<String> listed = new ArrayList<>();
      s3.listObjectsV2Paginator(b -> b.bucket(BUCKET)).contents().forEach(o -> listed.add(o.key()));
      assertThat(listed).containsExactlyInAnyOrderElementsOf(written.keySet());
    }
  }

  private static void assertAllReadBack(S3Client s3, Map<String, String> written) {
    written.forEach(
        (key, md5) ->
            assertThat(
                    Clients.md5Hex(
                        s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray()))
                .as(key)
                .isEqualTo(md5));
  }
}
