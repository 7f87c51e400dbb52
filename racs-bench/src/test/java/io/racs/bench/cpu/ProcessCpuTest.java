package io.racs.bench.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the sampler reads a {@code /proc} tree as the kernel writes it: a process counts with its
 * descendants and without unrelated processes, user and system time apart, threads grouped by name,
 * the CPU of a thread that ended between two samples kept as unattributed, a name with spaces and
 * parentheses parsed, a process gone before the second sample left out, and a process that is not
 * running refused in one line.
 */
class ProcessCpuTest {
  @TempDir Path proc;

  @Test
  void between_whenProcessesAndThreadsRan_countsDescendantsByGroup() throws IOException {
    process(10, 1, "racs", 100, 20);
    thread(10, 10, "java", 5, 0, 3);
    thread(10, 11, "C2 CompilerThre", 40, 0, 10);
    thread(10, 12, "nioEventLoopGro", 30, 10, 100);
    thread(10, 13, "short-lived", 25, 10, 7);
    process(11, 10, "java (child) x", 50, 50);
    thread(11, 11, "ForkJoinPool-1-", 50, 50, 20);
    process(12, 1, "unrelated", 900, 900);
    thread(12, 12, "GC Thread#0", 900, 900, 1);
    ProcessCpu cpu = ProcessCpu.over(proc, List.of(10L));
    ProcessCpu.Sample before = cpu.sample();

    process(10, 1, "racs", 200, 60); // +100 user, +40 system
    thread(10, 10, "java", 5, 0, 3);
    thread(10, 11, "C2 CompilerThre", 90, 0, 12); // +50
    thread(10, 12, "nioEventLoopGro", 50, 20, 150); // +30
    Files.walk(proc.resolve("10/task/13"))
        .sorted(java.util.Comparator.reverseOrder())
        .forEach(p -> p.toFile().delete()); // ended: its CPU is only in the process's total
    process(11, 10, "java (child) x", 70, 60); // +20 user, +10 system
    thread(11, 11, "ForkJoinPool-1-", 70, 60, 25); // +30
    process(12, 1, "unrelated", 5000, 5000);

    CpuUsage usage = ProcessCpu.between(before, cpu.sample());

    assertThat(usage.pids()).containsExactly(10L);
    assertThat(usage.userSeconds()).isCloseTo(1.20, within(1e-9));
    assertThat(usage.systemSeconds()).isCloseTo(0.50, within(1e-9));
    assertThat(usage.threadGroupSeconds())
        .containsEntry("jit", 0.50)
        .containsEntry("eventLoop", 0.30)
        .containsEntry("forkJoin", 0.30)
        .containsEntry("gc", 0.0)
        .containsEntry("other", 0.0);
    assertThat(usage.threadGroupSeconds().get("unattributed")).isCloseTo(0.60, within(1e-9));
    // 3 + 12 + 150 + 25 after, 3 + 10 + 100 + 7 + 20 before (the ended thread's are gone).
    assertThat(usage.contextSwitches()).isEqualTo(190 - 140);
  }

  @Test
  void between_whenAChildEndedBeforeTheSecondSample_leavesItOut() throws IOException {
    process(10, 1, "racs", 10, 0);
    process(11, 10, "java", 10, 0);
    ProcessCpu cpu = ProcessCpu.over(proc, List.of(10L));
    ProcessCpu.Sample before = cpu.sample();
    process(10, 1, "racs", 30, 0);
    Files.delete(proc.resolve("11/stat"));

    assertThat(ProcessCpu.between(before, cpu.sample()).userSeconds())
        .isCloseTo(0.20, within(1e-9));
  }

  @Test
  void requireRunning_whenAProcessIsNotRunning_namesItInOneLine() throws IOException {
    process(10, 1, "racs", 10, 0);
    assertThatThrownBy(() -> ProcessCpu.over(proc, List.of(10L, 99L)).requireRunning())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--sample-pid: 99 (expected: the id of a running process)");
    assertThatThrownBy(() -> ProcessCpu.over(proc, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void sample_ofThisProcess_readsTheRealProcTree() {
    long self = ProcessHandle.current().pid();
    ProcessCpu cpu = ProcessCpu.of(List.of(self)).requireRunning();
    ProcessCpu.Sample sample = cpu.sample();
    assertThat(sample.processTicks()).containsKey(self);
    assertThat(sample.threads()).isNotEmpty();
  }

  /** Writes /proc/PID/stat with utime and stime in ticks and PPID as the parent. */
  private void process(long pid, long ppid, String name, long utime, long stime)
      throws IOException {
    Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)).resolve("task"));
    Files.writeString(dir.resolveSibling("stat"), stat(pid, ppid, name, utime, stime));
  }

  private void thread(long pid, long tid, String name, long utime, long stime, long switches)
      throws IOException {
    Path dir = Files.createDirectories(proc.resolve(pid + "/task/" + tid));
    Files.writeString(dir.resolve("stat"), stat(tid, pid, name, utime, stime));
    Files.writeString(dir.resolve("comm"), name + "\n");
    Files.writeString(
        dir.resolve("status"),
        "Name:\t"
            + name
            + "\nvoluntary_ctxt_switches:\t"
            + (switches - 1)
            + "\nnonvoluntary_ctxt_switches:\t1\n");
  }

  /** A stat line in proc(5)'s layout: utime and stime are fields 14 and 15. */
  private static String stat(long pid, long ppid, String name, long utime, long stime) {
    return pid
        + " ("
        + name
        + ") S "
        + ppid
        + " 1 1 0 -1 4194560 100 0 0 0 "
        + utime
        + " "
        + stime
        + " 0 0 20 0 30 0 1000 1000000 100\n";
  }
}
