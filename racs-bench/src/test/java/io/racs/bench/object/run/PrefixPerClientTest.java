package io.racs.bench.object.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.bench.object.workload.KeyDistribution;
import io.racs.bench.object.workload.Mix;
import io.racs.bench.object.workload.Op;
import io.racs.bench.object.workload.RangeSpec;
import io.racs.bench.object.workload.SizeSpec;
import io.racs.bench.stats.ArrivalSchedule.Arrivals;
import io.racs.repos.RepositoryException;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves {@code --prefix-per-client}: each client prepares, reads, writes, lists and deletes only
 * the keys under its own {@code c<i>/}, through its own handle ({@code target.client(i)}), so with
 * sticky endpoints no client reads a key stored through another endpoint; requests recorded by an
 * in-memory target per client index.
 */
class PrefixPerClientTest {
  /** An in-memory store that records, per client index, every request as {@code OP key}. */
  private static final class Recording extends StubTarget {
    Recording() {
      super("recording");
    }

    final Map<String, byte[]> objects = new ConcurrentHashMap<>();
    final Map<Integer, List<String>> requests = new TreeMap<>();

    synchronized void record(int client, String request) {
      requests.computeIfAbsent(client, c -> new ArrayList<>()).add(request);
    }

    synchronized Map<Integer, List<String>> takeRequests() {
      Map<Integer, List<String>> copy = new TreeMap<>(requests);
      requests.clear();
      return copy;
    }

    @Override
    public Client client(int index) {
      return new Client() {
        @Override
        public void put(String key, InputStream body, long lengthBytes) {
          record(index, "PUT " + key);
          try {
            objects.put(key, body.readAllBytes());
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }

        @Override
        public InputStream get(String key, long offset, long lengthBytes) {
          record(index, "GET " + key);
          byte[] b = objects.get(key);
          if (b == null) {
            throw new RepositoryException(RepositoryException.Kind.NOT_FOUND, key);
          }
          return new ByteArrayInputStream(b);
        }

        @Override
        public boolean head(String key) {
          record(index, "HEAD " + key);
          return objects.containsKey(key);
        }

        @Override
        public int list(String prefix, int maxKeys) {
          record(index, "LIST " + prefix);
          return (int) objects.keySet().stream().filter(k -> k.startsWith(prefix)).count();
        }

        @Override
        public void delete(String key) {
          record(index, "DELETE " + key);
          objects.remove(key);
        }

        @Override
        public void close() {}
      };
    }
  }

  private final Recording target = new Recording();
  private final LocalEngine engine = new LocalEngine(List.of(target));

  @AfterEach
  void close() {
    engine.close();
  }

  private static Workload workload(Mix mix, int objects, int clients, long count) {
    return new Workload(
        mix,
        SizeSpec.parse("1KiB"),
        KeyDistribution.UNIFORM,
        RangeSpec.NONE,
        objects,
        2,
        "run/",
        clients,
        0,
        Arrivals.CONSTANT,
        Duration.ofSeconds(5),
        count,
        true,
        TestSeed.get(),
        1000,
        true);
  }

  /** Asserts that every request of client i named a key (or LIST prefix) under run/c<i>/. */
  private static void assertOwnKeysOnly(Map<Integer, List<String>> requests, int clients) {
    assertThat(requests.keySet()).hasSize(clients);
    requests.forEach(
        (client, list) ->
            assertThat(list)
                .as("client %d", client)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r).contains(" run/c" + client + "/")));
  }

  @Test
  void prepare_whenPrefixPerClient_putsEachClientsKeysThroughItsOwnHandle() throws Exception {
    engine.prepare(0, "run/", workload(Mix.parse("get=1"), 3, 2, 0));
    Map<Integer, List<String>> requests = target.takeRequests();
    assertThat(requests.get(0))
        .containsExactlyInAnyOrder(
            "PUT run/c0/p00/obj-000000", "PUT run/c0/p01/obj-000001", "PUT run/c0/p00/obj-000002");
    assertThat(requests.get(1))
        .containsExactlyInAnyOrder(
            "PUT run/c1/p00/obj-000000", "PUT run/c1/p01/obj-000001", "PUT run/c1/p00/obj-000002");
    assertThat(requests).containsOnlyKeys(0, 1);

    engine.cleanUp(0, "run/");
    assertThat(target.objects).isEmpty();
    assertOwnKeysOnly(target.takeRequests(), 2);
  }

  @Test
  void iterate_whenPrefixPerClientAndMixed_noClientTouchesAnotherClientsKeys() throws Exception {
    Workload w = workload(Mix.parse("put=20,get=40,head=10,list=10,delete=20"), 4, 3, 600);
    engine.prepare(0, "run/", w);
    target.takeRequests();
    IterationResult r = engine.iterate(0, "run/", w, Duration.ZERO, 7, Progress.silent());
    // What the iteration recorded is only what completed inside its measurement window, which
    // opens once every client has completed a request: on a busy machine one client can do most of
    // the 600 before the last one starts, and leave no GET inside it. So the errors are checked
    // (none within the window), not that some GET was verified; the requests are checked below.
    assertThat(r.errors).isEmpty();
    Map<Integer, List<String>> requests = target.takeRequests();
    assertThat(requests.values().stream().mapToInt(List::size).sum()).isEqualTo(600);
    assertOwnKeysOnly(requests, 3);
    for (int c = 0; c < 3; c++) {
      assertThat(requests.get(c)).contains("LIST run/c" + c + "/");
    }
  }

  @Test
  void iterate_whenPrefixPerClientAndFewerClientsThanPrepared_usesTheFirstClientsKeySpaces()
      throws Exception {
    Workload w = workload(Mix.parse("get=1"), 2, 3, 20);
    engine.prepare(0, "run/", w);
    target.takeRequests();
    engine.iterate(0, "run/", w.withClients(2), Duration.ZERO, 7, Progress.silent());
    assertOwnKeysOnly(target.takeRequests(), 2);
    assertThatThrownBy(
            () -> engine.iterate(0, "run/", w.withClients(4), Duration.ZERO, 7, Progress.silent()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("client: 3 (expected: 0 to 2, one key space each)");
  }

  @Test
  void iterate_whenPrefixPerClientAndPureDelete_eachClientEmptiesItsOwnPool() throws Exception {
    Workload w = workload(Mix.of(Op.DELETE), 5, 2, 10);
    engine.prepare(0, "pool/", w);
    target.takeRequests();
    IterationResult r = engine.iterate(0, "pool/", w, Duration.ZERO, 7, Progress.silent());
    assertThat(r.errors).isEmpty();
    Map<Integer, List<String>> requests = target.takeRequests();
    for (int c = 0; c < 2; c++) {
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        expected.add(String.format("DELETE pool/c%d/p%02d/obj-%06d", c, i % 2, i));
      }
      assertThat(requests.get(c)).as("client %d", c).containsExactlyElementsOf(expected);
    }
    assertThat(target.objects).isEmpty();
  }
}
