package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One run of the fault suite's script: a seeded load on a fresh prefix, healthy for a while, then a
 * fault injected under it (the operations while it is being injected judged apart), then lifted,
 * then every key read back and the prefix listed with no load running, each answer judged by a
 * fresh {@link AcknowledgedWrites} model. The phases last a number of finished operations, not a
 * time, so a slow machine runs them longer rather than thinner; each has a generous limit whose
 * passing means the load stopped making progress.
 */
final class FaultScenario {
  /** Concurrent clients: enough to keep several requests in flight through every fault. */
  static final int WORKERS = 6;

  static final int KEYS = 16;
  static final int HEALTHY_OPS = 20;
  static final int FAULT_OPS = 60;
  static final int RECOVERED_OPS = 20;

  /**
   * How long the proxy may take to use a repository again after its fault is lifted: it probes a
   * suspended repository at doubling intervals up to 15 s, and a restarted MinIO needs a moment.
   */
  static final Duration RECOVERY_LIMIT = Duration.ofSeconds(45);

  private static final Duration PHASE_LIMIT = Duration.ofSeconds(90);

  static final int CRASH_KEYS = 24;
  static final int CRASH_WRITERS = 16;

  /**
   * A fault the scenario injects under load and lifts afterwards; {@link #lift} also undoes a
   * partial {@link #inject} that failed half-way.
   */
  interface Fault {
    /** No fault: the scenario's load on a healthy array. */
    Fault NONE = of(() -> {}, () -> {});

    void inject() throws Exception;

    void lift() throws Exception;

    /** A fault of two steps. */
    static Fault of(Step inject, Step lift) {
      return new Fault() {
        @Override
        public void inject() throws Exception {
          inject.run();
        }

        @Override
        public void lift() throws Exception {
          lift.run();
        }
      };
    }
  }

  /** One step of a fault. */
  @FunctionalInterface
  interface Step {
    void run() throws Exception;
  }

  private FaultScenario() {}

  /**
   * Copies the logs of every proxy run in {@code proxyDir} (and below it) to {@code
   * target/fault-logs/NAME-*} (the test's temporary directory goes with the test), where a failed
   * run's report can point.
   */
  static void keepLogs(String name, Path proxyDir) throws IOException {
    Path logs = Files.createDirectories(Path.of("target", "fault-logs"));
    try (Stream<Path> files = Files.walk(proxyDir)) {
      for (Path log : files.filter(f -> f.toString().endsWith(".log")).toList()) {
        String relative = proxyDir.relativize(log).toString().replace('/', '-');
        Files.copy(log, logs.resolve(name + "-" + relative), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  /**
   * Runs the script under {@code name} (the key prefix) in {@code bucket} through {@code
   * endpoints}; returns the finished load for the caller's assertions, after asserting what holds
   * for every fault: no answer the model rejects, and every request answered before the client's
   * timeout.
   */
  static FaultLoad run(
      String name,
      List<ProxyProcess> proxies,
      String bucket,
      FaultLoad.Mix mix,
      long seed,
      Fault fault)
      throws Exception {
    return run(name, proxies, bucket, mix, seed, fault, Phases.DEFAULT);
  }

  /** How many operations each phase of a scenario runs for, at least. */
  record Phases(int healthy, int fault, int recovered) {
    /** The suite's: enough to see every fault take effect, few enough for its time budget. */
    static final Phases DEFAULT = new Phases(HEALTHY_OPS, FAULT_OPS, RECOVERED_OPS);
  }

  /** {@link #run(String, List, String, FaultLoad.Mix, long, Fault)} with phases of {@code ops}. */
  static FaultLoad run(
      String name,
      List<ProxyProcess> proxies,
      String bucket,
      FaultLoad.Mix mix,
      long seed,
      Fault fault,
      Phases ops)
      throws Exception {
    for (ProxyProcess proxy : proxies) {
      proxy.awaitNoneUnavailable(RECOVERY_LIMIT); // no fault of an earlier test still in effect
    }
    List<URI> endpoints = proxies.stream().map(ProxyProcess::endpoint).toList();
    AcknowledgedWrites model = new AcknowledgedWrites();
    FaultLoad load = new FaultLoad(endpoints, bucket, name + "/", KEYS, mix, seed, model);
    try (load) {
      load.populate();
      load.start(WORKERS);
      load.awaitOps(ops.healthy(), PHASE_LIMIT);
      // Operations while the fault is being injected (filling three disks takes a while under
      // load) are judged apart: the fault phase begins once the fault is wholly in effect.
      load.phase("injecting");
      try {
        fault.inject();
        load.phase("fault");
        load.awaitOps(ops.fault(), PHASE_LIMIT);
      } finally {
        fault.lift();
      }
      load.phase("recovered");
      load.awaitOps(ops.recovered(), PHASE_LIMIT);
      load.stop();
      load.verifyQuiescent(RECOVERY_LIMIT);
    } finally {
      System.out.println(name + ": " + load.summary());
    }
    load.assertNoWrongAnswer();
    load.assertNoTimeout();
    load.assertAllSucceeded("healthy");
    return load;
  }

  /** With at most m repositories affected, nothing fails and the load goes on through the fault. */
  static void assertUnaffected(FaultLoad load) {
    load.assertAllSucceeded("injecting");
    load.assertAllSucceeded("fault");
    load.assertAllSucceeded("recovered");
    assertThat(load.succeeded("fault", FaultLoad.Op.PUT)).as("PUTs during the fault").isPositive();
    assertThat(load.succeeded("fault", FaultLoad.Op.GET)).as("GETs during the fault").isPositive();
  }

  /**
   * With more than m repositories unable to take writes, writes fail with 503 (the fault took
   * effect: at least one did) or succeed, and {@code reads} (the statuses a GET or LIST may get)
   * hold for reads; until the proxy uses the repositories again, the same after the fault.
   */
  static void assertWritesRefused(FaultLoad load, Set<Integer> writeStatuses, Set<Integer> reads) {
    for (String phase : List.of("injecting", "fault", "recovered")) {
      load.assertFailuresOnly(
          phase,
          r ->
              (r.op() == FaultLoad.Op.PUT || r.op() == FaultLoad.Op.DELETE ? writeStatuses : reads)
                  .contains(r.status()));
    }
    assertThat(
            load.results("fault").stream()
                .filter(r -> r.op() == FaultLoad.Op.PUT && writeStatuses.contains(r.status()))
                .count())
        .as("PUTs refused during the fault (%s)", load.summary())
        .isPositive();
  }

  /**
   * Kills {@code proxy} (SIGKILL) in the middle of {@link #CRASH_WRITERS} concurrent PUT streams
   * over {@link #CRASH_KEYS} keys, restarts it from {@code config} in {@code proxyDir}, and checks
   * that every key reads back its last acknowledged body or one of the bodies whose PUT was cut
   * off, byte-exact, and lists; {@code rounds} times, at seeded points in the load. Then {@code
   * racs heal} over the same configuration must find nothing unrecoverable. Returns the running
   * proxy.
   */
  static ProxyProcess crash(
      ProxyProcess proxy, Path proxyDir, String config, String bucket, int rounds, long seed)
      throws Exception {
    Random random = new Random(seed);
    for (int round = 0; round < rounds; round++) {
      AcknowledgedWrites model = new AcknowledgedWrites();
      String prefix = "crash-" + round + "/";
      long killedAt;
      FaultLoad load =
          new FaultLoad(
              List.of(proxy.endpoint()),
              bucket,
              prefix,
              CRASH_KEYS,
              FaultLoad.Mix.PUT_ONLY,
              random.nextLong(),
              model);
      try (load) {
        load.populate();
        load.start(CRASH_WRITERS);
        // A seeded point in the load, after some PUTs were acknowledged, so that the kill falls
        // among PUTs at every stage of their work.
        load.awaitOps(10 + random.nextInt(40), PHASE_LIMIT);
        load.awaitPutInFlight(PHASE_LIMIT);
        killedAt = System.nanoTime();
        proxy.kill();
        load.stop();
      }
      long cutOff =
          load.results().stream()
              .filter(r -> r.status() < 0 && r.startedNanos() - killedAt < 0)
              .count();
      assertThat(cutOff).as("PUTs cut off by the kill (%s)", load.summary()).isPositive();
      proxy = FaultConfig.startProxy(proxyDir, config);
      FaultLoad after =
          new FaultLoad(
              List.of(proxy.endpoint()),
              bucket,
              prefix,
              CRASH_KEYS,
              FaultLoad.Mix.PUT_ONLY,
              0,
              model);
      try (after) {
        // A fresh proxy over healthy repositories: every key must read back at once.
        after.verifyQuiescent(Duration.ZERO);
      } finally {
        System.out.println(
            prefix + " " + load.summary() + "; after the restart: " + after.summary());
      }
      load.assertNoWrongAnswer();
    }
    Launcher.Result heal =
        Launcher.run(Map.of(), "heal", "--config", proxyDir.resolve("racs.yaml").toString());
    System.out.println("racs heal: " + heal.stdout());
    assertThat(heal.exitCode())
        .as("racs heal\nstdout:\n%s\nstderr:\n%s", heal.stdout(), heal.stderr())
        .isZero();
    assertThat(heal.stdout()).contains("unrecoverable objects: none");
    return proxy;
  }
}
