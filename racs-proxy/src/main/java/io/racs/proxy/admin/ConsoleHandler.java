package io.racs.proxy.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's console under {@code /console} on the admin port. Without a session every path
 * answers with the login form (pages) or 401 (the JSON API and assets); the form posts an access
 * key and secret key of the proxy's credentials to {@code /console/login}, which sets the session
 * cookie ({@link ConsoleSessions}). Signed in, {@code /console/} is the page, {@code
 * /console/assets/*} its script and stylesheet from the jar, {@code /console/api/state} the JSON
 * the page polls ({@link ConsoleState}) and {@code /console/api/users} the stored users it lists
 * (read-only; {@link AdminApi#consoleUsers}). Every answer forbids caching and framing and allows
 * scripts from the admin port only.
 */
final class ConsoleHandler implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger(ConsoleHandler.class);

  private static final String RESOURCES = "/io/racs/proxy/admin/console/";
  private static final Map<String, String> ASSETS =
      Map.of(
          "console.js", "text/javascript; charset=utf-8",
          "chart.js", "text/javascript; charset=utf-8",
          "console.css", "text/css; charset=utf-8");
  private static final int MAX_FORM_BYTES = 4096;
  private static final String ACTIONS = "/console/api/actions/";
  // The admin API's user paths, for the signed-in administrator (AdminApi).
  private static final String ADMIN = "/console/api/admin/";

  private final AdminSources sources;
  private final ConsoleSessions sessions;
  private final Clock clock;
  private final long startedMillis;
  private final LatencyHistory history = new LatencyHistory();

  private final AdminApi api;

  ConsoleHandler(AdminSources sources, AdminCredentials administrators, Clock clock) {
    this(sources, administrators, clock, new AdminApi(sources, administrators));
  }

  ConsoleHandler(AdminSources sources, AdminCredentials administrators, Clock clock, AdminApi api) {
    this.api = api;
    this.sources = sources;
    this.sessions = new ConsoleSessions(administrators, clock);
    this.clock = clock;
    this.startedMillis = clock.millis();
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
      exchange
          .getResponseHeaders()
          .set(
              "Content-Security-Policy",
              "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      if (path.equals("/console/login") && method.equals("POST")) {
        login(exchange);
        return;
      }
      Optional<ConsoleSessions.Session> session =
          sessions.session(exchange.getRequestHeaders().getFirst("Cookie"));
      boolean post = path.equals("/console/logout") || path.startsWith(ACTIONS);
      if (path.startsWith(ADMIN)) {
        if (session.isEmpty()) {
          unauthenticated(exchange, path);
        } else {
          admin(exchange, session.get().accessKey());
        }
      } else if (!method.equals(post ? "POST" : "GET")) {
        exchange.getResponseHeaders().set("Allow", post ? "POST" : "GET");
        AdminServer.reply(exchange, 405, "text/plain", "method not allowed\n");
      } else if (path.equals("/console")) {
        exchange.getResponseHeaders().set("Location", "/console/");
        exchange.sendResponseHeaders(303, -1);
      } else if (session.isEmpty()) {
        unauthenticated(exchange, path);
      } else if (path.equals("/console/logout")) {
        sessions.logout(exchange.getRequestHeaders().getFirst("Cookie"));
        LOG.info("console: {} signed out", session.get().accessKey());
        exchange.getResponseHeaders().set("Set-Cookie", ConsoleSessions.cookie(""));
        exchange.getResponseHeaders().set("Location", "/console/");
        exchange.sendResponseHeaders(303, -1);
      } else if (path.startsWith(ACTIONS)) {
        action(exchange, path.substring(ACTIONS.length()), session.get().accessKey());
      } else if (path.equals("/console/")) {
        resource(exchange, "index.html", "text/html; charset=utf-8");
      } else if (path.equals("/console/api/state")) {
        AdminServer.reply(
            exchange,
            200,
            "application/json",
            ConsoleState.json(sources, clock, startedMillis, history));
      } else if (path.equals("/console/api/users")) {
        AdminServer.reply(exchange, 200, "application/json", AdminApi.consoleUsers(sources));
      } else if (path.startsWith("/console/assets/")
          && ASSETS.containsKey(path.substring("/console/assets/".length()))) {
        String name = path.substring("/console/assets/".length());
        resource(exchange, name, ASSETS.get(name));
      } else {
        AdminServer.reply(exchange, 404, "text/plain", "not found\n");
      }
    }
  }

  /**
   * Runs a console action: {@code scrub-start}, {@code scrub-pause} or {@code scrub-resume}. The
   * page confirms with the operator first and sends {@code X-Racs-Console: confirmed}, which a
   * cross-site form cannot (the cookie is SameSite=Strict as well); each action is logged with the
   * access key that asked. 403 in read-only mode, 409 when a scrub cannot start now.
   */
  private void action(HttpExchange exchange, String name, String accessKey) throws IOException {
    if (!"confirmed".equals(exchange.getRequestHeaders().getFirst("X-Racs-Console"))) {
      AdminServer.reply(
          exchange, 400, "text/plain", "unconfirmed (expected: X-Racs-Console: confirmed)\n");
      return;
    }
    if (!Set.of("scrub-start", "scrub-pause", "scrub-resume").contains(name)) {
      AdminServer.reply(exchange, 404, "text/plain", "no action " + name + "\n");
      return;
    }
    if (sources.readOnly()) {
      LOG.info("console: {} asked for {}, refused (consoleReadOnly)", accessKey, name);
      AdminServer.reply(
          exchange, 403, "text/plain", "the console is read-only (server.consoleReadOnly)\n");
      return;
    }
    AdminActions actions = sources.actions();
    boolean done =
        switch (name) {
          case "scrub-start" -> actions.startScrub();
          case "scrub-pause" -> {
            actions.pauseScrub(true);
            yield true;
          }
          default -> {
            actions.pauseScrub(false);
            yield true;
          }
        };
    LOG.info("console: {} asked for {}: {}", accessKey, name, done ? "done" : "refused");
    AdminServer.reply(
        exchange,
        done ? 200 : 409,
        "text/plain",
        done ? name + ": done\n" : name + ": a scrub is running or the scrub is paused\n");
  }

  /**
   * The admin API's users, managed from the console: {@code /console/api/admin/users...} answers as
   * {@code /admin/users...} does (the same rules, errors and announcements), for the signed-in
   * administrator. A change needs the page's {@code X-Racs-Console: confirmed} (the operator
   * confirmed it; a cross-site form cannot send it) and is refused in read-only mode; each is
   * logged with the access key that asked.
   */
  private void admin(HttpExchange exchange, String accessKey) throws IOException {
    String method = exchange.getRequestMethod();
    if (!method.equals("GET")) {
      if (!"confirmed".equals(exchange.getRequestHeaders().getFirst("X-Racs-Console"))) {
        AdminServer.reply(
            exchange, 400, "text/plain", "unconfirmed (expected: X-Racs-Console: confirmed)\n");
        return;
      }
      String what = method + " " + exchange.getRequestURI().getRawPath().substring(ADMIN.length());
      if (sources.readOnly()) {
        LOG.info("console: {} asked for {}, refused (consoleReadOnly)", accessKey, what);
        AdminServer.reply(
            exchange, 403, "text/plain", "the console is read-only (server.consoleReadOnly)\n");
        return;
      }
      LOG.info("console: {} asked for {}", accessKey, what);
    }
    api.serveForConsole(exchange, ADMIN, accessKey);
  }

  private void unauthenticated(HttpExchange exchange, String path) throws IOException {
    if (path.equals("/console/")) {
      resource(exchange, "login.html", "text/html; charset=utf-8");
    } else {
      AdminServer.reply(exchange, 401, "text/plain", "sign in at /console/\n");
    }
  }

  private void login(HttpExchange exchange) throws IOException {
    Map<String, String> form = form(exchange);
    String accessKey = form.get("accessKey");
    Optional<String> token = sessions.login(accessKey, form.get("secretKey"));
    if (token.isEmpty()) {
      // The access key only: never the secret that was tried.
      LOG.info("console: sign-in refused for access key '{}'", accessKey);
      exchange.getResponseHeaders().set("Location", "/console/?failed");
      exchange.sendResponseHeaders(303, -1);
      return;
    }
    LOG.info("console: {} signed in", accessKey);
    exchange.getResponseHeaders().set("Set-Cookie", ConsoleSessions.cookie(token.get()));
    exchange.getResponseHeaders().set("Location", "/console/");
    exchange.sendResponseHeaders(303, -1);
  }

  /** The URL-encoded form of the request body, at most {@link #MAX_FORM_BYTES}. */
  private static Map<String, String> form(HttpExchange exchange) throws IOException {
    byte[] body;
    try (InputStream in = exchange.getRequestBody()) {
      body = in.readNBytes(MAX_FORM_BYTES + 1);
    }
    Map<String, String> form = new HashMap<>();
    if (body.length > MAX_FORM_BYTES) {
      return form;
    }
    for (String pair : new String(body, StandardCharsets.UTF_8).split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        form.putIfAbsent(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return form;
  }

  private static final Set<String> RESOURCE_NAMES =
      Set.of("index.html", "login.html", "console.js", "chart.js", "console.css");

  private static void resource(HttpExchange exchange, String name, String type) throws IOException {
    if (!RESOURCE_NAMES.contains(name)) {
      throw new IllegalArgumentException("resource: " + name + " (expected: " + RESOURCE_NAMES);
    }
    byte[] bytes;
    try (InputStream in = ConsoleHandler.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("console resource missing from the jar: " + name);
      }
      bytes = in.readAllBytes();
    }
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(200, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
