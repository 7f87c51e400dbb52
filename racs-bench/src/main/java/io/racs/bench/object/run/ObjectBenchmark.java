package io.racs.bench.object.run;

import io.racs.bench.cpu.ProcessCpu;
import io.racs.bench.object.workload.Content;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.Op;
import io.racs.bench.object.workload.SizeSpec;
import io.racs.bench.stats.ClientCpu;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs a {@link Plan} on an {@link Engine}: for each workload and size, prepares every target's key
 * space; for each delay and client count, runs warmup and measured iterations with the targets
 * interleaved round-robin; cleans up; then computes the ratios.
 */
public final class ObjectBenchmark {
  private final Engine engine;
  private final Plan plan;
  private final Progress progress;
  private ProcessCpu sampler;

  /** A benchmark of {@code plan} on {@code engine}, reporting progress to {@code progress}. */
  public ObjectBenchmark(Engine engine, Plan plan, Progress progress) {
    this.engine = engine;
    this.plan = plan;
    this.progress = progress;
  }

  /**
   * Samples the CPU of {@code sampler}'s processes over every measured iteration ({@code
   * --sample-pid}); null samples nothing.
   */
  public ObjectBenchmark sampling(ProcessCpu sampler) {
    this.sampler = sampler;
    return this;
  }

  /** Runs the whole plan. */
  public RunResult run(List<String> command) throws InterruptedException {
    List<Engine.TargetInfo> targets = engine.targets();
    RunResult result = new RunResult(plan, targets, command);
    String runId = Long.toString(Instant.now().toEpochMilli(), 36);
    for (Engine.TargetInfo t : targets) {
      if (!t.delayable() && plan.delays().stream().anyMatch(d -> !d.isZero())) {
        result.notes.add(
            t.name()
                + ": delay injection is not applied to S3 endpoint targets; only the 0ms points"
                + " were measured for it");
      }
    }
    progress.planned(plannedIterations(targets));
    long seed = plan.template().seed();
    for (Mix mix : plan.mixes()) {
      for (SizeSpec size : plan.sizes()) {
        String casePrefix =
            plan.template().prefix() + runId + "/" + mix.label() + "-" + size.label() + "/";
        Workload sized =
            new Workload(
                    mix,
                    size,
                    plan.template().keys(),
                    plan.template().range(),
                    plan.template().objects(),
                    plan.template().prefixes(),
                    casePrefix,
                    1,
                    plan.template().rateOpsPerSecond(),
                    plan.template().arrivals(),
                    plan.template().duration(),
                    plan.template().count(),
                    plan.template().verify(),
                    seed,
                    plan.template().listMaxKeys(),
                    plan.template().prefixPerClient())
                .withSize(size, casePrefix);
        boolean pureDelete = mix.isSingle() && mix.single() == Op.DELETE;
        boolean needsObjects = !(mix.isSingle() && mix.single() == Op.PUT) && !pureDelete;
        // With a key space per client, the case's key spaces serve every client count of the
        // sweep: client i keeps the same keys whether 1 or 16 clients run.
        Workload prepared =
            sized.prefixPerClient()
                ? sized.withClients(
                    plan.clients().stream().mapToInt(Integer::intValue).max().orElse(1))
                : sized;
        for (int t = 0; t < targets.size(); t++) {
          progress.phase("preparing " + targets.get(t).name() + " " + casePrefix);
          if (needsObjects) {
            engine.prepare(t, casePrefix, prepared);
          } else {
            engine.declare(t, casePrefix, prepared);
          }
        }
        try {
          for (Duration delay : plan.delays()) {
            for (int clients : plan.clients()) {
              runCase(result, sized.withClients(clients), delay, casePrefix, pureDelete);
            }
          }
        } finally {
          if (plan.cleanUp()) {
            for (int t = 0; t < targets.size(); t++) {
              progress.phase("cleaning up " + targets.get(t).name());
              try {
                engine.cleanUp(t, casePrefix);
              } catch (IllegalStateException e) {
                // Objects left behind do not invalidate what was measured; say so instead.
                result.notes.add("objects may be left under " + casePrefix + ": " + e.getMessage());
              }
            }
          }
        }
      }
    }
    result.ratios.addAll(Ratios.compute(result.points, plan.overhead()));
    result.notes.addAll(engine.notes());
    for (PointResult p : result.points) {
      p.warning().ifPresent(w -> result.notes.add(p.id() + ": " + w));
    }
    for (PointResult p : result.points) {
      if (p.maxCpuUtilisation() > ClientCpu.SATURATED) {
        result.notes.add(
            String.format(
                Locale.ROOT,
                "%s: client CPU reached %.0f%%; the load generator may be the bottleneck",
                p.id(),
                100 * p.maxCpuUtilisation()));
      }
    }
    result.finishedAt = Instant.now();
    return result;
  }

  /**
   * The iterations the plan runs, warmup ones included, as {@link #runCase} runs them: each case at
   * each delay and client count, on each target a delay applies to.
   */
  private long plannedIterations(List<Engine.TargetInfo> targets) {
    long perDelay = 0;
    for (Duration delay : plan.delays()) {
      perDelay +=
          delay.isZero()
              ? targets.size()
              : targets.stream().filter(Engine.TargetInfo::delayable).count();
    }
    return (long) plan.mixes().size()
        * plan.sizes().size()
        * perDelay
        * plan.clients().size()
        * (plan.warmup() + plan.iterations());
  }

  private void runCase(
      RunResult result, Workload workload, Duration delay, String casePrefix, boolean pureDelete)
      throws InterruptedException {
    List<Engine.TargetInfo> targets = engine.targets();
    List<PointResult> points = new ArrayList<>();
    List<Integer> active = new ArrayList<>();
    for (int t = 0; t < targets.size(); t++) {
      if (!delay.isZero() && !targets.get(t).delayable()) {
        continue;
      }
      PointResult point =
          new PointResult(
              targets.get(t).name(), targets.get(t).kind(), workload, delay, plan.confidence());
      points.add(point);
      active.add(t);
      result.points.add(point);
    }
    int total = plan.warmup() + plan.iterations();
    for (int i = 0; i < total; i++) {
      for (int k = 0; k < active.size(); k++) {
        int t = active.get(k);
        PointResult point = points.get(k);
        boolean warm = i < plan.warmup();
        progress.phase(
            String.format(
                Locale.ROOT,
                "%s %s %d/%d",
                point.id(),
                warm ? "warmup" : "iteration",
                warm ? i + 1 : i - plan.warmup() + 1,
                warm ? plan.warmup() : plan.iterations()));
        String prefix = casePrefix;
        if (pureDelete) {
          prefix = casePrefix + "pool-c" + workload.clients() + "-i" + i + "/";
          engine.prepare(t, prefix, workload);
        }
        long seed = Content.mix(workload.seed() + 1_000_003L * i + 7919L * t);
        ProcessCpu.Sample before = warm || sampler == null ? null : sampler.sample();
        IterationResult r = engine.iterate(t, prefix, workload, delay, seed, progress);
        progress.iterationDone();
        if (before != null) {
          r.sampledCpu = ProcessCpu.between(before, sampler.sample());
        }
        if (pureDelete) {
          if (workload.count() == 0
              && r.isValid()
              && r.windowSeconds() < 0.9 * workload.duration().toNanos() / 1e9) {
            point.notes.add(
                "iteration "
                    + (i + 1)
                    + ": the pool of "
                    + workload.objects()
                    + (workload.prefixPerClient() ? " objects per client" : " objects")
                    + " ran out before --duration ended (raise --objects)");
          }
          try {
            engine.cleanUp(t, prefix);
          } catch (IllegalStateException e) {
            result.notes.add("objects may be left under " + prefix + ": " + e.getMessage());
          }
        }
        if (!warm) {
          if (!r.isValid()) {
            point.notes.add(
                "iteration " + (i - plan.warmup() + 1) + " excluded: " + r.invalidReason);
          }
          point.iterations.add(r);
        }
      }
    }
    for (PointResult p : points) {
      List<String> distinct = p.notes.stream().distinct().toList();
      p.notes.clear();
      p.notes.addAll(distinct);
    }
  }
}
