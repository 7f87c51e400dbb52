package io.racs.bench.cpu;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Samples the CPU of a set of processes and all their descendants from a {@code /proc} tree: per
 * process its user and system time (which keeps the time of its threads that have ended), per live
 * thread its time and name, and the context switches of every thread. Two samples give a {@link
 * CpuUsage}. A process that is gone when sampled is left out of that sample, not an error: a
 * launcher's child may end at any time.
 */
public final class ProcessCpu {
  /**
   * The unit of {@code /proc/PID/stat}'s times: the kernel's USER_HZ, 100 on every architecture
   * Linux runs a JVM on (it is a fixed part of the kernel's ABI, not the scheduler's tick).
   */
  static final double TICKS_PER_SECOND = 100;

  private final Path proc;
  private final List<Long> pids;

  private ProcessCpu(Path proc, List<Long> pids) {
    this.proc = proc;
    this.pids = List.copyOf(pids);
  }

  /** A sampler of {@code pids} and their descendants on this machine's {@code /proc}. */
  public static ProcessCpu of(List<Long> pids) {
    return over(Path.of("/proc"), pids);
  }

  /** A sampler over the {@code /proc} tree at {@code proc} (tests give a tree of their own). */
  static ProcessCpu over(Path proc, List<Long> pids) {
    if (pids.isEmpty()) {
      throw new IllegalArgumentException("pids: [] (expected: at least one process id)");
    }
    return new ProcessCpu(proc, pids);
  }

  /** The processes sampled, as given (descendants are found at each sample). */
  public List<Long> pids() {
    return pids;
  }

  /** Whether any of the processes given is still running. */
  public boolean anyRunning() {
    for (long pid : pids) {
      if (Files.isReadable(proc.resolve(Long.toString(pid)).resolve("stat"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether every process given is running now: a sampler of a process that has already ended would
   * record zero CPU and look like a measurement.
   *
   * @throws IllegalArgumentException naming the first process that is not running
   */
  public ProcessCpu requireRunning() {
    for (long pid : pids) {
      if (!Files.isReadable(proc.resolve(Long.toString(pid)).resolve("stat"))) {
        throw new IllegalArgumentException(
            "--sample-pid: " + pid + " (expected: the id of a running process)");
      }
    }
    return this;
  }

  /**
   * One reading of the processes' counters.
   *
   * @param pids the processes asked for (their descendants are in the other fields)
   * @param processTicks user and system ticks by process id
   * @param threads each live thread by "pid/tid"
   * @param contextSwitches the live threads' context switches so far
   */
  public record Sample(
      List<Long> pids,
      Map<Long, long[]> processTicks,
      Map<String, Thread> threads,
      long contextSwitches) {}

  /**
   * A live thread.
   *
   * @param ticks its CPU ticks so far
   * @param name its name (the first 15 bytes, which the kernel keeps)
   */
  public record Thread(long ticks, String name) {}

  /** Reads the counters now. */
  public Sample sample() {
    Map<Long, long[]> processes = new LinkedHashMap<>();
    Map<String, Thread> threads = new HashMap<>();
    long switches = 0;
    for (long pid : withDescendants()) {
      Path dir = proc.resolve(Long.toString(pid));
      long[] times = times(dir.resolve("stat"));
      if (times == null) {
        continue;
      }
      processes.put(pid, times);
      for (Path task : list(dir.resolve("task"))) {
        long[] t = times(task.resolve("stat"));
        if (t != null) {
          threads.put(pid + "/" + task.getFileName(), new Thread(t[0] + t[1], comm(task)));
        }
        switches += contextSwitches(task.resolve("status"));
      }
    }
    return new Sample(pids, processes, threads, switches);
  }

  /** What the processes used between two samples of this sampler. */
  public static CpuUsage between(Sample before, Sample after) {
    long user = 0;
    long system = 0;
    for (Map.Entry<Long, long[]> e : after.processTicks().entrySet()) {
      long[] was = before.processTicks().getOrDefault(e.getKey(), new long[2]);
      user += e.getValue()[0] - was[0];
      system += e.getValue()[1] - was[1];
    }
    Map<ThreadGroup, Long> groups = new LinkedHashMap<>();
    for (ThreadGroup g : ThreadGroup.values()) {
      groups.put(g, 0L);
    }
    long grouped = 0;
    for (Map.Entry<String, Thread> e : after.threads().entrySet()) {
      Thread was = before.threads().get(e.getKey());
      long ticks = e.getValue().ticks() - (was == null ? 0 : was.ticks());
      groups.merge(ThreadGroup.of(e.getValue().name()), ticks, Long::sum);
      grouped += ticks;
    }
    Map<String, Double> seconds = new LinkedHashMap<>();
    groups.forEach((g, ticks) -> seconds.put(g.label(), ticks / TICKS_PER_SECOND));
    // Threads that ended between the samples are only in their process's total.
    seconds.put("unattributed", (user + system - grouped) / TICKS_PER_SECOND);
    return new CpuUsage(
        after.pids(),
        user / TICKS_PER_SECOND,
        system / TICKS_PER_SECOND,
        Math.max(0, after.contextSwitches() - before.contextSwitches()),
        seconds);
  }

  /** The given processes and, breadth first, every process whose parent is among them. */
  private Set<Long> withDescendants() {
    Map<Long, List<Long>> children = new HashMap<>();
    for (Path dir : list(proc)) {
      String name = dir.getFileName().toString();
      if (!name.chars().allMatch(Character::isDigit)) {
        continue;
      }
      long ppid = parent(dir.resolve("stat"));
      if (ppid >= 0) {
        children.computeIfAbsent(ppid, k -> new ArrayList<>()).add(Long.parseLong(name));
      }
    }
    Set<Long> all = new LinkedHashSet<>();
    Deque<Long> queue = new ArrayDeque<>(pids);
    while (!queue.isEmpty()) {
      long pid = queue.poll();
      if (all.add(pid)) {
        queue.addAll(children.getOrDefault(pid, List.of()));
      }
    }
    return all;
  }

  /**
   * The fields of a stat file after the command name, which is in parentheses and may hold spaces
   * and parentheses itself; null when the file is gone or not in the kernel's format.
   */
  private static String[] fields(Path stat) {
    try {
      String s = Files.readString(stat);
      int close = s.lastIndexOf(')');
      return close < 0 ? null : s.substring(close + 1).strip().split(" +");
    } catch (IOException e) {
      return null;
    }
  }

  /** utime and stime (fields 14 and 15 of proc(5)), or null. */
  private static long[] times(Path stat) {
    String[] f = fields(stat);
    if (f == null || f.length < 13) {
      return null;
    }
    try {
      return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The parent's id (field 4 of proc(5)), or -1. */
  private static long parent(Path stat) {
    String[] f = fields(stat);
    try {
      return f == null || f.length < 2 ? -1 : Long.parseLong(f[1]);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static String comm(Path task) {
    try {
      return Files.readString(task.resolve("comm")).strip();
    } catch (IOException e) {
      return "";
    }
  }

  private static long contextSwitches(Path status) {
    long sum = 0;
    try {
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith("voluntary_ctxt_switches:")
            || line.startsWith("nonvoluntary_ctxt_switches:")) {
          sum += Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
        }
      }
    } catch (IOException | NumberFormatException e) {
      // A thread that ended while being read adds nothing.
    }
    return sum;
  }

  private static List<Path> list(Path dir) {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
      stream.forEach(entries::add);
    } catch (IOException e) {
      // A process that ended while being read has no tasks left to count.
    }
    return entries;
  }
}
