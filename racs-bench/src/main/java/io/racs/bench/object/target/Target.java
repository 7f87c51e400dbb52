package io.racs.bench.object.target;

import java.io.InputStream;
import java.time.Duration;
import java.util.Map;

/**
 * A system under test. Thread-safe; {@link #client(int)} gives each benchmark client its own
 * handle, which that client alone uses (for S3 endpoints a handle owns its own connection pool).
 * Every failure of the system under test is thrown as a {@link RuntimeException} (or an {@link
 * java.io.IOException} from a body stream) that {@link ErrorKinds#of(Throwable)} names.
 */
public interface Target extends AutoCloseable {
  /** The target's name in reports: the repository's name or the endpoint's label. */
  String name();

  /** {@code repository} or {@code endpoint}. */
  String kind();

  /** What the target is, without secrets, in a stable order. */
  Map<String, String> describe();

  /**
   * This target with {@code delay} of injected round-trip latency, or empty when the target cannot
   * take it (S3 endpoints: the delay would have to be added in the network, which the benchmark
   * does not do).
   */
  java.util.Optional<Target> withDelay(Duration delay);

  /** A handle for client number {@code index}; the caller closes it. */
  Client client(int index);

  /** Releases the target (not the handles, which their clients close). */
  @Override
  void close();

  /** One client's view of the target; not thread-safe. */
  interface Client extends AutoCloseable {
    /** Stores {@code lengthBytes} of {@code body} under {@code key}. */
    void put(String key, InputStream body, long lengthBytes);

    /**
     * Opens bytes {@code [offset, offset+lengthBytes)} of {@code key} ({@code lengthBytes} -1: to
     * the end). The caller reads and closes the stream.
     */
    InputStream get(String key, long offset, long lengthBytes);

    /** True when {@code key} exists. */
    boolean head(String key);

    /** Lists one page of at most {@code maxKeys} keys under {@code prefix}; returns the count. */
    int list(String prefix, int maxKeys);

    /** Removes {@code key}. */
    void delete(String key);

    @Override
    void close();
  }
}
