package io.racs.e2e;

import io.racs.repos.minio.MinioServer;
import io.racs.repos.process.ServerProcess;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The faults the fault suite injects, each as real as this machine allows: a stalled process is
 * SIGSTOPped (its socket still accepts connections, nothing answers), a killed one gets SIGKILL, a
 * full disk is a small tmpfs filled to the last byte, a read-only disk is that tmpfs remounted
 * read-only, and a missing disk is a root directory renamed away. Mounting needs root
 * (CAP_SYS_ADMIN); {@link #canMount} says whether this machine allows it.
 */
final class Faults {
  private static final long COMMAND_TIMEOUT_SECONDS = 30;

  private Faults() {}

  /** {@code count} distinct slots of {@code n}, drawn from {@code random}, in ascending order. */
  static List<Integer> pick(Random random, int n, int count) {
    List<Integer> slots = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      slots.add(i);
    }
    Collections.shuffle(slots, random);
    List<Integer> picked = new ArrayList<>(slots.subList(0, count));
    Collections.sort(picked);
    return picked;
  }

  /** SIGSTOP: the server keeps its connections and its listening socket but answers nothing. */
  static void stall(MinioServer server) {
    run("kill", "-STOP", Long.toString(server.pid()));
  }

  /** SIGCONT: the stalled server carries on where it stopped. */
  static void resume(MinioServer server) {
    run("kill", "-CONT", Long.toString(server.pid()));
  }

  /**
   * SIGSTOP of an emulator and every process it forked (npm's launcher and Azurite, sshd and its
   * sessions): nothing of it answers, and its connections stay open. A child that ended between
   * being listed and being signalled (an sshd session closing) is no longer there to stop.
   */
  static void stallTree(ServerProcess process) {
    signalTree(process, "-STOP");
  }

  /** SIGCONT of what {@link #stallTree} stopped. */
  static void resumeTree(ServerProcess process) {
    signalTree(process, "-CONT");
  }

  private static void signalTree(ServerProcess process, String signal) {
    for (long pid : process.pids()) {
      Result r = exec("kill", signal, Long.toString(pid));
      boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
      if (r.exitCode() != 0 && alive) {
        throw new IllegalStateException(
            "kill " + signal + " " + pid + " exited " + r.exitCode() + ": " + r.output());
      }
    }
  }

  /** Whether this process may mount file systems (root with CAP_SYS_ADMIN, not in a jail). */
  static boolean canMount(Path scratch) {
    try {
      Path probe = Files.createDirectories(scratch.resolve("mount-probe"));
      Result r = exec("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.toString());
      if (r.exitCode() != 0) {
        return false;
      }
      run("umount", probe.toString());
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Mounts a tmpfs of {@code sizeBytes} on {@code dir}. */
  static void mountTmpfs(Path dir, long sizeBytes) {
    run("mount", "-t", "tmpfs", "-o", "size=" + sizeBytes, "tmpfs", dir.toString());
  }

  /** Unmounts {@code dir} (lazily: a proxy may still hold files open under it). */
  static void unmount(Path dir) {
    run("umount", "-l", dir.toString());
  }

  /**
   * Remounts the file system on {@code dir} read-only. The kernel refuses (EBUSY) while a file on
   * it is open for writing, which under load is most of the time, so this retries until a moment
   * comes when none is; the load's own requests end within the client timeout, so one comes.
   */
  static void remountReadOnly(Path dir) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(COMMAND_TIMEOUT_SECONDS);
    while (true) {
      Result r = exec("mount", "-o", "remount,ro", dir.toString());
      if (r.exitCode() == 0) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("cannot remount " + dir + " read-only: " + r.output());
      }
      // A retry of a kernel refusal; nothing here waits for the system under test.
      TimeUnit.MILLISECONDS.sleep(5);
    }
  }

  /** Remounts the file system on {@code dir} read-write. */
  static void remountReadWrite(Path dir) {
    run("mount", "-o", "remount,rw", dir.toString());
  }

  /**
   * Keeps the file system holding {@code filler} full until closed: fills it at once (so that the
   * fault is in place when this returns), then takes every byte that is freed (the proxy deletes
   * superseded versions, which would otherwise make room for the next write) within a few
   * milliseconds, as another process filling the disk would. Closing stops it and deletes the file.
   */
  static AutoCloseable fullDisk(Path filler) throws IOException {
    OutputStream out = Files.newOutputStream(filler);
    fill(out, filler);
    Thread hog =
        Thread.ofPlatform()
            .name("full-disk-" + filler.getParent().getFileName())
            .start(
                () -> {
                  while (!Thread.currentThread().isInterrupted()) {
                    try {
                      fill(out, filler);
                      // The pace of a disk hog, not a wait for anything under test.
                      TimeUnit.MILLISECONDS.sleep(2);
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                });
    return () -> {
      hog.interrupt();
      hog.join();
      out.close();
      Files.delete(filler);
    };
  }

  /** Writes to {@code out} until the file system refuses (ENOSPC), in ever smaller blocks. */
  private static void fill(OutputStream out, Path filler) {
    for (int block = 1 << 20; block >= 512; block /= 8) {
      byte[] bytes = new byte[block];
      try {
        while (true) {
          out.write(bytes);
          out.flush();
        }
      } catch (IOException e) {
        if (!String.valueOf(e.getMessage()).contains("No space left on device")) {
          throw new UncheckedIOException("filling " + filler, e);
        }
      }
    }
  }

  private record Result(int exitCode, String output) {}

  private static void run(String... command) {
    Result r = exec(command);
    if (r.exitCode() != 0) {
      throw new IllegalStateException(
          String.join(" ", command) + " exited " + r.exitCode() + ": " + r.output());
    }
  }

  private static Result exec(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getOutputStream().close();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not finish");
      }
      return new Result(p.exitValue(), output.strip());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
