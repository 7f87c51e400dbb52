package io.racs.proxy.admin;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.users.UserRecords.UserRecord;
import io.racs.proxy.users.UserAccountException;
import io.racs.proxy.users.UserAccounts;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin API under {@code /admin} on the admin port (docs/console.md "The admin API"): the users
 * stored in the array, as {@code racs users} changes them, through the same {@link UserAccounts}
 * (the same checks, the same one-line messages):
 *
 * <ul>
 *   <li>{@code GET /admin/users}: name, access key, policy names and creation time of each user;
 *       never a secret.
 *   <li>{@code POST /admin/users} with {@code {"name", "accessKey"?, "secretKey"?}}: 201 with the
 *       keys; a generated secret is in this answer only.
 *   <li>{@code DELETE /admin/users/NAME}: 204; its key stops working.
 *   <li>{@code PUT /admin/users/NAME/policies/POLICY} with the IAM policy document as the body:
 *       204.
 *   <li>{@code DELETE /admin/users/NAME/policies/POLICY}: 204.
 * </ul>
 *
 * <p>Every request is signed with an administrator's access key and secret key ({@code
 * server.credentials}; HTTP Basic), never a stored user's: otherwise 401 and nothing is read.
 * Bodies are {@code application/json} (415 otherwise: a cross-site form cannot send that type, and
 * PUT and DELETE need a CORS preflight this port never grants) and at most {@link #MAX_BODY_BYTES}
 * (413). Bad input is a JSON error {@code {"code", "message"}} and changes nothing: 400 {@code
 * InvalidInput} or {@code MalformedPolicy}, 404 {@code NoSuchEntity} (no such user or policy), 409
 * {@code EntityAlreadyExists} (a user of that name, an access key in use); 503 {@code
 * ServiceUnavailable} while the array is not open or a change misses its write quorum (it then does
 * not count). After each change this proxy's user directory re-reads at once ({@link
 * AdminSources#usersChanged}), so a new key works here immediately. Changes are logged at INFO with
 * the administrator's access key; no body, secret or Authorization header is ever logged.
 *
 * <p>Thread-safe; the changes made through one proxy's admin API run one at a time.
 */
final class AdminApi implements HttpHandler {
  private static final Logger LOG = LoggerFactory.getLogger(AdminApi.class);

  /** The largest body read (a policy document of 20 KB fits; the parser refuses one over). */
  static final int MAX_BODY_BYTES = 64 << 10;

  private static final Charset UTF_8 = StandardCharsets.UTF_8;
  private static final Set<String> ADD_FIELDS = Set.of("name", "accessKey", "secretKey");
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private final AdminSources sources;
  private final AdminCredentials administrators;
  private final Object changing = new Object();

  AdminApi(AdminSources sources, AdminCredentials administrators) {
    this.sources = sources;
    this.administrators = administrators;
  }

  /** An answer other than success: its status, code and one-line message. */
  private static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;
    final String code;

    Refused(int status, String code, String message) {
      super(message, null, false, false);
      this.status = status;
      this.code = code;
    }
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
      serve(exchange, "/admin/", null);
    }
  }

  /**
   * Serves {@code exchange} for the console's signed-in administrator {@code admin}: the same paths
   * under {@code prefix} ({@code /console/api/admin/}), rules and answers as {@code /admin/}, the
   * console having checked the session, the confirmation and read-only mode.
   */
  void serveForConsole(HttpExchange exchange, String prefix, String admin) throws IOException {
    serve(exchange, prefix, admin);
  }

  private void serve(HttpExchange exchange, String prefix, String signedIn) throws IOException {
    Refused refused;
    try {
      route(exchange, signedIn != null ? signedIn : authenticate(exchange), prefix);
      return;
    } catch (Refused r) {
      refused = r;
    } catch (RuntimeException e) {
      // Not the request: its body may hold a secret.
      LOG.error(
          "admin: {} {} failed",
          exchange.getRequestMethod(),
          printable(exchange.getRequestURI().getRawPath()),
          e);
      refused = new Refused(500, "InternalError", "the proxy failed: " + e);
    }
    if (refused.status == 503) {
      exchange.getResponseHeaders().set("Retry-After", "1");
    }
    reply(exchange, refused.status, error(refused.code, refused.getMessage()));
  }

  /** The administrator's access key that signed {@code exchange}. */
  private String authenticate(HttpExchange exchange) throws Refused {
    String[] basic = basic(exchange.getRequestHeaders().getFirst("Authorization"));
    if (basic != null && administrators.valid(basic[0], basic[1])) {
      return basic[0];
    }
    if (basic != null) {
      // The access key only: never the secret that was tried.
      LOG.info(
          "admin: {} {} refused for access key '{}'",
          exchange.getRequestMethod(),
          printable(exchange.getRequestURI().getRawPath()),
          printable(basic[0]));
    }
    exchange
        .getResponseHeaders()
        .set("WWW-Authenticate", "Basic realm=\"racs admin\", charset=\"UTF-8\"");
    throw new Refused(
        401,
        "Unauthorized",
        "sign with an administrator's access key and secret key (HTTP Basic, server.credentials)");
  }

  /** The access key and secret of an HTTP Basic {@code header}; null when it is none. */
  private static String[] basic(String header) {
    if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
      return null;
    }
    String pair;
    try {
      pair = new String(Base64.getDecoder().decode(header.substring(6).trim()), UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
    int colon = pair.indexOf(':');
    return colon < 0 ? null : new String[] {pair.substring(0, colon), pair.substring(colon + 1)};
  }

  private void route(HttpExchange exchange, String admin, String prefix)
      throws Refused, IOException {
    if (exchange.getRequestURI().getRawQuery() != null) {
      throw new Refused(400, "InvalidInput", "query: not allowed (expected: none)");
    }
    List<String> path = segments(exchange.getRequestURI().getRawPath(), prefix);
    String method = exchange.getRequestMethod();
    if (path.size() == 1 && path.get(0).equals("users")) {
      switch (method) {
        case "GET" -> reply(exchange, 200, usersJson(list()));
        case "POST" -> add(exchange, admin);
        default -> throw notAllowed(exchange, "GET, POST");
      }
    } else if (path.size() == 2 && path.get(0).equals("users")) {
      if (!method.equals("DELETE")) {
        throw notAllowed(exchange, "DELETE");
      }
      String name = path.get(1);
      alter(admin, "remove user " + name, a -> a.remove(name));
      exchange.sendResponseHeaders(204, -1);
    } else if (path.size() == 4 && path.get(0).equals("users") && path.get(2).equals("policies")) {
      String name = path.get(1);
      String policy = path.get(3);
      switch (method) {
        case "PUT" -> {
          String json = body(exchange);
          alter(
              admin,
              "attach policy " + policy + " to user " + name,
              a -> a.attachPolicy(name, policy, json));
        }
        case "DELETE" ->
            alter(
                admin,
                "detach policy " + policy + " from user " + name,
                a -> a.detachPolicy(name, policy));
        default -> throw notAllowed(exchange, "PUT, DELETE");
      }
      exchange.sendResponseHeaders(204, -1);
    } else {
      throw new Refused(404, "NotFound", "no such path (expected: /admin/users...)");
    }
  }

  private void add(HttpExchange exchange, String admin) throws Refused, IOException {
    JsonNode body;
    try {
      body = MAPPER.readTree(body(exchange));
    } catch (JacksonException e) {
      // Not the parser's message: it may quote the body, and the body holds a secret.
      throw new Refused(400, "InvalidInput", "body: not JSON (expected: " + ADD_SHAPE + ")");
    }
    if (body == null || !body.isObject()) {
      throw new Refused(
          400, "InvalidInput", "body: not a JSON object (expected: " + ADD_SHAPE + ")");
    }
    for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
      String field = names.next();
      if (!ADD_FIELDS.contains(field)) {
        throw new Refused(
            400, "InvalidInput", "body: unknown field " + field + " (expected: " + ADD_SHAPE + ")");
      }
    }
    String name = text(body, "name");
    String accessKey = text(body, "accessKey");
    String secretKey = text(body, "secretKey");
    UserAccounts.Added added =
        change(admin, "add user " + name, a -> a.add(name, accessKey, secretKey));
    StringBuilder json =
        new StringBuilder("{\"name\":")
            .append(Json.string(added.name()))
            .append(",\"accessKey\":")
            .append(Json.string(added.accessKeyId()));
    if (secretKey == null) {
      json.append(",\"secretKey\":").append(Json.string(added.secretKey()));
    }
    reply(exchange, 201, json.append("}\n").toString());
  }

  private static final String ADD_SHAPE =
      "{\"name\": \"...\", \"accessKey\": \"...\" (optional), \"secretKey\": \"...\" (optional)}";

  /** The string field {@code field} of {@code body}; null when it is absent or JSON null. */
  private static String text(JsonNode body, String field) throws Refused {
    JsonNode value = body.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new Refused(400, "InvalidInput", "body: " + field + " is not a string");
    }
    return value.textValue();
  }

  /** {@link #change} of a change that returns nothing. */
  private void alter(String admin, String what, Consumer<UserAccounts> change) throws Refused {
    change(
        admin,
        what,
        a -> {
          change.accept(a);
          return null;
        });
  }

  /**
   * Makes {@code what} through the accounts (one change at a time), then has this proxy re-read its
   * users; refusals become their answers.
   */
  private <T> T change(String admin, String what, Function<UserAccounts, T> change) throws Refused {
    String logged = printable(what);
    synchronized (changing) {
      T result;
      try {
        result = change.apply(accounts());
      } catch (IllegalArgumentException | StoreException e) {
        Refused refused = refused(e);
        LOG.info(
            "admin: {} asked to {}: refused ({})", admin, logged, printable(refused.getMessage()));
        throw refused;
      }
      LOG.info("admin: {} asked to {}: done", admin, logged);
      try {
        sources.usersChanged().run();
      } catch (RuntimeException e) {
        LOG.warn(
            "admin: {} is written, but this proxy cannot re-read its users yet (the next"
                + " re-read serves it): {}",
            logged,
            e.toString());
      }
      return result;
    }
  }

  /** {@code s} fit for one log line: a name not checked yet may hold a line break. */
  private static String printable(String s) {
    return s.replaceAll("\\p{Cntrl}", "?");
  }

  /** The answer to a refused change. */
  private static Refused refused(RuntimeException e) {
    if (e instanceof StoreException s) {
      return new Refused(
          503, "ServiceUnavailable", "not done (the change does not count): " + s.getMessage());
    }
    if (e instanceof UserAccountException u) {
      return switch (u.kind()) {
        case NOT_FOUND -> new Refused(404, "NoSuchEntity", u.getMessage());
        case CONFLICT -> new Refused(409, "EntityAlreadyExists", u.getMessage());
        case MALFORMED_POLICY -> new Refused(400, "MalformedPolicy", u.getMessage());
      };
    }
    return new Refused(400, "InvalidInput", e.getMessage());
  }

  private List<UserRecord> list() throws Refused {
    try {
      return accounts().list();
    } catch (StoreException e) {
      throw new Refused(503, "ServiceUnavailable", "cannot read the users: " + e.getMessage());
    }
  }

  private UserAccounts accounts() throws Refused {
    Supplier<UserAccounts> users = sources.users();
    UserAccounts accounts = users == null ? null : users.get();
    if (accounts == null) {
      throw new Refused(503, "ServiceUnavailable", "the array is not open yet (/health/ready)");
    }
    return accounts;
  }

  /** The request's JSON body as text: checked for its type, its size and its encoding. */
  private static String body(HttpExchange exchange) throws Refused, IOException {
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    String mediaType = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    if (!mediaType.equals("application/json")) {
      throw new Refused(
          415, "UnsupportedMediaType", "Content-Type: " + type + " (expected: application/json)");
    }
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(MAX_BODY_BYTES + 1);
    }
    if (bytes.length > MAX_BODY_BYTES) {
      throw new Refused(
          413, "EntityTooLarge", "body: over " + MAX_BODY_BYTES + " bytes (a policy: 20 KB)");
    }
    String text = new String(bytes, UTF_8);
    // Bytes that are not UTF-8 decode to U+FFFD, so they do not come back as they were.
    if (!Arrays.equals(text.getBytes(UTF_8), bytes)) {
      throw new Refused(400, "InvalidInput", "body: not UTF-8");
    }
    return text;
  }

  /** The segments of {@code rawPath} after {@code prefix}, percent-decoded. */
  private static List<String> segments(String rawPath, String prefix) throws Refused {
    List<String> out = new ArrayList<>();
    if (!rawPath.startsWith(prefix)) {
      return out;
    }
    for (String s : rawPath.substring(prefix.length()).split("/", -1)) {
      try {
        // A + in a path is a plus (IAM names may hold one), not a space as in a form.
        out.add(URLDecoder.decode(s.replace("+", "%2B"), UTF_8));
      } catch (IllegalArgumentException e) {
        throw new Refused(400, "InvalidInput", "path: bad percent-encoding");
      }
    }
    return out;
  }

  private static Refused notAllowed(HttpExchange exchange, String allow) {
    exchange.getResponseHeaders().set("Allow", allow);
    return new Refused(
        405,
        "MethodNotAllowed",
        exchange.getRequestMethod() + ": not allowed here (expected: " + allow + ")");
  }

  private static String error(String code, String message) {
    return "{\"code\":" + Json.string(code) + ",\"message\":" + Json.string(message) + "}\n";
  }

  private static void reply(HttpExchange exchange, int status, String json) throws IOException {
    AdminServer.reply(exchange, status, "application/json", json);
  }

  /** {@code {"users": [...]}}: each user's name, access key, policy names and creation time. */
  static String usersJson(List<UserRecord> users) {
    StringBuilder json = new StringBuilder("{\"users\":[");
    for (int i = 0; i < users.size(); i++) {
      UserRecord u = users.get(i);
      json.append(i == 0 ? "" : ",")
          .append("{\"name\":")
          .append(Json.string(u.name()))
          .append(",\"accessKey\":")
          .append(Json.string(u.accessKeyId()))
          .append(",\"policies\":[");
      int p = 0;
      for (String policy : u.policies().keySet()) {
        json.append(p++ == 0 ? "" : ",").append(Json.string(policy));
      }
      json.append("],\"created\":")
          .append(Json.string(Instant.ofEpochMilli(u.createdMillis()).toString()))
          .append('}');
    }
    return json.append("]}\n").toString();
  }

  /**
   * What the console's users table shows ({@code /console/api/users}): {@link #usersJson} with
   * {@code "error"}: null, or the reason there is no list (the array is not open, too few
   * repositories answered) and no users. Always an answer to render, never a failed request.
   */
  static String consoleUsers(AdminSources sources) {
    Supplier<UserAccounts> users = sources.users();
    UserAccounts accounts = users == null ? null : users.get();
    String reason;
    if (accounts == null) {
      reason = "the array is not open yet";
    } else {
      try {
        String json = usersJson(accounts.list());
        return "{\"error\":null," + json.substring(1);
      } catch (StoreException e) {
        reason = "cannot read the users: " + e.getMessage();
      }
    }
    return "{\"error\":" + Json.string(reason) + ",\"users\":[]}\n";
  }
}
