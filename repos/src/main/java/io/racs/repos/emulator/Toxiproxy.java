package io.racs.repos.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;

/**
 * A client of Toxiproxy's HTTP API (the JDK's HTTP client, JSON by Jackson): proxies from a port of
 * 127.0.0.1 to an upstream address, toxics added to and removed from them, a proxy disabled (its
 * connections closed, new ones refused) and enabled again on the same port, and a reset of all.
 *
 * <p>Thread-safe. Every call is one request; a refusal by the server (a name taken, a toxic
 * unknown) is an {@link IllegalStateException} with Toxiproxy's message.
 */
public final class Toxiproxy {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final URI api;

  private Toxiproxy(URI api) {
    this.api = Objects.requireNonNull(api, "api");
  }

  /** A client of the API at {@code api}, e.g. {@code http://127.0.0.1:8474}. */
  public static Toxiproxy of(URI api) {
    return new Toxiproxy(api);
  }

  /**
   * Opens a proxy called {@code name} on a free port of 127.0.0.1 (Toxiproxy binds it, so no other
   * process can take it in between) to {@code upstream}.
   */
  public Proxy create(String name, InetSocketAddress upstream) {
    return create(name, "127.0.0.1:0", upstream.getHostString() + ":" + upstream.getPort());
  }

  private Proxy create(String name, String listen, String upstream) {
    ObjectNode body = JSON.createObjectNode();
    body.put("name", name);
    body.put("listen", listen);
    body.put("upstream", upstream);
    body.put("enabled", true);
    JsonNode created = send("POST", "/proxies", body, 201);
    String bound = created.path("listen").asText();
    int port = Integer.parseInt(bound.substring(bound.lastIndexOf(':') + 1));
    return new Proxy(name, new InetSocketAddress("127.0.0.1", port));
  }

  /**
   * Puts every proxy back as it was created, on its port: enabled, without toxics, and with its
   * connections closed. Done by deleting and re-creating each proxy rather than by Toxiproxy's own
   * {@code POST /reset}: that one (2.5.0 to 2.12.0 alike) leaves a connection that is still closing
   * under a {@code slow_close} with more toxic stages than the proxy has, and the next toxic added
   * then crashes the server (an index out of range in {@code ToxicLink.AddToxic}).
   */
  public void reset() {
    JsonNode proxies = send("GET", "/proxies", null, 200);
    for (JsonNode proxy : proxies) {
      String name = proxy.path("name").asText();
      send("DELETE", "/proxies/" + name, null, 204);
      create(name, proxy.path("listen").asText(), proxy.path("upstream").asText());
    }
  }

  private JsonNode send(String method, String path, JsonNode body, int expected) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(api.resolve(path))
            .timeout(TIMEOUT)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body.toString()));
    HttpResponse<String> response;
    try {
      response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException("toxiproxy " + method + " " + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: toxiproxy " + method + " " + path, e);
    }
    if (response.statusCode() != expected) {
      throw new IllegalStateException(
          "toxiproxy "
              + method
              + " "
              + path
              + ": "
              + response.statusCode()
              + " "
              + response.body()
              + " (expected: "
              + expected
              + ")");
    }
    try {
      return response.body().isEmpty() ? JSON.nullNode() : JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("toxiproxy " + method + " " + path + ": not JSON", e);
    }
  }

  /** One proxy of the server: where it listens, and its toxics. */
  public final class Proxy {
    private final String name;
    private final InetSocketAddress listen;

    private Proxy(String name, InetSocketAddress listen) {
      this.name = name;
      this.listen = listen;
    }

    /** The proxy's name. */
    public String name() {
      return name;
    }

    /** Where it listens: the address clients connect to instead of the upstream's. */
    public InetSocketAddress listen() {
      return listen;
    }

    /** {@code http://127.0.0.1:PORT}, the endpoint of an HTTP upstream seen through the proxy. */
    public URI httpEndpoint() {
      return URI.create("http://127.0.0.1:" + listen.getPort());
    }

    /** Adds {@code toxic} to every connection, existing and new; returns it. */
    public Toxic add(Toxic toxic) {
      ObjectNode body = JSON.createObjectNode();
      body.put("name", toxic.name());
      body.put("type", toxic.type());
      body.put("stream", toxic.stream().json());
      body.put("toxicity", toxic.toxicity());
      ObjectNode attributes = body.putObject("attributes");
      toxic.attributes().forEach(attributes::put);
      send("POST", "/proxies/" + name + "/toxics", body, 200);
      return toxic;
    }

    /** Removes {@code toxic}. */
    public void remove(Toxic toxic) {
      send("DELETE", "/proxies/" + name + "/toxics/" + toxic.name(), null, 204);
    }

    /** Closes every connection and refuses new ones until {@link #enable()}. */
    public void disable() {
      enabled(false);
    }

    /** Accepts connections again, on the same port. */
    public void enable() {
      enabled(true);
    }

    private void enabled(boolean enabled) {
      ObjectNode body = JSON.createObjectNode();
      body.put("enabled", enabled);
      send("POST", "/proxies/" + name, body, 200);
    }

    /** Removes the proxy, closing its connections and its port. */
    public void delete() {
      send("DELETE", "/proxies/" + name, null, 204);
    }

    @Override
    public String toString() {
      return name + " (" + listen + ")";
    }
  }
}
