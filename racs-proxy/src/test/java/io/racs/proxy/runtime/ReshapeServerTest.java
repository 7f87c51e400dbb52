package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.reshape.ArrayRecords;
import io.racs.proxy.store.reshape.Mover;
import io.racs.proxy.testing.ReshapeRecords;
import io.racs.proxy.testing.TestArray;
import io.racs.testkit.DrivenClock;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves that proxies run a recorded reshape as background work: two proxies without ZooKeeper over
 * the same fs repositories, a reshape 4x2 -> 3x3 recorded; while another proxy holds the heal lease
 * a proxy neither moves nor scrubs, the scrub never runs while the reshape is running, and the
 * lease holder's mover completes it. {@code /metrics} and {@code /health/ready} show the reshape
 * running, then complete with the versions and bytes moved. Data comes from seed {@link #SEED}.
 */
class ReshapeServerTest {
  private static final long SEED = 3803;
  @TempDir Path dir;
  private final List<RacsServer> servers = new ArrayList<>();
  private final List<ErasureStore> stores = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();
  private final DrivenClock clock = new DrivenClock();

  @AfterEach
  void stop() {
    servers.forEach(RacsServer::close);
  }

  private RacsServer server() throws Exception {
    ErasureStore store =
        TestArray.builder("4x2")
            .blockBytes(4096)
            .slowShardTimeout(Duration.ofSeconds(5))
            .settleTime(Duration.ZERO)
            .clock(clock)
            .fs(dir)
            .open()
            .store();
    stores.add(store);
    RacsServer server =
        RacsServer.start(
            store,
            ServerConfig.defaults()
                .with("127.0.0.1:0", Map.of("access", "secret-key"))
                .withAdmin("127.0.0.1:0")
                .withScrubInterval(Duration.ofHours(1)),
            AccessLog.off());
    servers.add(server);
    return server;
  }

  private String admin(RacsServer server, String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.adminPort() + path))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** Writes {@code versions} objects of seeded sizes to a new bucket; returns their bytes. */
  private static long fill(ErasureStore store, int versions) {
    store.createBucket("bkt");
    Random random = new Random(SEED);
    System.out.println("ReshapeServerTest seed " + SEED);
    long bytes = 0;
    for (int i = 0; i < versions; i++) {
      byte[] data = new byte[1 + random.nextInt(20_000)];
      random.nextBytes(data);
      bytes += data.length;
      store.put(
          "bkt",
          "k" + i,
          new ByteArrayInputStream(data),
          data.length,
          ObjectStore.PutOptions.defaults());
    }
    return bytes;
  }

  @Test
  void reshapeOnce_ofTheLeaseHolder_movesInPlaceOfTheScrubAndReportsIt() throws Exception {
    RacsServer a = server();
    RacsServer b = server();
    ErasureStore store = stores.get(0);
    int versions = 5;
    fill(store, versions);
    assertThat(a.reshapeOnce()).as("no reshape recorded").isNull();
    assertThat(admin(a, "/health/ready")).contains("\"reshape\":{\"state\":\"none\"");
    ReshapeRecords.record4x2To3x3(store);

    assertThat(b.lease().tryAcquire()).isTrue();
    assertThat(a.reshapeOnce()).as("b holds the lease").isNull();
    assertThat(a.scrubOnce(0)).as("no scrub while a reshape runs").isNull();
    b.lease().release();
    assertThat(b.scrubOnce(0)).as("not even by the lease's next holder").isNull();
    assertThat(admin(a, "/metrics"))
        .contains("racs_reshape_running 1")
        .contains("racs_reshape_generation 1")
        .contains("racs_reshape_versions_moved 0");
    assertThat(admin(a, "/health/ready"))
        .contains("\"reshape\":{\"state\":\"running\",\"from\":\"4x2 over ")
        .contains("\"to\":\"3x3 over ")
        .contains("\"remaining\":\"unknown\",\"eta\":\"unknown\"");
    assertThat(admin(a, "/metrics")).doesNotContain("racs_reshape_versions_remaining");

    clock.advance(Duration.ofMinutes(2)); // past the fence: every proxy writes 3x3 by now
    Mover.Report report = a.reshapeOnce();

    assertThat(report).isNotNull();
    assertThat(report.outcome()).as(report.reason()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(report.versionsMoved()).isEqualTo(versions);
    assertThat(new ArrayRecords(stores.get(1)).current().orElseThrow().state())
        .isEqualTo(ArrayRecord.State.COMPLETE);
    assertThat(admin(a, "/metrics"))
        .contains("racs_reshape_running 0")
        .contains("racs_reshape_moving 0")
        .contains("racs_reshape_generation 1");
    assertThat(b.reshapeOnce()).as("nothing runs any more").isNull();
    assertThat(admin(b, "/health/ready")).contains("\"reshape\":{\"state\":\"complete\"");
  }

  @Test
  void reshapeOnce_whenFailed_neverRunsTheMoverAndReportsWhy() throws Exception {
    RacsServer a = server();
    ErasureStore store = stores.get(0);
    ReshapeRecords.record4x2To3x3(store);
    ArrayRecords records = new ArrayRecords(store);
    ArrayRecord running = records.current().orElseThrow();
    records.write(running.next(records.nextId(), ArrayRecord.State.FAILED, "bkt/k version v lost"));

    assertThat(a.reshapeOnce()).as("a failed reshape is not moved again").isNull();
    assertThat(a.scrubOnce(0)).as("nor does the scrub stand aside for it").isNotNull();
    assertThat(admin(a, "/metrics"))
        .contains("racs_reshape_running 0")
        .contains("racs_reshape_failed 1");
    assertThat(admin(a, "/health/ready"))
        .contains("\"reshape\":{\"state\":\"failed\",\"from\":\"4x2 over ")
        .contains("\"reason\":\"bkt/k version v lost\"");
  }

  @Test
  void metricsAndHealth_whenTotalsRecorded_sayWhatRemainsAndTheEta() throws Exception {
    RacsServer a = server();
    ErasureStore store = stores.get(0);
    long bytes = fill(store, 3);
    ReshapeRecords.record4x2To3x3(store, new ArrayRecord.Totals(3, bytes), 0.01);
    assertThat(a.scrubOnce(0)).as("reads the array record: no scrub, a reshape runs").isNull();

    assertThat(admin(a, "/metrics"))
        .contains("racs_reshape_versions_remaining 3.0\n")
        .contains("racs_reshape_bytes_remaining " + (double) bytes + "\n");
    // At the recorded 0.01 MB/s: 10,000 bytes a second.
    assertThat(admin(a, "/health/ready"))
        .contains(
            "\"remaining\":{\"versions\":3,\"bytes\":"
                + bytes
                + "},\"eta\":{\"seconds\":"
                + (bytes + 9_999) / 10_000
                + ",\"bytesPerSecond\":10000,\"rate\":\"recorded\"}");

    clock.advance(Duration.ofMinutes(2));
    Mover.Report report = a.reshapeOnce();

    assertThat(report.outcome()).as(report.reason()).isEqualTo(Mover.Outcome.COMPLETE);
    assertThat(admin(a, "/metrics"))
        .contains("racs_reshape_versions_remaining 0.0\n")
        .contains("racs_reshape_bytes_remaining 0.0\n");
  }
}
