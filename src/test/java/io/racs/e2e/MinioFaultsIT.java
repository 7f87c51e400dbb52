package io.racs.e2e;

import io.racs.repos.minio.MinioServer;
import io.racs.testkit.MinioExtension;
import io.racs.testkit.TestSeed;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The proxy process over six real MinIO servers (4x2) under a concurrent load of PUT, GET, DELETE
 * and LIST, with servers killed (SIGKILL) mid-load, m = 2 of them and then m + 1: no answer is ever
 * one the acknowledged writes rule out (a wrong body, a 404 for a key whose last acknowledged write
 * was a PUT, a listing without an acknowledged key), no request waits anywhere near the slow-shard
 * timeout (every one is answered within the clients' 10 s, against a 30 s slow-shard timeout and a
 * 1 s stall grace), with m affected nothing fails at all, and with m + 1 a write fails with 503
 * (see {@link #WRITE_REFUSED}) and a read, if at all, with 503. A proxy killed with SIGKILL mid-PUT
 * loses no acknowledged write and shows no torn one after a restart, and {@code racs heal} then
 * finds nothing unrecoverable.
 *
 * <p>Every test prints its seed (which servers, which operations, which bodies) and replays from
 * {@code -Dracs.test.seed}; the interleaving of the load with the fault is the machine's.
 */
@Isolated
class MinioFaultsIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(FaultConfig.N);
  private static final String REPOSITORY_BUCKET = "racs";
  private static final String BUCKET = "faults";

  /**
   * What a write ends in with more than m servers out: 503 ServiceUnavailable, read by the client
   * even when the proxy refused the PUT before reading its body (the proxy reads the rest of such a
   * body before it closes the connection, rather than reset it under the client).
   */
  private static final Set<Integer> WRITE_REFUSED = Set.of(503);

  @TempDir static Path dir;
  private static Path proxyDir;
  private static String config;
  private static ProxyProcess proxy;

  @BeforeAll
  static void start() throws Exception {
    for (int i = 0; i < FaultConfig.N; i++) {
      MINIO.client(i).createBucket(b -> b.bucket(REPOSITORY_BUCKET));
    }
    config = FaultConfig.minio(MINIO.servers(), REPOSITORY_BUCKET);
    proxyDir = Files.createDirectories(dir.resolve("proxy"));
    proxy = FaultConfig.startProxy(proxyDir, config);
    try (S3Client s3 = FaultLoad.client(proxy.endpoint())) {
      s3.createBucket(b -> b.bucket(BUCKET));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (proxy != null) {
      proxy.close();
      FaultScenario.keepLogs("MinioFaultsIT", proxyDir);
    }
  }

  private static List<MinioServer> victims(long seed, int count) {
    return Faults.pick(new Random(seed), FaultConfig.N, count).stream().map(MINIO::server).toList();
  }

  private static FaultScenario.Fault kill(List<MinioServer> servers) {
    return FaultScenario.Fault.of(
        () -> servers.forEach(MinioServer::kill), () -> servers.forEach(MinioServer::start));
  }

  private static FaultScenario.Fault stall(List<MinioServer> servers) {
    return FaultScenario.Fault.of(
        () -> servers.forEach(Faults::stall), () -> servers.forEach(Faults::resume));
  }

  private static FaultLoad run(String name, long seed, FaultScenario.Fault fault) throws Exception {
    return FaultScenario.run(name, List.of(proxy), BUCKET, FaultLoad.Mix.MIXED, seed, fault);
  }

  @Test
  void mixedLoad_whenMRepositoriesAreKilled_failsNothing() throws Exception {
    long seed = TestSeed.get();
    FaultScenario.assertUnaffected(run("kill-m", seed, kill(victims(seed, FaultConfig.M))));
  }

  @Test
  void mixedLoad_whenMPlusOneRepositoriesAreKilled_answers503() throws Exception {
    long seed = TestSeed.get();
    FaultLoad load = run("kill-m1", seed, kill(victims(seed, FaultConfig.M + 1)));
    FaultScenario.assertWritesRefused(load, WRITE_REFUSED, Set.of(503));
  }

  @Test
  void mixedLoad_whenMRepositoriesStall_failsNothing() throws Exception {
    long seed = TestSeed.get();
    FaultScenario.assertUnaffected(run("stall-m", seed, stall(victims(seed, FaultConfig.M))));
  }

  @Test
  void mixedLoad_whenMPlusOneRepositoriesStall_answers503() throws Exception {
    long seed = TestSeed.get();
    FaultLoad load = run("stall-m1", seed, stall(victims(seed, FaultConfig.M + 1)));
    FaultScenario.assertWritesRefused(load, WRITE_REFUSED, Set.of(503));
  }

  /**
   * Two proxies over the one array, every repository healthy, clients spread over both, PUTs
   * overwriting the same keys while GETs read them: each proxy collects what its own commits
   * superseded, under the other's readers, and no reader may see "no such key" or an older body for
   * it.
   */
  @Test
  void overwrites_throughTwoProxies_neverAnswerWrongly() throws Exception {
    long seed = TestSeed.get();
    Path secondDir = Files.createDirectories(dir.resolve("second-proxy"));
    try (ProxyProcess second = FaultConfig.startProxy(secondDir, config)) {
      FaultLoad load =
          FaultScenario.run(
              "two-proxies",
              List.of(proxy, second),
              BUCKET,
              FaultLoad.Mix.OVERWRITE,
              seed,
              FaultScenario.Fault.NONE);
      FaultScenario.assertUnaffected(load);
    } finally {
      FaultScenario.keepLogs("MinioFaultsIT-second", secondDir);
    }
  }

  @Test
  void puts_whenTheProxyIsKilledMidPut_loseNothingAcknowledgedAndTearNothing() throws Exception {
    proxy = FaultScenario.crash(proxy, proxyDir, config, BUCKET, 1, TestSeed.get());
  }
}
