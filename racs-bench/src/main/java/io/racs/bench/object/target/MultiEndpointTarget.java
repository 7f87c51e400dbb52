package io.racs.bench.object.target;

import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One logical S3 target served by several endpoints (proxies of one array, or nodes of one MinIO
 * cluster), as warp's {@code --host a,b,c}. With {@link HostSelect#ROUND_ROBIN} each benchmark
 * client holds a handle on every endpoint and sends each request to the next one in turn, starting
 * at its own index so that concurrent clients spread from the first request; with {@link
 * HostSelect#STICKY} client {@code i} holds a handle on endpoint {@code i mod E} only and sends it
 * every request. Results are reported once, under this target's name.
 */
public final class MultiEndpointTarget implements Target {
  private final String name;
  private final List<Target> endpoints;
  private final HostSelect hostSelect;

  private MultiEndpointTarget(String name, List<Target> endpoints, HostSelect hostSelect) {
    this.name = name;
    this.endpoints = endpoints;
    this.hostSelect = hostSelect;
  }

  /**
   * {@code endpoints} (at least two) as one target named {@code name}, each request's endpoint
   * picked by {@code hostSelect}; closes them on close.
   */
  public static MultiEndpointTarget of(
      String name, List<? extends Target> endpoints, HostSelect hostSelect) {
    if (endpoints.size() < 2) {
      throw new IllegalArgumentException(
          "endpoints: " + endpoints.size() + " (expected: at least 2)");
    }
    return new MultiEndpointTarget(name, List.copyOf(endpoints), hostSelect);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String kind() {
    return endpoints.getFirst().kind();
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> d = new LinkedHashMap<>(endpoints.getFirst().describe());
    List<String> locations = new ArrayList<>();
    for (Target t : endpoints) {
      locations.add(t.describe().getOrDefault("location", t.name()));
    }
    d.put("location", String.join(",", locations));
    d.put(
        "hostSelection",
        switch (hostSelect) {
          case ROUND_ROBIN -> "round robin per request over " + endpoints.size() + " endpoints";
          case STICKY ->
              "sticky: client i sends every request to endpoint i mod " + endpoints.size();
        });
    return d;
  }

  @Override
  public Optional<Target> withDelay(Duration delay) {
    List<Target> delayed = new ArrayList<>();
    for (Target t : endpoints) {
      Optional<Target> d = t.withDelay(delay);
      if (d.isEmpty()) {
        return Optional.empty();
      }
      delayed.add(d.get());
    }
    return Optional.of(new MultiEndpointTarget(name, delayed, hostSelect));
  }

  @Override
  public Client client(int index) {
    if (hostSelect == HostSelect.STICKY) {
      return endpoints.get(Math.floorMod(index, endpoints.size())).client(index);
    }
    List<Client> clients = new ArrayList<>();
    try {
      for (Target t : endpoints) {
        clients.add(t.client(index));
      }
    } catch (RuntimeException e) {
      clients.forEach(Client::close);
      throw e;
    }
    return new Client() {
      private int next = Math.floorMod(index, clients.size());

      private Client pick() {
        Client c = clients.get(next);
        next = (next + 1) % clients.size();
        return c;
      }

      @Override
      public void put(String key, InputStream body, long lengthBytes) {
        pick().put(key, body, lengthBytes);
      }

      @Override
      public InputStream get(String key, long offset, long lengthBytes) {
        return pick().get(key, offset, lengthBytes);
      }

      @Override
      public boolean head(String key) {
        return pick().head(key);
      }

      @Override
      public int list(String prefix, int maxKeys) {
        return pick().list(prefix, maxKeys);
      }

      @Override
      public void delete(String key) {
        pick().delete(key);
      }

      @Override
      public void close() {
        clients.forEach(Client::close);
      }
    };
  }

  @Override
  public void close() {
    endpoints.forEach(Target::close);
  }
}
