package io.racs.bench.object.workload;

import java.util.ArrayList;
import java.util.List;

/**
 * The key spaces of one workload case on one target: one {@link KeySpace} every client picks from,
 * or ({@code --prefix-per-client}) one per client under {@code PREFIX c<i>/}, as warp gives each
 * client its own prefix. With one per client no client reads, lists or deletes a key another wrote,
 * so with sticky endpoints ({@code --host-select sticky}) a key is only ever served by the endpoint
 * that stored it. Immutable; the key spaces themselves are thread-safe.
 */
public final class KeySpaces {
  private final List<KeySpace> spaces;
  private final boolean perClient;

  private KeySpaces(List<KeySpace> spaces, boolean perClient) {
    this.spaces = List.copyOf(spaces);
    this.perClient = perClient;
  }

  /** One key space shared by every client. */
  public static KeySpaces shared(KeySpace keys) {
    return new KeySpaces(List.of(keys), false);
  }

  /**
   * {@code clients} key spaces of {@code n} keys each, client {@code i}'s under {@code prefix +}
   * {@link #clientPrefix clientPrefix(i)}.
   *
   * @throws IllegalArgumentException when {@code clients}, {@code n} or {@code prefixes} is not
   *     positive
   */
  public static KeySpaces perClient(String prefix, int clients, int n, int prefixes) {
    if (clients < 1) {
      throw new IllegalArgumentException("clients: " + clients + " (expected: >= 1)");
    }
    List<KeySpace> spaces = new ArrayList<>(clients);
    for (int i = 0; i < clients; i++) {
      spaces.add(new KeySpace(prefix + clientPrefix(i), n, prefixes));
    }
    return new KeySpaces(spaces, true);
  }

  /** The sub-prefix of client {@code i}'s keys: {@code c<i>/}. */
  public static String clientPrefix(int i) {
    return "c" + i + "/";
  }

  /** Whether each client has its own key space. */
  public boolean perClient() {
    return perClient;
  }

  /** Every key space, client 0's first when per client. */
  public List<KeySpace> all() {
    return spaces;
  }

  /**
   * The key space client {@code client} uses.
   *
   * @throws IllegalArgumentException when the key spaces are per client and were made for fewer
   *     clients
   */
  public KeySpace of(int client) {
    if (!perClient) {
      return spaces.getFirst();
    }
    if (client < 0 || client >= spaces.size()) {
      throw new IllegalArgumentException(
          "client: "
              + client
              + " (expected: 0 to "
              + (spaces.size() - 1)
              + ", one key space each)");
    }
    return spaces.get(client);
  }
}
