package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.config.EncryptionConfig;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.MasterKey;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.testing.TestArray;
import io.racs.proxy.testing.TestClients;
import io.racs.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.s3.model.ServerSideEncryptionRule;

/**
 * Proves that what a proxy caches about a bucket is coherent across proxies coordinated by a real
 * in-process ZooKeeper (two RacsServers over the same fs repositories, AWS SDK clients): a bucket
 * default encryption set through one proxy seals a PUT through the other at once, and versioning
 * turned on through one proxy makes the other answer a PUT and an overwrite right after with
 * version ids and keep both, and a bucket policy put (and deleted) through one proxy judges the
 * next PUT through the other. Each second proxy first wrote to the bucket, so it had the old state
 * cached (for a second, before these changes were announced).
 */
class BucketCacheCoherenceTest {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";

  @TempDir Path dir;
  private TestingServer zookeeper;
  private final List<RacsServer> servers = new ArrayList<>();
  private final List<S3Client> clients = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    zookeeper = new TestingServer(true);
    Keyring keys = Keyring.of(MasterKey.generate());
    for (int p = 0; p < 2; p++) {
      ErasureStore store =
          TestArray.builder("4x2")
              .blockBytes(16 << 10)
              .slowShardTimeout(Duration.ofSeconds(5))
              .keys(keys)
              .fs(dir)
              .open()
              .store();
      RacsServer server =
          RacsServer.start(
              store,
              ServerConfig.defaults().with("127.0.0.1:0", Map.of(ACCESS, SECRET)).withAdmin(null),
              new EncryptionConfig(keys, false, false),
              AccessLog.off(),
              CoordinationConfig.of(zookeeper.getConnectString(), "p" + p));
      servers.add(server);
      clients.add(TestClients.s3(server.port(), ACCESS, SECRET));
    }
    Await.until(
        "both proxies see both members",
        () -> servers.stream().allMatch(s -> s.coordination().members().size() == 2));
  }

  @AfterEach
  void stop() throws Exception {
    clients.forEach(S3Client::close);
    servers.forEach(RacsServer::close);
    zookeeper.close();
  }

  private static PutObjectResponse put(S3Client s3, String bucket, String key, String text) {
    return s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(text));
  }

  @Test
  void putBucketEncryption_throughOneProxy_sealsThePutThroughTheOtherAtOnce() {
    S3Client a = clients.get(0);
    S3Client b = clients.get(1);
    a.createBucket(r -> r.bucket("enc"));
    assertThat(put(b, "enc", "before", "x").serverSideEncryption()).isNull();

    ServerSideEncryptionRule rule =
        ServerSideEncryptionRule.builder()
            .applyServerSideEncryptionByDefault(d -> d.sseAlgorithm(ServerSideEncryption.AES256))
            .build();
    a.putBucketEncryption(
        r -> r.bucket("enc").serverSideEncryptionConfiguration(c -> c.rules(rule)));
    PutObjectResponse after = put(b, "enc", "after", "sealed");

    assertThat(after.serverSideEncryption()).isEqualTo(ServerSideEncryption.AES256);
    assertThat(a.headObject(r -> r.bucket("enc").key("after")).serverSideEncryption())
        .isEqualTo(ServerSideEncryption.AES256);

    a.deleteBucketEncryption(r -> r.bucket("enc"));
    assertThat(put(b, "enc", "again", "plain").serverSideEncryption()).isNull();
  }

  @Test
  void putBucketVersioning_throughOneProxy_keepsBothVersionsOfAnOverwriteThroughTheOther() {
    S3Client a = clients.get(0);
    S3Client b = clients.get(1);
    a.createBucket(r -> r.bucket("ver"));
    assertThat(put(b, "ver", "warm", "x").versionId()).isNull();

    a.putBucketVersioning(
        r ->
            r.bucket("ver").versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
    String first = put(b, "ver", "k", "one").versionId();
    String second = put(b, "ver", "k", "two").versionId();

    assertThat(first).isNotNull().isNotEqualTo("null");
    assertThat(second).isNotNull().isNotEqualTo("null").isNotEqualTo(first);
    assertThat(a.listObjectVersions(r -> r.bucket("ver").prefix("k")).versions())
        .extracting(ObjectVersion::versionId)
        .containsExactlyInAnyOrder(first, second);
    assertThat(a.getObjectAsBytes(r -> r.bucket("ver").key("k").versionId(first)).asUtf8String())
        .isEqualTo("one");
  }

  @Test
  void putBucketPolicy_throughOneProxy_deniesThePutThroughTheOtherAtOnce() {
    S3Client a = clients.get(0);
    S3Client b = clients.get(1);
    a.createBucket(r -> r.bucket("pol"));
    put(b, "pol", "locked/warm", "x");

    a.putBucketPolicy(
        r ->
            r.bucket("pol")
                .policy(
                    """
                    {"Statement": [{"Effect": "Deny", "Principal": "*", "Action": "s3:PutObject",
                      "Resource": "arn:aws:s3:::pol/locked/*"}]}
                    """));
    software.amazon.awssdk.services.s3.model.S3Exception denied =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            software.amazon.awssdk.services.s3.model.S3Exception.class,
            () -> put(b, "pol", "locked/after", "no"));

    assertThat(denied).as("denied through the other proxy").isNotNull();
    assertThat(denied.awsErrorDetails().errorCode()).isEqualTo("AccessDenied");
    a.deleteBucketPolicy(r -> r.bucket("pol"));
    assertThat(put(b, "pol", "locked/again", "yes").eTag()).isNotNull();
  }
}
