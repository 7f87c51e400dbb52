package io.racs.repos.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.ObjectStream;
import io.racs.repos.minio.MinioServer;
import io.racs.testkit.MinioExtension;
import io.racs.testkit.RecordingForwarder;
import io.racs.testkit.RecordingForwarder.Request;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves what {@link S3Options#expectContinueBytes()} puts on the wire, seen by a byte-for-byte
 * forwarder between the repository and a real MinIO server: as shipped (1 MiB), a shard PUT of 1
 * MiB or more carries {@code Expect: 100-continue} and a smaller one does not, in both checksum
 * modes; at 64 KiB every PUT from 64 KiB on carries it; with {@code off} none does; and every body
 * reads back byte-exact.
 */
class S3ExpectContinueIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(1);

  private static final AtomicInteger BUCKETS = new AtomicInteger();
  private static final long SEED = 0x100_c0de_7e57L;

  private RecordingForwarder forwarder;
  private String bucket;

  @BeforeEach
  void start() throws IOException {
    forwarder = RecordingForwarder.to(MINIO.server(0).endpoint());
    bucket = "expect-" + BUCKETS.incrementAndGet();
    MINIO.client(0).createBucket(b -> b.bucket(bucket));
  }

  @AfterEach
  void stop() throws IOException {
    forwarder.close();
  }

  private S3Repository repository(S3Options.Builder options) {
    MinioServer server = MINIO.server(0);
    return S3Repository.create(
        "wire",
        options
            .endpoint(forwarder.endpoint())
            .region(server.region())
            .credentials(S3Credentials.of(server.accessKey(), server.secretKey()))
            .pathStyle(true)
            .build());
  }

  /**
   * PUTs of 1000 bytes, 1 MiB - 1, 1 MiB and 3 MiB, each read back; whether each PUT's head asked
   * for 100 Continue, in that order.
   */
  private List<Boolean> putEach(S3Repository repository) throws IOException {
    System.out.println("S3ExpectContinueIT seed " + SEED);
    int[] sizes = {1000, (1 << 20) - 1, 1 << 20, 3 << 20};
    for (int size : sizes) {
      byte[] body = SeededBytes.bytes(SEED + size, size);
      repository.put("shard-" + size, new ByteArrayInputStream(body), size);
      try (ObjectStream in = repository.get("shard-" + size)) {
        assertThat(in.readAllBytes()).as("shard-%d", size).isEqualTo(body);
      }
    }
    List<Request> puts =
        forwarder.requests().stream().filter(r -> r.method().equals("PUT")).toList();
    assertThat(puts).as("%s", forwarder.requests()).hasSize(sizes.length);
    return puts.stream().map(S3ExpectContinueIT::expectsContinue).toList();
  }

  private static boolean expectsContinue(Request r) {
    return "100-continue".equalsIgnoreCase(r.headers().getOrDefault("expect", ""));
  }

  @Test
  void put_asShipped_asksFor100ContinueFrom1MiB() throws IOException {
    try (S3Repository repository = repository(S3Options.builder(bucket))) {
      assertThat(putEach(repository)).containsExactly(false, false, true, true);
    }
  }

  @Test
  void put_withContentMd5Checksums_asksFor100ContinueFrom1MiB() throws IOException {
    try (S3Repository repository =
        repository(S3Options.builder(bucket).checksums(S3Options.Checksums.WHEN_REQUIRED))) {
      assertThat(putEach(repository)).containsExactly(false, false, true, true);
    }
  }

  @Test
  void put_whenOff_neverAsksFor100Continue() throws IOException {
    try (S3Repository repository =
        repository(
            S3Options.builder(bucket).expectContinueBytes(S3Options.EXPECT_CONTINUE_NEVER))) {
      assertThat(putEach(repository)).containsExactly(false, false, false, false);
    }
  }

  @Test
  void put_at64KiB_asksFor100ContinueFromThere() throws IOException {
    try (S3Repository repository =
        repository(S3Options.builder(bucket).expectContinueBytes(64 << 10))) {
      assertThat(putEach(repository)).containsExactly(false, true, true, true);
    }
  }
}
