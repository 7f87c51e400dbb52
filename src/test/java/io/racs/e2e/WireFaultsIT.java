package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.emulator.Toxic;
import io.racs.repos.emulator.Toxiproxy;
import io.racs.testkit.MinioExtension;
import io.racs.testkit.TestSeed;
import io.racs.testkit.ToxiproxyExtension;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The proxy process over six real MinIO servers (4x2), each reached through its own Toxiproxy link,
 * every link 20 ms ± 10 ms late each way, under the fault suite's seeded load of PUT, GET, DELETE
 * and LIST judged against the acknowledged writes: with m = 2 links 200 ms slower, with m links
 * limited to 1 MB/s each way, and with m links half-open (accepted, then silent both ways), every
 * request is answered, and answered correctly; with m + 1 links half-open, writes are refused with
 * 503 (reads answer or 503), each within {@link #STALL_DEADLINE}, and the array serves again once
 * the links are back.
 *
 * <p>The repositories' SDK settings are what the suite relies on: a 1 s connect timeout, a 5 s read
 * timeout, and one retry, which is what carries a call over a pooled connection that a link's reset
 * closed (see {@code S3WireFaultsIT}). Which links are afflicted comes from the printed seed, and
 * so do the load and Toxiproxy's jitter; the interleaving is the machine's. Each test prints GET
 * p50 and p99 per phase.
 *
 * <p>No connection or thread leaks: the proxy's live threads, its socket descriptors and its TCP
 * connections to each link, counted from {@code /proc} ({@link ResourceWatch}) while healthy,
 * during the fault and after it cleared, come back within a small slack of their healthy most once
 * the load stops.
 */
@Isolated
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WireFaultsIT {
  @RegisterExtension static final MinioExtension MINIO = MinioExtension.servers(FaultConfig.N);
  @RegisterExtension static final ToxiproxyExtension TOXIPROXY = new ToxiproxyExtension();

  /**
   * How soon a request that needs more than m half-open links must be refused. The design's goal is
   * about the stall grace (1 s here, docs/quorum.md); measured on a loaded 2-core machine, 503s
   * came after 1.7 s (median) to 2.8 s. The bound leaves room for a slower machine, and is still
   * half of what a request would wait if the proxy waited for the repositories' own read timeout (5
   * s, times 2 attempts) rather than its stall handling, or for the 30 s slow-shard timeout.
   */
  static final Duration STALL_DEADLINE = Duration.ofSeconds(5);

  /**
   * How long after the load stopped the proxy's threads and connections may take to come back to
   * their healthy counts: a call still in flight on a link that was slow ends within the read
   * timeout (5 s, twice with the retry), and the connections the pool opened during the fault
   * beyond its healthy count sit idle in it until the SDK's reaper closes them, 60 s after their
   * last use (Apache5HttpClient's default connectionMaxIdleTime). With 15 s, CI saw 38 pooled
   * connections on a link that had been half-open (healthy at most 11). A connection that is never
   * returned to the pool nor closed is not reaped, and still fails this.
   */
  private static final Duration LEAK_LIMIT = Duration.ofSeconds(75);

  private static WireArray array;

  @BeforeAll
  static void start() throws Exception {
    array = WireArray.start("WireFaultsIT", MINIO, TOXIPROXY);
  }

  @AfterAll
  static void stop() throws Exception {
    if (array != null) {
      array.close();
    }
  }

  /**
   * Every link late by 20 ms ± 10 ms each way (the extension took every toxic off after a test).
   */
  @BeforeEach
  void wan() {
    array.wan();
  }

  private static List<Toxiproxy.Proxy> victims(long seed, int count) {
    return array.victims(seed, count);
  }

  private static FaultScenario.Fault on(List<Toxiproxy.Proxy> links, Toxic... toxics) {
    return WireArray.on(links, toxics);
  }

  /**
   * Runs the fault scenario while {@link ResourceWatch} counts the proxy's threads and its
   * connections to each link, and after it checks that they came back to the healthy counts.
   */
  private static FaultLoad run(String name, long seed, FaultScenario.Fault fault) throws Exception {
    FaultLoad load;
    try (ResourceWatch watch = ResourceWatch.start(array.proxy().pid(), array.ports())) {
      FaultScenario.Fault watched =
          FaultScenario.Fault.of(
              () -> {
                watch.phase("fault");
                fault.inject();
              },
              () -> {
                fault.lift();
                watch.phase("cleared");
              });
      load =
          FaultScenario.run(
              name, List.of(array.proxy()), WireArray.BUCKET, FaultLoad.Mix.MIXED, seed, watched);
      watch.assertReturnedToHealthy(name, LEAK_LIMIT);
    }
    for (String phase : List.of("healthy", "fault", "recovered")) {
      System.out.println(
          name + " " + phase + " GET " + WireArray.percentiles(load, phase, FaultLoad.Op.GET));
    }
    return load;
  }

  @Test
  @Order(1)
  void mixedLoad_whenMLinksAre200MsSlower_answersEveryRequestCorrectly() throws Exception {
    long seed = TestSeed.get();
    Toxic slow = Toxic.latency(Duration.ofMillis(200), Duration.ZERO).named("slow");
    FaultScenario.assertUnaffected(
        run(
            "slow-m",
            seed,
            on(victims(seed, FaultConfig.M), slow, slow.upstream().named("slow_up"))));
  }

  @Test
  @Order(2)
  void mixedLoad_whenMLinksAreLimitedTo1MBps_answersEveryRequestCorrectly() throws Exception {
    long seed = TestSeed.get();
    Toxic narrow = Toxic.bandwidth(1000);
    FaultScenario.assertUnaffected(
        run("bandwidth-m", seed, on(victims(seed, FaultConfig.M), narrow, narrow.upstream())));
  }

  @Test
  @Order(3)
  void mixedLoad_whenMLinksAreHalfOpen_answersEveryRequestCorrectly() throws Exception {
    long seed = TestSeed.get();
    Toxic silent = Toxic.halfOpen();
    FaultScenario.assertUnaffected(
        run("half-open-m", seed, on(victims(seed, FaultConfig.M), silent, silent.upstream())));
  }

  /** Last: the proxy then probes the suspended repositories back at doubling intervals. */
  @Test
  @Order(4)
  void mixedLoad_whenMPlusOneLinksAreHalfOpen_answers503WithinTheStallDeadline() throws Exception {
    long seed = TestSeed.get();
    Toxic silent = Toxic.halfOpen();
    FaultLoad load =
        run("half-open-m1", seed, on(victims(seed, FaultConfig.M + 1), silent, silent.upstream()));
    FaultScenario.assertWritesRefused(load, Set.of(503), Set.of(503));
    long[] refusedMillis =
        load.results("fault").stream()
            .filter(r -> r.status() == 503)
            .mapToLong(r -> TimeUnit.NANOSECONDS.toMillis(r.latencyNanos()))
            .sorted()
            .toArray();
    System.out.println(
        "half-open-m1: 503 after p50 "
            + refusedMillis[(refusedMillis.length - 1) / 2]
            + " ms, max "
            + refusedMillis[refusedMillis.length - 1]
            + " ms (n "
            + refusedMillis.length
            + ")");
    String slowest =
        load.results("fault").stream()
            .filter(r -> r.status() == 503)
            .sorted((a, b) -> Long.compare(b.latencyNanos(), a.latencyNanos()))
            .limit(3)
            .map(
                r ->
                    r.op()
                        + " "
                        + r.key()
                        + " "
                        + TimeUnit.NANOSECONDS.toMillis(r.latencyNanos())
                        + " ms: "
                        + r.error())
            .toList()
            .toString();
    assertThat(refusedMillis[refusedMillis.length - 1])
        .as("longest wait for a 503, slowest %s (%s)", slowest, load.summary())
        .isLessThan(STALL_DEADLINE.toMillis());
  }
}
