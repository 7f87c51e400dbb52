package io.racs.proxy.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.testing.TestArray;
import io.racs.proxy.testing.TestClients;
import io.racs.repos.memory.MemoryRepository;
import io.racs.testkit.CountingRepository.Call;
import io.racs.testkit.CountingRepository.Kind;
import io.racs.testkit.CountingRepository.Ledger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.DeletedObject;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;

/**
 * DeleteObject and DeleteObjects (multi-object delete) through the S3 front end take the store's
 * plain DELETE: on a proxy that has read none of the keys, each key's index is listed once and its
 * marker written, and no record of a key is read (a round trip each over distant repositories); a
 * key with no version in an unversioned bucket is only listed. Two real S3 servers in one JVM over
 * the same six memory repositories, driven by the AWS SDK: one writes, the other (cold) deletes.
 */
class DeleteObjectsRoundsTest {
  private static final String ACCESS = "test-access";
  private static final String SECRET = "test-secret-key";
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final List<MemoryRepository> memories = new ArrayList<>();
  private final Ledger ledger = new Ledger(6);
  private final List<RacsServer> servers = new ArrayList<>();
  private final List<S3Client> clients = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    for (int i = 0; i < 6; i++) {
      memories.add(MemoryRepository.create("mem" + i));
    }
    for (int proxy = 0; proxy < 2; proxy++) {
      ErasureStore store = TestArray.builder("4x2").over(memories).counting(ledger).open().store();
      RacsServer server =
          RacsServer.start(
              store,
              ServerConfig.defaults().with("127.0.0.1:0", Map.of(ACCESS, SECRET)).withAdmin(null),
              AccessLog.off());
      servers.add(server);
      clients.add(TestClients.s3(server.port(), ACCESS, SECRET));
    }
  }

  @AfterEach
  void stop() {
    clients.forEach(S3Client::close);
    servers.forEach(RacsServer::close);
  }

  /** The calls on {@code key}'s index entries since the last reset, by kind. */
  private Map<Kind, Long> indexCalls(String bucket, String key) {
    String prefix = Layout.indexKeyPrefix(bucket, key);
    Map<Kind, Long> counts = new EnumMap<>(Kind.class);
    for (Call call : ledger.calls()) {
      if (call.key().startsWith(prefix)) {
        counts.merge(call.kind(), 1L, Long::sum);
      }
    }
    return counts;
  }

  @ParameterizedTest(name = "versioned: {0}")
  @ValueSource(booleans = {false, true})
  void deleteObjects_throughAColdProxy_listsEachKeyOnceAndWritesItsMarkerWithoutReadingIt(
      boolean versioned) throws Exception {
    S3Client writer = clients.get(0);
    S3Client deleter = clients.get(1);
    writer.createBucket(b -> b.bucket("bkt"));
    if (versioned) {
      writer.putBucketVersioning(
          b ->
              b.bucket("bkt")
                  .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
    }
    for (String key : List.of("a", "b", "c")) {
      writer.putObject(b -> b.bucket("bkt").key(key), RequestBody.fromString("value of " + key));
    }
    assertThat(ledger.awaitIdle(WAIT)).isTrue();
    ledger.reset();

    DeleteObjectsResponse response =
        deleter.deleteObjects(
            b ->
                b.bucket("bkt")
                    .delete(
                        d ->
                            d.objects(
                                ObjectIdentifier.builder().key("a").build(),
                                ObjectIdentifier.builder().key("b").build(),
                                ObjectIdentifier.builder().key("never").build())));
    deleter.deleteObject(b -> b.bucket("bkt").key("c"));
    // A versioned bucket gets a marker for the missing key too: four markers, else three.
    long markers = versioned ? 4 : 3;
    assertThat(ledger.awaitTotal(Kind.PUT, 6 * markers, WAIT)).as("marker PUTs").isTrue();

    assertThat(response.errors()).isEmpty();
    assertThat(response.deleted())
        .extracting(DeletedObject::key)
        .containsExactly("a", "b", "never");
    for (DeletedObject deleted : response.deleted()) {
      assertThat(deleted.deleteMarker()).as(deleted.key()).isEqualTo(versioned ? true : null);
    }
    Map<Kind, Long> marker = Map.of(Kind.LIST, 6L, Kind.PUT, 6L);
    for (String key : List.of("a", "b", "c")) {
      assertThat(indexCalls("bkt", key)).as("%s: %s", key, ledger.calls()).isEqualTo(marker);
    }
    assertThat(indexCalls("bkt", "never")).isEqualTo(versioned ? marker : Map.of(Kind.LIST, 6L));
    for (S3Client client : clients) {
      assertThat(client.listObjectsV2(b -> b.bucket("bkt")).contents()).isEmpty();
    }
  }
}
