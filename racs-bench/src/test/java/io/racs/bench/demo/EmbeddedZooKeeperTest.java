package io.racs.bench.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the demo's embedded ZooKeeper runs with the bench's own class path (the server needs
 * classes the ZooKeeper client does not): it binds 127.0.0.1 on a port the system picked, keeps its
 * data under the given directory, serves a Curator client, and stops on close.
 */
class EmbeddedZooKeeperTest {
  @TempDir Path dir;

  @Test
  void start_whenGivenADirectory_servesCuratorOnLoopback_andKeepsItsDataThere() throws Exception {
    String connect;
    try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(dir.resolve("zk"))) {
      connect = zookeeper.connectString();
      assertThat(connect).matches("127\\.0\\.0\\.1:\\d+").isNotEqualTo("127.0.0.1:0");
      try (CuratorFramework client =
          CuratorFrameworkFactory.newClient(connect, 15_000, 5_000, new RetryOneTime(100))) {
        client.start();
        client
            .create()
            .creatingParentsIfNeeded()
            .forPath("/racs/probe", "x".getBytes(StandardCharsets.UTF_8));
        assertThat(new String(client.getData().forPath("/racs/probe"), StandardCharsets.UTF_8))
            .isEqualTo("x");
      }
      assertThat(dir.resolve("zk/data")).isDirectory().isNotEmptyDirectory();
    }
    // Closed: nothing listens on its port any more.
    int port = Integer.parseInt(connect.substring(connect.indexOf(':') + 1));
    try (java.net.Socket socket = new java.net.Socket()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 2_000))
          .isInstanceOf(java.net.ConnectException.class);
    }
  }
}
