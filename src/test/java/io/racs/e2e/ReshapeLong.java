package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.MinioExtension;
import io.racs.testkit.TestSeed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A geometry-only reshape (4x2 to 3x3 over the same six real MinIO servers) of a versioned bucket,
 * run by the proxy's own mover while several SDK v2 clients PUT, overwrite, DELETE, GET and LIST,
 * every answer judged by the model of acknowledged writes: {@code racs reshape status} says running
 * (3) and then complete (0), every version keeps its id, ETag, tags and bytes, every one is in the
 * new geometry ({@code racs reshape plan} over the new file finds nothing to move), a proxy on the
 * new file serves it and one on the old file refuses in one line. The same holds when the proxy is
 * killed (SIGKILL) at seeded moments of the move, its successor resuming from the checkpoint.
 *
 * <p>The proxies join an embedded ZooKeeper, so that the mover's fence ends once the one live proxy
 * has acknowledged the array record, not after the default 60 s. Each test prints its seed and
 * replays from {@code -Dracs.test.seed}; the interleaving of the load with the mover is the
 * machine's. {@code @Isolated}: the clients' 10 s timeout is a bound another class's load would
 * move.
 *
 * <p>Named without {@code IT}, so {@code ./racs test} does not run it: it takes about 7.5 minutes
 * on two quiet cores (the kill rounds 3.2, the load 4.2), a quarter of the suite's budget. {@code
 * scripts/reshape-long.sh} runs it and prints the mover's throughput and the client p99 by phase.
 * What CI runs of reshape is the unit suite (MoverTest and the rest) and ReshapeClientsIT.
 */
@Isolated
class ReshapeLong {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(FaultConfig.N);

  private static final Pattern PLANNED = Pattern.compile("to move: (\\d+) versions");
  private static final Duration PHASE_LIMIT = Duration.ofSeconds(90);
  private static final int KEYS = 16;
  private static final int LOAD_KEYS = 16;
  private static final int WORKERS = 4;

  private static TestingServer zookeeper;
  @TempDir static Path dir;
  private ReshapeArray array;

  @BeforeAll
  static void startZooKeeper() throws Exception {
    zookeeper = new TestingServer(true);
  }

  @AfterAll
  static void stopZooKeeper() throws Exception {
    if (zookeeper != null) {
      zookeeper.close();
    }
  }

  @AfterEach
  void stopProxy() throws Exception {
    if (array != null && array.proxy != null) {
      array.proxy.close();
      FaultScenario.keepLogs("ReshapeLong", array.dir);
    }
  }

  private ReshapeArray start(String name) throws Exception {
    array = ReshapeArray.start(dir, name, MINIO.servers(), zookeeper.getConnectString());
    return array;
  }

  private static S3Client client(ProxyProcess proxy) {
    return FaultLoad.client(proxy.endpoint());
  }

  /** The load on {@code load/} through {@code proxy}, judged by {@code model}. */
  private static FaultLoad load(ProxyProcess proxy, long seed, AcknowledgedWrites model) {
    return new FaultLoad(
        List.of(proxy.endpoint()),
        ReshapeArray.BUCKET,
        "load/",
        LOAD_KEYS,
        FaultLoad.Mix.MIXED,
        seed,
        model);
  }

  /** With no load running, every key of {@code load/} reads back as {@code model} allows. */
  private static void verifyQuiescent(ProxyProcess proxy, AcknowledgedWrites model)
      throws InterruptedException {
    try (FaultLoad after = load(proxy, 0, model)) {
      after.verifyQuiescent(Duration.ZERO);
      after.assertNoWrongAnswer();
    }
  }

  @Test
  void reshape_underConcurrentLoad_completesWithEveryVersionByteExactInTheNewGeometry()
      throws Exception {
    long seed = TestSeed.get();
    ReshapeArray a = start("under-load");
    List<ReshapeArray.SeenVersion> before;
    try (S3Client s3 = client(a.proxy)) {
      ReshapeArray.populate(s3, seed, KEYS);
      before = ReshapeArray.versions(s3, "pre/");
    }
    AcknowledgedWrites model = new AcknowledgedWrites();
    FaultLoad load = load(a.proxy, seed, model);
    MoverWatch mover;
    try (load) {
      load.populate();
      load.start(WORKERS);
      load.awaitOps(60, PHASE_LIMIT);
      load.phase("recorded");
      a.startReshape();
      assertThat(a.status().exitCode()).as("reshape status right after start").isEqualTo(3);
      a.awaitMover(moved -> moved >= 0, PHASE_LIMIT);
      load.phase("moving");
      mover = MoverWatch.watch(a);
      load.phase("complete");
      a.awaitComplete(ReshapeArray.MOVE_LIMIT);
      load.awaitOps(60, PHASE_LIMIT);
      load.stop();
      load.verifyQuiescent(Duration.ZERO);
    } finally {
      System.out.println("reshape under load (seed " + seed + "): " + load.summary());
    }
    System.out.println("mover: " + mover);
    load.assertNoWrongAnswer();
    load.assertNoTimeout();
    for (String phase : List.of("healthy", "recorded", "moving", "complete")) {
      load.assertAllSucceeded(phase);
    }
    assertThat(load.succeeded("moving", FaultLoad.Op.PUT)).as("PUTs during the move").isPositive();

    try (S3Client s3 = client(a.proxy)) {
      assertThat(ReshapeArray.versions(s3, "pre/")).isEqualTo(before);
      assertThat(ReshapeArray.versions(s3, "load/")).isNotEmpty(); // each one read back
    }
    Launcher.Result plan = ReshapeArray.reshape(a.to, "plan", "--to", a.to.toString());
    assertThat(plan.exitCode()).as("plan over the new file: %s", plan.stderr()).isZero();
    assertThat(plan.stdout()).contains(", to move: 0 (").contains("nothing to move");

    a.proxy.close();
    a.proxy = a.startProxy(a.to);
    try (S3Client s3 = client(a.proxy)) {
      assertThat(ReshapeArray.versions(s3, "pre/")).isEqualTo(before);
    }
    a.proxy.close();
    a.proxy = null;
    Launcher.Result old =
        Launcher.run(Map.of("RACS_NO_BUILD", "1"), "server", "--config", a.from.toString());
    String output = old.stdout() + old.stderr();
    assertThat(old.exitCode()).as("a proxy on the old file: %s", output).isNotZero();
    assertThat(output.lines())
        .as(output)
        .anySatisfy(
            line ->
                assertThat(line)
                    .contains("the array was reshaped to 3x3 over 6 repositories")
                    .contains("this file is 4x2 over 6: start with the new configuration"));
  }

  @Test
  void reshape_whenTheProxyIsKilledMidMove_resumesFromItsCheckpointAndLosesNothing()
      throws Exception {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    int rounds = 2;
    ReshapeArray a = start("killed");
    List<ReshapeArray.SeenVersion> before;
    try (S3Client s3 = client(a.proxy)) {
      ReshapeArray.populate(s3, seed, KEYS);
      before = ReshapeArray.versions(s3, "pre/");
    }
    AcknowledgedWrites model = new AcknowledgedWrites();
    Launcher.Result start = ReshapeArray.reshape(a.from, "start", "--to", a.to.toString());
    assertThat(start.exitCode()).as("reshape start: %s", start.stderr()).isZero();
    Matcher planned = PLANNED.matcher(start.stdout());
    assertThat(planned.find()).as(start.stdout()).isTrue();
    long total = Long.parseLong(planned.group(1));
    List<String> kills = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      FaultLoad load = load(a.proxy, random.nextLong(), model);
      long killedAt;
      try (load) {
        load.populate();
        load.start(WORKERS);
        long base = a.awaitMover(moved -> moved >= 0, PHASE_LIMIT);
        long more = 1 + random.nextInt((int) Math.max(1, total / (rounds + 1)));
        killedAt = a.awaitMover(moved -> moved >= base + more, PHASE_LIMIT);
        a.proxy.kill();
        load.stop();
      } finally {
        System.out.println("round " + round + " (seed " + seed + "): " + load.summary());
      }
      kills.add("killed at " + killedAt + " of " + total + " versions moved");
      load.assertNoWrongAnswer();
      a.proxy = a.startProxy(a.from);
      verifyQuiescent(a.proxy, model); // nothing acknowledged lost, nothing torn
    }
    System.out.println("kills: " + kills);
    assertThat(a.status().exitCode()).as("still running after the kills").isEqualTo(3);
    a.awaitComplete(ReshapeArray.MOVE_LIMIT);
    verifyQuiescent(a.proxy, model);
    try (S3Client s3 = client(a.proxy)) {
      assertThat(ReshapeArray.versions(s3, "pre/")).isEqualTo(before);
    }
    Launcher.Result plan = ReshapeArray.reshape(a.to, "plan", "--to", a.to.toString());
    assertThat(plan.stdout()).contains(", to move: 0 (");
  }

  /**
   * What the proxy's mover was seen to do, from its report polled while it moves: versions and
   * stored bytes moved, over the time from the first report that it moves to its last progress.
   */
  record MoverWatch(long versions, long bytes, long nanos) {
    private static final Pattern BYTES = Pattern.compile("\"bytesMoved\":(\\d+)");
    private static final Pattern VERSIONS = Pattern.compile("\"versionsMoved\":(\\d+)");

    /** Polls the proxy's report from now until the reshape is no longer running. */
    static MoverWatch watch(ReshapeArray a) throws Exception {
      long begin = System.nanoTime();
      long last = begin;
      long versions = 0;
      long bytes = 0;
      long deadline = begin + ReshapeArray.MOVE_LIMIT.toNanos();
      while (System.nanoTime() - deadline < 0) {
        String h = a.health();
        if (ReshapeArray.versionsMovedWhileMoving(h) < 0) {
          break; // no longer running, or the proxy's mover ended
        }
        Matcher b = BYTES.matcher(h);
        Matcher v = VERSIONS.matcher(h);
        if (b.find() && v.find()) {
          long nowBytes = Long.parseLong(b.group(1));
          if (nowBytes != bytes) {
            last = System.nanoTime();
          }
          bytes = nowBytes;
          versions = Long.parseLong(v.group(1));
        }
        java.util.concurrent.TimeUnit.MILLISECONDS.sleep(50); // a poll of the proxy's report
      }
      return new MoverWatch(versions, bytes, last - begin);
    }

    @Override
    public String toString() {
      double seconds = Math.max(1e-9, nanos / 1e9);
      return String.format(
          java.util.Locale.ROOT,
          "%d versions, %d stored bytes in %.2f s: %.1f MB/s, %.1f versions/s",
          versions,
          bytes,
          seconds,
          bytes / 1e6 / seconds,
          versions / seconds);
    }
  }
}
