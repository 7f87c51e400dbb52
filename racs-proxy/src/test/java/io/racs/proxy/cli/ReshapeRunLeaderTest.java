package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.coord.ZooKeeperCoordination;
import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.store.ErasureStore;
import io.racs.testkit.Await;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves that {@code racs reshape run} with coordination configured runs the mover as the ZooKeeper
 * leader: alone it becomes the leader and completes the reshape; while a proxy of the array leads,
 * it fails in one line naming that leader and moves nothing.
 */
class ReshapeRunLeaderTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private TestingServer zookeeper;
  private Path current;

  @BeforeEach
  void array() throws Exception {
    zookeeper = new TestingServer(true);
    String array = "  blockSize: 4KiB\n  slowShardTimeout: 1s\n";
    current = FsArrayFiles.write(dir, "racs.yaml", "4x2", 6, array);
    Path target = FsArrayFiles.write(dir, "new.yaml", "3x3", 6, array);
    Files.writeString(
        current,
        "coordination:\n  zookeeper: "
            + zookeeper.getConnectString()
            + "\n  namespace: racs\n  sessionTimeout: 5s\n",
        java.nio.file.StandardOpenOption.APPEND);
    try (ErasureStore store = ArrayConfig.load(current).open()) {
      store.createBucket("bkt");
    }
    assertThat(racs("reshape", "start", "--config", current.toString(), "--to", target.toString()))
        .as(err.toString())
        .isZero();
  }

  @AfterEach
  void stop() throws IOException {
    zookeeper.close();
  }

  private int racs(String... args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    return RacsMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  @Test
  void run_whenAlone_leadsAndCompletes() {
    assertThat(racs("reshape", "run", "--fence", "0", "--config", current.toString()))
        .as(err.toString())
        .isZero();
    assertThat(out.toString()).contains("(ZooKeeper leader)").contains("reshape run: complete");
  }

  @Test
  void run_whenAProxyLeads_failsInOneLineNamingIt() throws Exception {
    ArrayConfig config = ArrayConfig.load(current);
    CoordinationConfig coordination = CoordinationConfig.from(config.file()).orElseThrow();
    try (ErasureStore store = config.open();
        ZooKeeperCoordination proxy =
            RacsServer.join(store, coordination, "proxy-a:9000", "proxy-a:9000")) {
      Await.until("proxy-a leads", proxy::leader);

      assertThat(racs("reshape", "run", "--config", current.toString()))
          .isEqualTo(ExitCodes.FAILURE);
      assertThat(err.toString().strip())
          .startsWith("racs reshape run: the ZooKeeper leader proxy-a:9000 runs the mover")
          .doesNotContain("\n");
    }
    assertThat(racs("reshape", "status", "--config", current.toString()))
        .isEqualTo(ExitCodes.RUNNING);
  }
}
