package io.racs.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a process holds, read from Linux's {@code /proc}: its live threads, its open sockets, and
 * among them its TCP connections to each of some remote ports (a Toxiproxy link's port stands for
 * one repository), whatever their state. A connection whose far side reset it leaves the kernel's
 * table but keeps its descriptor until the process closes it, so the socket descriptors are counted
 * apart: a stream never closed after a reset shows there, not among the connections.
 */
record ProcessResources(int threads, int socketDescriptors, Map<Integer, Integer> connections) {
  /**
   * The Java process that {@code launcher} runs (the {@code racs} script waits for java as its
   * child when it filters java's standard error), or {@code launcher} itself when it is java.
   */
  static long javaOf(long launcher) {
    ProcessHandle handle =
        ProcessHandle.of(launcher)
            .orElseThrow(() -> new IllegalStateException("process " + launcher + ": not running"));
    return Stream.concat(Stream.of(handle), handle.descendants())
        .filter(h -> h.info().command().map(c -> c.endsWith("/java")).orElse(false))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("process " + launcher + ": no java in it"))
        .pid();
  }

  /** A snapshot of process {@code pid}'s threads and sockets, its connections to {@code ports}. */
  static ProcessResources of(long pid, List<Integer> ports) {
    Path proc = Path.of("/proc", Long.toString(pid));
    Set<Long> inodes = new HashSet<>();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(proc.resolve("fd"))) {
      for (Path fd : fds) {
        String target;
        try {
          target = Files.readSymbolicLink(fd).toString();
        } catch (NoSuchFileException e) {
          continue; // closed meanwhile
        }
        if (target.startsWith("socket:[")) {
          inodes.add(Long.parseLong(target.substring(8, target.length() - 1)));
        }
      }
      Map<Integer, Integer> connections = new LinkedHashMap<>();
      ports.forEach(p -> connections.put(p, 0));
      for (String table : List.of("tcp", "tcp6")) {
        List<String> lines = Files.readAllLines(proc.resolve("net").resolve(table));
        for (String line : lines.subList(1, lines.size())) {
          String[] f = line.trim().split("\\s+");
          int remotePort = Integer.parseInt(f[2].substring(f[2].indexOf(':') + 1), 16);
          if (connections.containsKey(remotePort) && inodes.contains(Long.parseLong(f[9]))) {
            connections.merge(remotePort, 1, Integer::sum);
          }
        }
      }
      return new ProcessResources(
          threads(proc), inodes.size(), Collections.unmodifiableMap(connections));
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + proc, e);
    }
  }

  private static int threads(Path proc) throws IOException {
    for (String line : Files.readAllLines(proc.resolve("status"))) {
      if (line.startsWith("Threads:")) {
        return Integer.parseInt(line.substring("Threads:".length()).trim());
      }
    }
    throw new IllegalStateException(proc + "/status: no Threads line");
  }

  /** The most of each count over {@code snapshots} (not empty), connection by connection. */
  static ProcessResources max(List<ProcessResources> snapshots) {
    Map<Integer, Integer> connections = new LinkedHashMap<>();
    int threads = 0;
    int sockets = 0;
    for (ProcessResources s : snapshots) {
      threads = Math.max(threads, s.threads);
      sockets = Math.max(sockets, s.socketDescriptors);
      s.connections.forEach((p, n) -> connections.merge(p, n, Math::max));
    }
    return new ProcessResources(threads, sockets, Collections.unmodifiableMap(connections));
  }

  /**
   * What of this snapshot exceeds {@code bound} by more than the slack, in words; empty when
   * nothing does.
   */
  List<String> excessOver(ProcessResources bound, int threadSlack, int connectionSlack) {
    List<String> excess = new ArrayList<>();
    if (threads > bound.threads + threadSlack) {
      excess.add("threads " + threads + " > " + bound.threads + " + " + threadSlack);
    }
    // Every connection holds a socket: the descriptors' bound grows with the connections' slack.
    int socketSlack = connectionSlack * Math.max(1, connections.size());
    if (socketDescriptors > bound.socketDescriptors + socketSlack) {
      excess.add(
          "socket descriptors "
              + socketDescriptors
              + " > "
              + bound.socketDescriptors
              + " + "
              + socketSlack);
    }
    connections.forEach(
        (port, n) -> {
          int limit = bound.connections.getOrDefault(port, 0) + connectionSlack;
          if (n > limit) {
            excess.add("connections to :" + port + " " + n + " > " + limit);
          }
        });
    return excess;
  }

  /** "threads T, sockets S, connections a/b/c" for the logs. */
  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "threads %d, socket descriptors %d, connections per link %s",
        threads,
        socketDescriptors,
        connections.values().stream().map(String::valueOf).collect(Collectors.joining("/")));
  }
}
