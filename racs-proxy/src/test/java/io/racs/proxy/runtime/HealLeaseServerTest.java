package io.racs.proxy.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.testing.TestArray;
import io.racs.testkit.DrivenClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves that two proxies without ZooKeeper over the same fs repositories, both with the background
 * scrub on, never scrub at once: each scrub runs only under the heal lease on the repositories, a
 * proxy whose lease another holds skips its scrub, and a finished scrub gives the lease back; the
 * collection of abandoned uploads is the lease holder's alone. The lifecycle scan, on by default
 * even without the scrub, runs under the same lease.
 */
class HealLeaseServerTest {
  @TempDir Path dir;
  private final List<RacsServer> servers = new ArrayList<>();
  private final List<ErasureStore> stores = new ArrayList<>();

  private final DrivenClock clock = new DrivenClock();

  @AfterEach
  void stop() {
    servers.forEach(RacsServer::close);
  }

  private RacsServer server(Duration scrubInterval) throws Exception {
    return server(scrubInterval, ServerConfig.DEFAULT_LIFECYCLE_INTERVAL);
  }

  private RacsServer server(Duration scrubInterval, Duration lifecycleInterval) throws Exception {
    ErasureStore store =
        TestArray.builder("4x2")
            .slowShardTimeout(Duration.ofSeconds(5))
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
                .withAdmin(null)
                .withScrubInterval(scrubInterval)
                .withLifecycleInterval(lifecycleInterval),
            AccessLog.off());
    servers.add(server);
    return server;
  }

  @Test
  void scrubOnce_whileAnotherProxyHoldsTheLease_skipsTheScrub() throws Exception {
    RacsServer a = server(Duration.ofHours(1));
    RacsServer b = server(Duration.ofHours(1));
    assertThat(a.lease().tryAcquire()).isTrue();

    assertThat(b.scrubOnce(0)).isNull();

    a.lease().release();
    assertThat(b.scrubOnce(0)).isNotNull();
    // b gave the lease back after its scrub: a takes it at once.
    assertThat(a.lease().tryAcquire()).isTrue();
    assertThat(b.scrubOnce(0)).isNull();
  }

  @Test
  void scrubOnce_ofTheLeaseHolderOnly_givesUpAbandonedUploads() throws Exception {
    RacsServer a = server(Duration.ofHours(1));
    RacsServer b = server(Duration.ofHours(1));
    stores.get(0).createBucket("bkt");
    String upload =
        stores.get(0).createMultipartUpload("bkt", "k", ObjectStore.PutOptions.defaults());
    clock.advance(Duration.ofDays(8));
    assertThat(a.lease().tryAcquire()).isTrue();

    assertThat(b.scrubOnce(0)).isNull();
    assertThat(b.lastUploads()).isNull();
    assertThat(stores.get(1).listMultipartUploads("bkt", "")).hasSize(1);

    assertThat(a.scrubOnce(0)).isNotNull();
    assertThat(a.lastUploads().abandoned()).containsExactly("bkt/k " + upload);
    assertThat(stores.get(1).listMultipartUploads("bkt", "")).isEmpty();
  }

  @Test
  void start_withoutTheScrubAndWithLifecycleOff_takesNoLease() throws Exception {
    RacsServer a = server(Duration.ZERO, Duration.ZERO);

    assertThat(a.lease()).isNull();
  }

  @Test
  void start_withoutTheScrub_takesPartInTheLeaseForTheLifecycleScan() throws Exception {
    RacsServer a = server(Duration.ZERO);
    RacsServer b = server(Duration.ZERO);
    assertThat(a.lease()).isNotNull();
    assertThat(a.lease().tryAcquire()).isTrue();

    assertThat(b.lifecycleOnce(0)).isNull();

    a.lease().release();
    assertThat(b.lifecycleOnce(0)).isNotNull();
  }
}
