package io.racs.repos.emulator;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * One fault that Toxiproxy applies to every connection of a proxy, existing and new, until it is
 * removed: its name (unique per proxy), its type, the direction it acts on, the share of
 * connections it affects, and its type's attributes (milliseconds, bytes or KB/s, as Toxiproxy
 * takes them). Built with the static factories, which name each toxic after its type and direction;
 * {@link #named} and {@link #upstream()} change that.
 *
 * @param name the toxic's name within its proxy
 * @param type Toxiproxy's type, e.g. {@code latency}
 * @param stream which bytes it acts on
 * @param toxicity the probability that a connection is affected, 0 to 1
 * @param attributes the type's attributes
 */
public record Toxic(
    String name, String type, Stream stream, double toxicity, Map<String, Long> attributes) {
  /** Which bytes of a connection a toxic acts on. */
  public enum Stream {
    /** From the client to the server: requests and their bodies. */
    UPSTREAM,
    /** From the server to the client: responses and their bodies (the default). */
    DOWNSTREAM;

    String json() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Checks the toxic. */
  public Toxic {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("name: empty (expected: a toxic name)");
    }
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(stream, "stream");
    if (!(toxicity >= 0 && toxicity <= 1)) {
      throw new IllegalArgumentException("toxicity: " + toxicity + " (expected: 0 to 1)");
    }
    attributes = Map.copyOf(attributes);
  }

  private static Toxic of(String type, Map<String, Long> attributes) {
    return new Toxic(type + "_downstream", type, Stream.DOWNSTREAM, 1, attributes);
  }

  /** Every chunk of data delayed by {@code latency}, give or take up to {@code jitter}. */
  public static Toxic latency(Duration latency, Duration jitter) {
    return of("latency", Map.of("latency", millis(latency), "jitter", millis(jitter)));
  }

  /** At most {@code kilobytesPerSecond} KB (1,000 bytes) a second. */
  public static Toxic bandwidth(long kilobytesPerSecond) {
    if (kilobytesPerSecond < 1) {
      throw new IllegalArgumentException(
          "kilobytesPerSecond: " + kilobytesPerSecond + " (expected: >= 1)");
    }
    return of("bandwidth", Map.of("rate", kilobytesPerSecond));
  }

  /**
   * The connection reset (TCP RST, as a crash or a middlebox would) {@code after} the toxic takes
   * effect on it; zero resets at once.
   */
  public static Toxic resetPeer(Duration after) {
    return of("reset_peer", Map.of("timeout", millis(after)));
  }

  /**
   * A half-open connection: accepted, then silent, never closed; what the client sends is
   * swallowed, nothing comes back, until the toxic is removed.
   */
  public static Toxic halfOpen() {
    return of("timeout", Map.of("timeout", 0L));
  }

  /** Silent like {@link #halfOpen()}, then closed {@code after} the toxic takes effect. */
  public static Toxic silentThenClosed(Duration after) {
    if (after.isZero()) {
      throw new IllegalArgumentException("after: 0 (expected: > 0; halfOpen() never closes)");
    }
    return of("timeout", Map.of("timeout", millis(after)));
  }

  /** The connection closed (FIN) once {@code bytes} bytes have passed in the toxic's direction. */
  public static Toxic limitData(long bytes) {
    return of("limit_data", Map.of("bytes", bytes));
  }

  /** Closing the connection delayed by {@code delay}. */
  public static Toxic slowClose(Duration delay) {
    return of("slow_close", Map.of("delay", millis(delay)));
  }

  /** The same toxic under another name, so that two of one type can stand on one proxy. */
  public Toxic named(String newName) {
    return new Toxic(newName, type, stream, toxicity, attributes);
  }

  /** The same toxic acting on requests, named after its type and the upstream direction. */
  public Toxic upstream() {
    return new Toxic(type + "_upstream", type, Stream.UPSTREAM, toxicity, attributes);
  }

  /** The same toxic on a share of the connections only. */
  public Toxic toxicity(double share) {
    return new Toxic(name, type, stream, share, attributes);
  }

  private static long millis(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("duration: " + duration + " (expected: >= 0)");
    }
    return duration.toMillis();
  }
}
