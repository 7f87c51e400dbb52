package io.racs.proxy.s3.server;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the server's access log goes: one line per request, appended to a file by a writer thread
 * of its own, so that an event-loop thread never waits for the disk. It only queues the line; when
 * the queue is full (a disk far slower than the requests), lines are dropped and counted, and the
 * next line written says how many. Thread-safe. {@link #close()} writes what is queued and closes
 * the file.
 *
 * <p>The lines come from {@link AccessLogHandler}, which decides what a line holds (never a header,
 * query string or signature).
 */
public final class AccessLog implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AccessLog.class);

  private static final int QUEUE_LINES = 65_536;
  // Compared by identity: no line the handler records is this object.
  private static final String STOP = new String("stop");

  private static final AccessLog OFF = new AccessLog();

  /** How many of the latest lines {@link #recent()} keeps for the console. */
  public static final int RECENT_LINES = 500;

  private final ArrayDeque<String> recent = new ArrayDeque<>();

  private final BlockingQueue<String> queue;
  private final Writer out;
  private final Thread writer;
  private final AtomicLong dropped = new AtomicLong();
  private final Path file;
  private volatile boolean closed;

  private AccessLog() {
    this.queue = null;
    this.out = null;
    this.writer = null;
    this.file = null;
  }

  private AccessLog(Writer out, Path file) {
    this.queue = new ArrayBlockingQueue<>(QUEUE_LINES);
    this.out = out;
    this.file = file;
    this.writer = Thread.ofPlatform().daemon().name("access-log").unstarted(this::drain);
    this.writer.start();
  }

  /** No access log. */
  public static AccessLog off() {
    return OFF;
  }

  /**
   * An access log appended to {@code file} (created with its directories when missing).
   *
   * @throws IOException when the file cannot be opened for appending
   */
  public static AccessLog toFile(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Writer w =
        Files.newBufferedWriter(
            file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    return new AccessLog(w, file);
  }

  /** An access log written to {@code out} (tests). */
  static AccessLog to(Writer out) {
    return new AccessLog(new BufferedWriter(out), null);
  }

  /** Whether lines are written at all. */
  public boolean enabled() {
    return queue != null;
  }

  /** The file written, or null when off or not a file. */
  public Path file() {
    return file;
  }

  /** Queues one line (without its line break); never blocks. */
  void record(String line) {
    if (queue == null || closed) {
      return;
    }
    synchronized (recent) {
      if (recent.size() == RECENT_LINES) {
        recent.removeFirst();
      }
      recent.addLast(line);
    }
    if (!queue.offer(line)) {
      dropped.incrementAndGet();
    }
  }

  /**
   * The latest lines, oldest first, at most {@link #RECENT_LINES}, kept in memory for the admin
   * console whether or not the file keeps up; empty when the log is off.
   */
  public List<String> recent() {
    synchronized (recent) {
      return List.copyOf(recent);
    }
  }

  private void drain() {
    List<String> batch = new ArrayList<>();
    try {
      while (true) {
        batch.add(queue.take());
        queue.drainTo(batch);
        long lost = dropped.getAndSet(0);
        if (lost > 0) {
          out.write("# access log: " + lost + " lines dropped (the log could not keep up)\n");
        }
        for (String line : batch) {
          if (line == STOP) {
            out.flush();
            return;
          }
          out.write(line);
          out.write('\n');
        }
        out.flush();
        batch.clear();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // The server goes on without its access log rather than failing requests over it.
      LOG.error("access log {} stopped: {}", file != null ? file : "", e.toString());
    }
  }

  /** Writes every queued line, then closes the file. */
  @Override
  public void close() {
    if (queue == null || closed) {
      return;
    }
    closed = true;
    try {
      queue.put(STOP);
      writer.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
