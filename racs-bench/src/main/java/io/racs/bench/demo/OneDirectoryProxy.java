package io.racs.bench.demo;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.repos.fs.FsRepository;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a user would run instead of the array: one S3 endpoint over one directory. It is the same
 * proxy over a single fsynced directory (geometry 1x0: no parity, one file and its record per
 * object), so the demo's overhead ratio compares redundancy with no redundancy through the same
 * HTTP, SigV4 and checksum path, rather than the array against a directory written inside the
 * bench.
 */
final class OneDirectoryProxy implements AutoCloseable {
  static final String NAME = "one-dir";

  private final RacsServer server;

  private OneDirectoryProxy(RacsServer server) {
    this.server = server;
  }

  /** Starts it on a free loopback port over {@code dir}, accepting {@code credentials}. */
  static OneDirectoryProxy start(Path dir, Map<String, String> credentials)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    ErasureStore store =
        ErasureStore.open(
            StoreConfig.builder(Geometry.of(1, 0)).build(),
            List.of(FsRepository.builder(dir).name(NAME).build()));
    return new OneDirectoryProxy(
        RacsServer.start(
            store,
            ServerConfig.defaults().with("127.0.0.1:0", credentials).withAdmin(null),
            AccessLog.off()));
  }

  /** Its S3 endpoint. */
  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.port());
  }

  @Override
  public void close() {
    server.close(); // closes the store too
  }
}
