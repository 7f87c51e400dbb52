package io.racs.proxy.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.Executors;

/**
 * The admin port: {@code /health/live} (the process answers), {@code /health/ready} ({@link
 * ReadyReport}), {@code /metrics} ({@link MetricsReport}, Prometheus or OpenMetrics text as the
 * {@code Accept} header asks), the console under {@code /console} ({@link ConsoleHandler}, signed
 * in) and the admin API under {@code /admin} ({@link AdminApi}, signed with an administrator's
 * key), on a JDK HTTP server with a virtual thread per request. Nothing here is served on the S3
 * port.
 */
public final class AdminServer implements AutoCloseable {
  private final HttpServer http;

  private AdminServer(HttpServer http) {
    this.http = http;
  }

  /** Starts listening on {@code at} (port 0: any free port), serving what {@code sources} know. */
  public static AdminServer start(InetSocketAddress at, AdminSources sources) throws IOException {
    HttpServer http =
        HttpServer.create(new InetSocketAddress(at.getHostString(), at.getPort()), 16);
    http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    http.createContext("/health/live", exchange -> reply(exchange, 200, "text/plain", "ok\n"));
    http.createContext(
        "/health/ready",
        exchange -> {
          ReadyReport report = ReadyReport.of(sources);
          reply(exchange, report.ready() ? 200 : 503, "application/json", report.json());
        });
    MetricsReport metrics = MetricsReport.of(sources);
    http.createContext(
        "/metrics",
        exchange -> {
          MetricsReport.Exposition exposition =
              metrics.render(exchange.getRequestHeaders().getFirst("Accept"));
          reply(exchange, 200, exposition.contentType(), exposition.body());
        });
    AdminCredentials administrators = new AdminCredentials(sources.credentials());
    AdminApi api = new AdminApi(sources, administrators);
    http.createContext(
        "/console", new ConsoleHandler(sources, administrators, Clock.systemUTC(), api));
    http.createContext("/admin", api);
    http.start();
    return new AdminServer(http);
  }

  /** The port listened on. */
  public int port() {
    return http.getAddress().getPort();
  }

  /** Replies {@code body} as {@code type} with {@code status}, and closes the exchange. */
  static void reply(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    reply(exchange, status, type, body.getBytes(StandardCharsets.UTF_8));
  }

  /** Replies {@code bytes} as {@code type} with {@code status}, and closes the exchange. */
  static void reply(HttpExchange exchange, int status, String type, byte[] bytes)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Stops at once: the admin endpoints have nothing to drain. */
  @Override
  public void close() {
    http.stop(0);
  }
}
