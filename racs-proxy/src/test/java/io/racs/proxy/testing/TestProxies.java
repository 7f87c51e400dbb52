package io.racs.proxy.testing;

import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Real proxies for tests of several proxies over one array: each a {@link RacsServer} on 127.0.0.1
 * (S3 and admin on free ports) over its own view of the same six {@code fs} repository directories,
 * as separate proxy processes on one machine would be.
 */
public final class TestProxies {
  public static final String ACCESS = "test-access";
  public static final String SECRET = "test-secret-key";

  private TestProxies() {}

  /**
   * A proxy over the six repositories under {@code dir} (4x2, 16 KiB stripes, calls given up after
   * 5 s), coordinated as {@code coordination} says; {@link #ACCESS} and {@link #SECRET} sign.
   */
  public static RacsServer start(Path dir, CoordinationConfig coordination)
      throws IOException, InterruptedException {
    ErasureStore store =
        TestArray.builder("4x2")
            .blockBytes(16 << 10)
            .slowShardTimeout(Duration.ofSeconds(5))
            .fs(dir)
            .open()
            .store();
    return RacsServer.start(
        store,
        ServerConfig.defaults()
            .with("127.0.0.1:0", Map.of(ACCESS, SECRET))
            .withAdmin("127.0.0.1:0"),
        AccessLog.off(),
        coordination);
  }

  /**
   * A proxy over {@code store} with S3 and admin on free loopback ports, without coordination or
   * access log; {@link #ACCESS} and {@link #SECRET} sign (and sign in to the console).
   */
  public static RacsServer start(ErasureStore store) throws IOException, InterruptedException {
    return RacsServer.start(
        store,
        ServerConfig.defaults()
            .with("127.0.0.1:0", Map.of(ACCESS, SECRET))
            .withAdmin("127.0.0.1:0"));
  }
}
