package io.racs.proxy.store.stripe;

import io.racs.repos.ObjectInfo;
import io.racs.repos.Repository;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A bounded hand-off of shard pieces from the encoding thread to the thread running one
 * repository's {@code put}, which reads this pipe as its body. At most {@code capacity} pieces wait
 * in it, so a PUT holds a few stripes of memory whatever the object size, and backpressure from a
 * slow repository reaches the encoder.
 *
 * <p>Either side can give up: {@link #abort} makes the reader fail (so the repository stores
 * nothing), and {@link #readerFailed} makes later {@link #offer}s return false at once.
 *
 * <p>The reader only ever copies out of a piece (or has it written by {@link #transferTo}), so once
 * it has moved past one the piece is handed to the {@code consumed} callback (a pool), and the
 * writer must not touch a piece it has offered.
 */
final class ShardPipe extends InputStream {
  /** The end marker: offering it ends the body. */
  static final byte[] END = new byte[0];

  private static final byte[] EMPTY = new byte[0];

  private final ArrayBlockingQueue<byte[]> queue;
  private final Consumer<byte[]> consumed;
  private final Runnable took;
  private volatile String abortReason;
  private volatile boolean readerFailed;
  private byte[] current = EMPTY;
  private int position;
  private boolean ended;

  ShardPipe(int capacity) {
    this(capacity, piece -> {}, () -> {});
  }

  /**
   * A pipe that hands every piece its reader has finished to {@code consumed}, and runs {@code
   * took} each time its reader takes a piece (so a writer waiting on several pipes learns that one
   * has room).
   */
  ShardPipe(int capacity, Consumer<byte[]> consumed, Runnable took) {
    this.queue = new ArrayBlockingQueue<>(capacity + 1);
    this.consumed = consumed;
    this.took = took;
  }

  /**
   * Hands over a piece, waiting at most {@code timeoutNanos} for room.
   *
   * @return false when the reader has failed or did not take a piece in time
   */
  boolean offer(byte[] piece, long timeoutNanos) throws InterruptedException {
    if (readerFailed || abortReason != null) {
      return false;
    }
    return queue.offer(piece, timeoutNanos, TimeUnit.NANOSECONDS) && !readerFailed;
  }

  /** Marks the end of the body. */
  boolean finish(long timeoutNanos) throws InterruptedException {
    return offer(END, timeoutNanos);
  }

  /** Makes the reader fail with {@code reason}; the repository then stores nothing. */
  void abort(String reason) {
    abortReason = reason;
    queue.clear();
    queue.offer(END);
  }

  /**
   * Stores this pipe's body as {@code name} on {@code repository}: the reading side, run on the
   * thread that serves the repository. When the put fails the writer stops feeding the pipe ({@link
   * #readerFailed}), and the failure is rethrown.
   */
  ObjectInfo putInto(Repository repository, String name, long lengthBytes) {
    try {
      return repository.put(name, this, lengthBytes);
    } catch (RuntimeException e) {
      readerFailed();
      throw e;
    }
  }

  /** Called by the reading side when its put failed: the writer stops feeding it. */
  void readerFailed() {
    readerFailed = true;
    queue.clear();
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(len, current.length - position);
    System.arraycopy(current, position, b, off, n);
    position += n;
    return n;
  }

  /**
   * Writes the pieces themselves to {@code out} (no copy into a reader's buffer), each handed to
   * the {@code consumed} callback once {@code out} has returned from writing it: {@code out} must
   * not keep the array, as no {@code OutputStream} should.
   */
  @Override
  public long transferTo(OutputStream out) throws IOException {
    long total = 0;
    while (fill()) {
      int n = current.length - position;
      out.write(current, position, n);
      position = current.length;
      total += n;
    }
    return total;
  }

  /**
   * Makes {@code current} a piece with bytes left to read, giving back the one used up.
   *
   * @return false at the end of the body
   */
  private boolean fill() throws IOException {
    while (position == current.length) {
      if (current != EMPTY) {
        consumed.accept(current); // copied out entirely: the writer's pool may reuse it
        current = EMPTY;
        position = 0;
      }
      if (ended) {
        return false;
      }
      byte[] next;
      try {
        next = queue.take();
        took.run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
      if (abortReason != null) {
        throw new IOException("write aborted: " + abortReason);
      }
      if (next == END) {
        ended = true;
        return false;
      }
      current = next;
      position = 0;
    }
    return true;
  }
}
