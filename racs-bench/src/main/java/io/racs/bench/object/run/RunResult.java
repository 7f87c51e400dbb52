package io.racs.bench.object.run;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything one {@code bench object} run measured, in the order it ran: targets, points, ratios
 * and notes. The report writers turn it into JSON, CSV, HdrHistogram logs, HTML and a console
 * table.
 */
public final class RunResult {
  /** When the run started. */
  public final Instant startedAt;

  /** When the run finished (set at the end). */
  public Instant finishedAt;

  /** The plan that ran. */
  public final Plan plan;

  /** The targets, in index order. */
  public final List<Engine.TargetInfo> targets;

  /** The command line, for the record. */
  public final List<String> command;

  /** The agents that ran the load ({@code host:port}), empty when it ran in this process. */
  public final List<String> agents = new ArrayList<>();

  /** Every point, in the order its first iteration ran. */
  public final List<PointResult> points = new ArrayList<>();

  /** Run-wide notes: targets without delay injection, lost agents, saturated clients. */
  public final List<String> notes = new ArrayList<>();

  /** Ratios, computed at the end. */
  public final List<Ratios.Row> ratios = new ArrayList<>();

  /** A run that starts now. */
  public RunResult(Plan plan, List<Engine.TargetInfo> targets, List<String> command) {
    this.startedAt = Instant.now();
    this.plan = plan;
    this.targets = List.copyOf(targets);
    this.command = List.copyOf(command);
  }
}
