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
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves what {@link S3Options.Checksums} puts on the wire, seen by a byte-for-byte forwarder
 * between the repository and a real MinIO server: with {@code WHEN_REQUIRED} no request carries an
 * {@code x-amz-checksum-*}, {@code x-amz-sdk-checksum-algorithm} or {@code x-amz-trailer} header
 * and every PutObject and UploadPart carries a {@code Content-MD5} instead; by default every
 * PutObject and UploadPart carries a flexible checksum; and in both modes single and multipart
 * uploads (of known and unknown length) read back byte-exact.
 */
class S3ChecksumsIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(1);

  private static final AtomicInteger BUCKETS = new AtomicInteger();
  private static final int PART_SIZE_BYTES = S3Options.MIN_PART_SIZE_BYTES;
  private static final long SEED = 0x5eed_c4ec_5a11L;

  private RecordingForwarder forwarder;
  private String bucket;

  @BeforeEach
  void start() throws IOException {
    MinioServer server = MINIO.server(0);
    forwarder = RecordingForwarder.to(server.endpoint());
    bucket = "checksums-" + BUCKETS.incrementAndGet();
    MINIO.client(0).createBucket(b -> b.bucket(bucket));
  }

  @AfterEach
  void stop() throws IOException {
    forwarder.close();
  }

  private S3Repository repository(S3Options.Checksums checksums) {
    MinioServer server = MINIO.server(0);
    return S3Repository.create(
        "wire",
        S3Options.builder(bucket)
            .endpoint(forwarder.endpoint())
            .region(server.region())
            .credentials(S3Credentials.of(server.accessKey(), server.secretKey()))
            .pathStyle(true)
            .partSizeBytes(PART_SIZE_BYTES)
            .checksums(checksums)
            .build());
  }

  /** Small, multipart of known length, and multipart of unknown length: each reads back exact. */
  private static void roundTrip(S3Repository repository) throws IOException {
    System.out.println("S3ChecksumsIT seed " + SEED);
    Map<String, byte[]> bodies =
        Map.of(
            "small",
            SeededBytes.bytes(SEED, 1000),
            "multipart",
            SeededBytes.bytes(SEED + 1, 2 * PART_SIZE_BYTES + 12345),
            "unknown-length",
            SeededBytes.bytes(SEED + 2, PART_SIZE_BYTES + 1));
    for (Map.Entry<String, byte[]> e : bodies.entrySet()) {
      byte[] body = e.getValue();
      InputStream in = new ByteArrayInputStream(body);
      repository.put(e.getKey(), in, e.getKey().equals("unknown-length") ? -1 : body.length);
    }
    for (Map.Entry<String, byte[]> e : bodies.entrySet()) {
      try (ObjectStream in = repository.get(e.getKey())) {
        assertThat(in.readAllBytes()).as(e.getKey()).isEqualTo(e.getValue());
      }
      assertThat(repository.head(e.getKey())).isPresent();
    }
    assertThat(repository.list("", "", 10).objects()).hasSize(3);
    repository.delete("small");
    repository.probe();
  }

  private static boolean isUpload(Request r) {
    return r.method().equals("PUT") && !r.target().matches("/[^/?]+/?(\\?.*)?");
  }

  private static boolean isUploadPart(Request r) {
    return isUpload(r) && r.target().contains("partNumber=");
  }

  private static boolean carriesFlexibleChecksum(Request r) {
    return r.hasHeaderStartingWith("x-amz-checksum-")
        || r.headers().containsKey("x-amz-sdk-checksum-algorithm")
        || r.headers().containsKey("x-amz-trailer");
  }

  @Test
  void put_whenWhenRequired_sendsNoFlexibleChecksumButContentMd5AndRoundTrips() throws IOException {
    try (S3Repository repository = repository(S3Options.Checksums.WHEN_REQUIRED)) {
      roundTrip(repository);
    }
    List<Request> requests = forwarder.requests();
    assertThat(requests).filteredOn(S3ChecksumsIT::isUploadPart).hasSizeGreaterThanOrEqualTo(5);
    assertThat(requests).noneMatch(S3ChecksumsIT::carriesFlexibleChecksum);
    assertThat(requests)
        .filteredOn(S3ChecksumsIT::isUpload)
        .hasSize(6) // one PutObject, and 3 + 2 parts
        .allMatch(r -> r.headers().containsKey("content-md5"));
  }

  @Test
  void put_whenWhenSupported_sendsFlexibleChecksumsOnEveryUploadAndRoundTrips() throws IOException {
    try (S3Repository repository = repository(S3Options.Checksums.WHEN_SUPPORTED)) {
      roundTrip(repository);
    }
    List<Request> uploads = forwarder.requests().stream().filter(S3ChecksumsIT::isUpload).toList();
    assertThat(uploads).hasSize(6).allMatch(S3ChecksumsIT::carriesFlexibleChecksum);
    assertThat(uploads).filteredOn(S3ChecksumsIT::isUploadPart).hasSize(5);
  }
}
