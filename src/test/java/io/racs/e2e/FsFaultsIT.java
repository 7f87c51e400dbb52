package io.racs.e2e;

import static org.assertj.core.api.Assumptions.assumeThat;

import io.racs.testkit.TestSeed;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The proxy process over six local directories (4x2), each on a file system of its own (a 48 MiB
 * tmpfs), under a concurrent load of PUT, GET, DELETE and LIST, with disks made full (filled to the
 * last byte), read-only (remounted) or missing (the root renamed away) mid-load, m = 2 of them and
 * then m + 1: no answer is ever one the acknowledged writes rule out, every request is answered
 * within the clients' timeout, with m affected nothing fails, and with m + 1 full or read-only the
 * writes fail with 503 (see {@link #WRITE_REFUSED}) while reads and listings, which every disk can
 * still serve, go on. A proxy killed with SIGKILL mid-PUT loses nothing acknowledged and tears
 * nothing, and {@code racs heal} then finds nothing unrecoverable.
 *
 * <p>The file systems are real, so mounting them needs root (CAP_SYS_ADMIN); where that is not
 * allowed, the full and read-only tests are reported as skipped with the reason (the proxy cannot
 * be given a fault decorator while it runs). Every test prints its seed and replays from {@code
 * -Dracs.test.seed}.
 */
@Isolated
class FsFaultsIT {
  private static final String BUCKET = "faults";
  private static final long DISK_BYTES = 48L << 20;

  /**
   * What a write ends in when more than m repositories cannot take it: 503 ServiceUnavailable, read
   * by the client even when the proxy refused the PUT before reading its body (the proxy reads the
   * rest of such a body before it closes the connection, rather than reset it under the client).
   */
  private static final Set<Integer> WRITE_REFUSED = Set.of(503);

  /** As {@link #WRITE_REFUSED}, or 507 Insufficient Storage, the status that names a full disk. */
  private static final Set<Integer> WRITE_REFUSED_FULL = Set.of(503, 507);

  @TempDir static Path dir;
  private static final List<Path> mounts = new ArrayList<>();
  private static final List<Path> roots = new ArrayList<>();
  private static boolean mounted;
  private static Path proxyDir;
  private static String config;
  private static ProxyProcess proxy;

  @BeforeAll
  static void start() throws Exception {
    mounted = Faults.canMount(dir);
    for (int i = 0; i < FaultConfig.N; i++) {
      Path mount = Files.createDirectories(dir.resolve("disk-" + i));
      if (mounted) {
        Faults.mountTmpfs(mount, DISK_BYTES);
      }
      mounts.add(mount);
      roots.add(Files.createDirectories(mount.resolve("root")));
    }
    config = FaultConfig.fs(roots);
    proxyDir = Files.createDirectories(dir.resolve("proxy"));
    proxy = FaultConfig.startProxy(proxyDir, config);
    try (S3Client s3 = FaultLoad.client(proxy.endpoint())) {
      s3.createBucket(b -> b.bucket(BUCKET));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (proxy != null) {
        proxy.close();
        FaultScenario.keepLogs("FsFaultsIT", proxyDir);
      }
    } finally {
      if (mounted) {
        mounts.forEach(Faults::unmount);
      }
    }
  }

  private static List<Integer> victims(long seed, int count) {
    return Faults.pick(new Random(seed), FaultConfig.N, count);
  }

  private static void assumeMounts() {
    assumeThat(mounted)
        .as("mounting a tmpfs needs root with CAP_SYS_ADMIN; this machine refused it")
        .isTrue();
  }

  private static FaultScenario.Fault full(List<Integer> slots) {
    List<AutoCloseable> disks = new ArrayList<>();
    return new FaultScenario.Fault() {
      @Override
      public void inject() throws Exception {
        for (int slot : slots) {
          disks.add(Faults.fullDisk(mounts.get(slot).resolve("filler")));
        }
      }

      @Override
      public void lift() throws Exception {
        for (AutoCloseable disk : disks) {
          disk.close();
        }
      }
    };
  }

  private static FaultScenario.Fault readOnly(List<Integer> slots) {
    return new FaultScenario.Fault() {
      @Override
      public void inject() throws Exception {
        for (int slot : slots) {
          Faults.remountReadOnly(mounts.get(slot));
        }
      }

      @Override
      public void lift() {
        slots.forEach(slot -> Faults.remountReadWrite(mounts.get(slot)));
      }
    };
  }

  private static FaultScenario.Fault missing(List<Integer> slots) {
    List<Integer> moved = new ArrayList<>();
    return new FaultScenario.Fault() {
      @Override
      public void inject() throws Exception {
        for (int slot : slots) {
          Files.move(roots.get(slot), roots.get(slot).resolveSibling("away"));
          moved.add(slot);
        }
      }

      @Override
      public void lift() throws Exception {
        for (int slot : moved) {
          Files.move(roots.get(slot).resolveSibling("away"), roots.get(slot));
        }
        moved.clear();
      }
    };
  }

  private static FaultLoad run(String name, long seed, FaultScenario.Fault fault) throws Exception {
    return FaultScenario.run(name, List.of(proxy), BUCKET, FaultLoad.Mix.MIXED, seed, fault);
  }

  @Test
  void mixedLoad_whenMDisksAreFull_failsNothing() throws Exception {
    assumeMounts();
    long seed = TestSeed.get();
    FaultScenario.assertUnaffected(run("full-m", seed, full(victims(seed, FaultConfig.M))));
  }

  @Test
  void mixedLoad_whenMPlusOneDisksAreFull_refusesWritesAndServesReads() throws Exception {
    assumeMounts();
    long seed = TestSeed.get();
    FaultLoad load = run("full-m1", seed, full(victims(seed, FaultConfig.M + 1)));
    FaultScenario.assertWritesRefused(load, WRITE_REFUSED_FULL, Set.of());
  }

  @Test
  void mixedLoad_whenMDisksAreReadOnly_failsNothing() throws Exception {
    assumeMounts();
    long seed = TestSeed.get();
    FaultScenario.assertUnaffected(run("ro-m", seed, readOnly(victims(seed, FaultConfig.M))));
  }

  @Test
  void mixedLoad_whenMPlusOneDisksAreReadOnly_refusesWritesAndServesReads() throws Exception {
    assumeMounts();
    long seed = TestSeed.get();
    FaultLoad load = run("ro-m1", seed, readOnly(victims(seed, FaultConfig.M + 1)));
    FaultScenario.assertWritesRefused(load, WRITE_REFUSED, Set.of());
  }

  @Test
  void mixedLoad_whenMRootsGoMissing_failsNothing() throws Exception {
    long seed = TestSeed.get();
    FaultScenario.assertUnaffected(run("missing-m", seed, missing(victims(seed, FaultConfig.M))));
  }

  /**
   * m + 1 roots gone: a read quorum of listings still answers, but no object has k shards left, so
   * reads fail with 503 as writes do, and nothing is ever answered from the three that remain as if
   * the others held nothing (no 404 for an acknowledged key, no short listing, no older body).
   */
  @Test
  void mixedLoad_whenMPlusOneRootsGoMissing_answers503() throws Exception {
    long seed = TestSeed.get();
    FaultLoad load = run("missing-m1", seed, missing(victims(seed, FaultConfig.M + 1)));
    FaultScenario.assertWritesRefused(load, WRITE_REFUSED, Set.of(503));
  }

  @Test
  void puts_whenTheProxyIsKilledMidPut_loseNothingAcknowledgedAndTearNothing() throws Exception {
    proxy = FaultScenario.crash(proxy, proxyDir, config, BUCKET, 2, TestSeed.get());
  }
}
