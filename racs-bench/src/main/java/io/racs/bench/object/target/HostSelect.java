package io.racs.bench.object.target;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How a target served by several endpoints ({@code --endpoint a,b,c}) picks the endpoint of each
 * request ({@code --host-select}, named as warp's option). Either way every client holds its own
 * connection per endpoint it uses; only which endpoint serves which request differs.
 */
public enum HostSelect {
  /** Each request of a client goes to the next endpoint in turn, as warp's {@code roundrobin}. */
  ROUND_ROBIN("roundrobin"),
  /**
   * Client {@code i} sends every request to endpoint {@code i mod E}, as behind a load balancer
   * that keeps each client's keep-alive connection on one backend: a proxy serves the same clients
   * throughout, so what it caches of their requests stays its own.
   */
  STICKY("sticky");

  private final String label;

  HostSelect(String label) {
    this.label = label;
  }

  /** The option value: {@code roundrobin} or {@code sticky}. */
  public String label() {
    return label;
  }

  /**
   * The selection named {@code label}.
   *
   * @throws IllegalArgumentException naming the option and its values when {@code label} is none
   */
  public static HostSelect parse(String label) {
    for (HostSelect h : values()) {
      if (h.label.equals(label)) {
        return h;
      }
    }
    throw new IllegalArgumentException(
        "--host-select: "
            + label
            + " (expected: "
            + Arrays.stream(values()).map(HostSelect::label).collect(Collectors.joining(" or "))
            + ")");
  }
}
