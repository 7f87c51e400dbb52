package io.racs.bench.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.racs.bench.object.run.Engine;
import io.racs.bench.object.run.IterationResult;
import io.racs.bench.object.run.LocalEngine;
import io.racs.bench.object.run.Progress;
import io.racs.bench.object.run.Workload;
import io.racs.bench.object.target.Target;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * The load agent behind {@code racs bench agent}: an HTTP server (JDK {@code HttpServer}, one
 * virtual thread per request) speaking JSON. {@code POST /session} builds the targets, then {@code
 * /prepare}, {@code /declare}, {@code /iterate} (which waits for the start instant it is given) and
 * {@code /cleanup} act on them through a {@link LocalEngine}; {@code GET /hello} answers the
 * protocol version and the agent's clock. One controller at a time: a new session closes the
 * previous one. Errors answer 400 (bad request) or 500 with a one-line JSON {@code error}.
 */
public final class BenchAgent implements AutoCloseable {
  private final HttpServer server;
  private LocalEngine engine;

  private BenchAgent(HttpServer server) {
    this.server = server;
  }

  /** Starts an agent on {@code address} (port 0: any free port). */
  public static BenchAgent start(InetSocketAddress address) throws IOException {
    HttpServer server = HttpServer.create(address, 16);
    BenchAgent agent = new BenchAgent(server);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/", agent::handle);
    server.start();
    return agent;
  }

  /** The bound address. */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      int status = 200;
      JsonNode answer;
      try {
        JsonNode request =
            exchange.getRequestMethod().equals("POST")
                ? Wire.MAPPER.readTree(exchange.getRequestBody())
                : Wire.MAPPER.createObjectNode();
        answer = dispatch(exchange.getRequestURI().getPath(), request);
      } catch (IllegalArgumentException e) {
        status = 400;
        answer = Wire.MAPPER.createObjectNode().put("error", String.valueOf(e.getMessage()));
      } catch (Exception e) {
        status = 500;
        answer =
            Wire.MAPPER
                .createObjectNode()
                .put("error", e.getMessage() != null ? e.getMessage() : e.toString());
      }
      byte[] body = Wire.MAPPER.writeValueAsBytes(answer);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private JsonNode dispatch(String path, JsonNode request) throws Exception {
    return switch (path) {
      case "/hello" ->
          Wire.MAPPER
              .createObjectNode()
              .put("protocol", Wire.PROTOCOL)
              .put("epochNanos", io.racs.bench.object.run.IterationRunner.epochNanos())
              .put("cores", Runtime.getRuntime().availableProcessors());
      case "/session" -> session(request);
      case "/prepare" -> {
        engine()
            .prepare(
                request.get("target").asInt(),
                request.get("prefix").asText(),
                Wire.workload(request.get("workload")));
        yield Wire.MAPPER.createObjectNode().put("ok", true);
      }
      case "/declare" -> {
        engine()
            .declare(
                request.get("target").asInt(),
                request.get("prefix").asText(),
                Wire.workload(request.get("workload")));
        yield Wire.MAPPER.createObjectNode().put("ok", true);
      }
      case "/iterate" -> {
        long received = io.racs.bench.object.run.IterationRunner.epochNanos();
        Workload w = Wire.workload(request.get("workload"));
        long start = request.get("startEpochNanos").asLong();
        IterationResult r =
            engine()
                .iterateAt(
                    request.get("target").asInt(),
                    request.get("prefix").asText(),
                    w,
                    Duration.ofNanos(request.get("delayNanos").asLong()),
                    request.get("seed").asLong(),
                    start,
                    Progress.silent());
        ObjectNode answer = Wire.result(r);
        answer.put("lateNanos", Math.max(0, received - start));
        yield answer;
      }
      case "/cleanup" -> {
        engine().cleanUp(request.get("target").asInt(), request.get("prefix").asText());
        yield Wire.MAPPER.createObjectNode().put("ok", true);
      }
      case "/close" -> {
        closeEngine();
        yield Wire.MAPPER.createObjectNode().put("ok", true);
      }
      default ->
          throw new IllegalArgumentException("path: " + path + " (expected: a protocol call)");
    };
  }

  private synchronized JsonNode session(JsonNode request) {
    if (request.path("protocol").asInt() != Wire.PROTOCOL) {
      throw new IllegalArgumentException(
          "protocol: " + request.path("protocol") + " (expected: " + Wire.PROTOCOL + ")");
    }
    closeEngine();
    List<Target> targets = new ArrayList<>();
    for (JsonNode t : request.get("targets")) {
      targets.add(Wire.MAPPER.convertValue(t, TargetSpec.class).build());
    }
    engine = new LocalEngine(targets);
    ObjectNode answer = Wire.MAPPER.createObjectNode();
    ArrayNode infos = answer.putArray("targets");
    for (Engine.TargetInfo info : engine.targets()) {
      ObjectNode node = infos.addObject();
      node.put("name", info.name());
      node.put("kind", info.kind());
      node.put("delayable", info.delayable());
      ObjectNode d = node.putObject("description");
      info.description().forEach(d::put);
    }
    return answer;
  }

  private synchronized LocalEngine engine() {
    if (engine == null) {
      throw new IllegalArgumentException("session: none (expected: POST /session first)");
    }
    return engine;
  }

  private synchronized void closeEngine() {
    if (engine != null) {
      engine.close();
      engine = null;
    }
  }

  /** Stops serving and closes the targets. */
  @Override
  public void close() {
    server.stop(0);
    closeEngine();
  }

  /** For logs. */
  @Override
  public String toString() {
    return "BenchAgent[" + address() + "]";
  }
}
