package io.racs.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Proves the test kit runs real, independent MinIO servers: objects round-trip through the AWS SDK
 * v2, a stopped server fails requests while the other keeps serving, and a restarted server comes
 * back on the same endpoint with its data.
 */
class MinioExtensionIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(2);

  @Test
  void putGet_whenOneServerStoppedAndRestarted_failsThenServesAgain() {
    long seed = TestSeed.get();
    byte[] body = SeededBytes.bytes(seed, 256 * 1024 + 7);
    S3Client first = MINIO.client(0);
    S3Client second = MINIO.client(1);
    for (S3Client client : new S3Client[] {first, second}) {
      client.createBucket(b -> b.bucket("kit"));
      client.putObject(b -> b.bucket("kit").key("a/b"), RequestBody.fromBytes(body));
      assertThat(client.getObjectAsBytes(b -> b.bucket("kit").key("a/b")).asByteArray())
          .as("seed %d", seed)
          .isEqualTo(body);
    }
    assertThat(MINIO.server(0).endpoint()).isNotEqualTo(MINIO.server(1).endpoint());

    long pid = MINIO.server(0).pid();
    MINIO.server(0).stop();
    assertThat(ProcessHandle.of(pid)).isEmpty();
    assertThatThrownBy(() -> first.getObjectAsBytes(b -> b.bucket("kit").key("a/b")))
        .isInstanceOf(SdkClientException.class);
    assertThat(second.getObjectAsBytes(b -> b.bucket("kit").key("a/b")).asByteArray())
        .isEqualTo(body);

    MINIO.server(0).start();
    assertThat(first.getObjectAsBytes(b -> b.bucket("kit").key("a/b")).asByteArray())
        .isEqualTo(body);
  }

  @Test
  void kill_whenServerCrashes_restartKeepsAcknowledgedObjects() {
    S3Client client = MINIO.client(1);
    client.createBucket(b -> b.bucket("crash"));
    client.putObject(b -> b.bucket("crash").key("k"), RequestBody.fromString("durable"));
    MINIO.server(1).kill();
    assertThat(MINIO.server(1).isRunning()).isFalse();
    MINIO.server(1).start();
    assertThat(client.getObjectAsBytes(b -> b.bucket("crash").key("k")).asUtf8String())
        .isEqualTo("durable");
  }
}
