package io.racs.proxy.coord;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.testing.TestArray;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the coordination tests share: a real in-process ZooKeeper started before each test, six fs
 * repositories under a temporary directory, and proxies' stores over them, each of which may join
 * the ZooKeeper with its own {@link ZooKeeperCoordination}; all closed after the test.
 */
abstract class ProxiesOverZooKeeper {
  @TempDir Path dir;
  TestingServer zookeeper;
  final List<AutoCloseable> open = new ArrayList<>();

  @BeforeEach
  void startZooKeeper() throws Exception {
    zookeeper = new TestingServer(true);
    for (int i = 0; i < 6; i++) {
      Files.createDirectories(dir.resolve("r" + i));
    }
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
    zookeeper.close();
  }

  /** A proxy's store over the shared repositories. */
  ErasureStore store() {
    ErasureStore store =
        TestArray.builder("4x2").slowShardTimeout(Duration.ofSeconds(5)).fs(dir).open().store();
    open.add(store);
    return store;
  }

  /** {@code store} joins the ZooKeeper at {@code connect} as proxy {@code id}, and coordinates. */
  ZooKeeperCoordination join(ErasureStore store, String id, String connect) {
    ZooKeeperCoordination c =
        ZooKeeperCoordination.start(
            new ZooKeeperCoordination.Settings(
                connect, "racs", id, "127.0.0.1:" + id.hashCode(), Duration.ofSeconds(10)),
            store::bucketChanged,
            store::bucketsChanged);
    store.coordinate(c);
    store.coordinateLayout(c.layoutChanges());
    open.add(c);
    return c;
  }
}
