package io.racs.proxy.admin;

import static io.racs.proxy.testing.TestClients.errorCode;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.s3.server.ServerMetrics;
import io.racs.proxy.testing.TestArray;
import io.racs.proxy.testing.TestClients;
import io.racs.proxy.testing.TestProxies;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Proves the admin API's users endpoints on a real proxy (S3 and admin on free loopback ports,
 * stored users re-read at start only, so that a key works at once only because the admin API has
 * the directory re-read): a user added through it signs S3 requests at once; the list shows names,
 * keys, policy names and creation times and never a secret; a read-only policy attached through it
 * lets the user GET and denies its PUT, and detaching it denies the GET again; a removed user's key
 * stops working; bad input is a JSON error of the right status that changes nothing; requests not
 * signed with an administrator's key (none, a wrong secret, a stored user's key) are refused; while
 * the array is not open every request is a 503; no secret reaches the log; and the console lists
 * the users read-only.
 */
class AdminApiTest {
  private static final String ADMIN = TestProxies.ACCESS;
  private static final String ADMIN_SECRET = TestProxies.SECRET;
  private static final String READ_ASSETS =
      "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
          + "\"Action\":\"s3:GetObject\",\"Resource\":\"arn:aws:s3:::assets/*\"}]}";
  private static final ObjectMapper JSON = new ObjectMapper();

  private TestArray array;
  private RacsServer server;
  private S3Client adminS3;
  private final HttpClient http = HttpClient.newHttpClient();
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();

  @BeforeEach
  void start() throws Exception {
    log.setContext(root().getLoggerContext());
    log.start();
    root().addAppender(log);
    array = TestArray.builder("4x2").open();
    server =
        RacsServer.start(
            array.store(),
            ServerConfig.defaults()
                .with("127.0.0.1:0", Map.of(ADMIN, ADMIN_SECRET))
                .withAdmin("127.0.0.1:0")
                .withUsersRefresh(Duration.ZERO));
    adminS3 = TestClients.s3(server.port(), ADMIN, ADMIN_SECRET);
    adminS3.createBucket(b -> b.bucket("assets"));
    adminS3.putObject(b -> b.bucket("assets").key("a.txt"), RequestBody.fromString("asset"));
  }

  @AfterEach
  void stop() {
    root().detachAppender(log);
    if (adminS3 != null) {
      adminS3.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static Logger root() {
    return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  }

  /** Every line logged so far, copied under the appender's lock (server threads append too). */
  private List<String> logged() {
    synchronized (log) {
      return log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
  }

  private static String basic(String accessKey, String secretKey) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((accessKey + ":" + secretKey).getBytes(StandardCharsets.UTF_8));
  }

  private HttpResponse<String> send(
      String method, String path, String type, String body, String authorization) throws Exception {
    return send(server.adminPort(), method, path, type, body, authorization);
  }

  private HttpResponse<String> send(
      int port, String method, String path, String type, String body, String authorization)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (type != null) {
      request.header("Content-Type", type);
    }
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** A request signed by the administrator, with a JSON body when {@code body} is not null. */
  private HttpResponse<String> admin(String method, String path, String body) throws Exception {
    return send(
        method, path, body == null ? null : "application/json", body, basic(ADMIN, ADMIN_SECRET));
  }

  /** Adds user reader, access key READER, secret reader-secret, through the admin API. */
  private void addReader() throws Exception {
    assertThat(
            admin(
                    "POST",
                    "/admin/users",
                    "{\"name\":\"reader\",\"accessKey\":\"READER\",\"secretKey\":\"reader-secret\"}")
                .statusCode())
        .isEqualTo(201);
  }

  private JsonNode users() throws Exception {
    HttpResponse<String> list = admin("GET", "/admin/users", null);
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.headers().firstValue("Content-Type")).hasValue("application/json");
    return JSON.readTree(list.body()).get("users");
  }

  private static String errorOf(HttpResponse<String> response) throws Exception {
    return JSON.readTree(response.body()).get("code").asText();
  }

  @Test
  void add_whenGeneratedKeys_theKeySignsAtOnceAndTheSecretIsShownOnce() throws Exception {
    HttpResponse<String> added = admin("POST", "/admin/users", "{\"name\":\"reader\"}");

    assertThat(added.statusCode()).isEqualTo(201);
    assertThat(added.headers().firstValue("Cache-Control")).hasValue("no-store");
    JsonNode keys = JSON.readTree(added.body());
    assertThat(keys.get("name").asText()).isEqualTo("reader");
    String accessKey = keys.get("accessKey").asText();
    String secretKey = keys.get("secretKey").asText();
    assertThat(accessKey).startsWith("RACS").hasSize(20);
    assertThat(secretKey).hasSize(40);
    try (S3Client reader = TestClients.s3(server.port(), accessKey, secretKey);
        S3Client forged = TestClients.s3(server.port(), accessKey, "not-the-secret")) {
      // Signed and known, with no policy yet: denied by the policy decision, not unknown.
      assertThat(errorCode(() -> reader.getObjectAsBytes(b -> b.bucket("assets").key("a.txt"))))
          .isEqualTo("AccessDenied");
      assertThat(errorCode(() -> forged.getObjectAsBytes(b -> b.bucket("assets").key("a.txt"))))
          .isEqualTo("SignatureDoesNotMatch");
    }
    assertThat(server.users().storedUsers()).isEqualTo(1);
    assertThat(users().toString()).doesNotContain(secretKey);
    assertThat(logged()).anyMatch(l -> l.contains(ADMIN + " asked to add user reader: done"));
    assertThat(logged()).noneMatch(l -> l.contains(secretKey));
  }

  @Test
  void list_whenUsersWithPolicies_showsNamesKeysPoliciesAndCreatedButNeverASecret()
      throws Exception {
    String generated =
        JSON.readTree(admin("POST", "/admin/users", "{\"name\":\"reader\"}").body())
            .get("secretKey")
            .asText();
    HttpResponse<String> given =
        admin(
            "POST",
            "/admin/users",
            "{\"name\":\"backup\",\"accessKey\":\"BACKUPKEY\",\"secretKey\":\"given-secret-1\"}");
    assertThat(given.statusCode()).isEqualTo(201);
    // A secret the caller chose is not sent back.
    assertThat(given.body()).doesNotContain("given-secret-1").doesNotContain("secretKey");
    assertThat(admin("PUT", "/admin/users/reader/policies/read-assets", READ_ASSETS).statusCode())
        .isEqualTo(204);

    JsonNode users = users();

    assertThat(users).hasSize(2);
    assertThat(users.get(0).get("name").asText()).isEqualTo("backup");
    assertThat(users.get(0).get("accessKey").asText()).isEqualTo("BACKUPKEY");
    assertThat(users.get(0).get("policies")).isEmpty();
    assertThat(users.get(1).get("name").asText()).isEqualTo("reader");
    assertThat(users.get(1).get("policies").get(0).asText()).isEqualTo("read-assets");
    assertThat(users.get(1).get("created").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    for (JsonNode u : users) {
      assertThat(u.has("secretKey")).isFalse();
    }
    assertThat(users.toString())
        .doesNotContain(generated)
        .doesNotContain("given-secret-1")
        .doesNotContain("plain:");
    assertThat(logged()).noneMatch(l -> l.contains(generated) || l.contains("given-secret-1"));
  }

  @Test
  void attachPolicy_whenReadOnlyOfAPrefix_getIsAllowedAndPutDeniedUntilDetached() throws Exception {
    addReader();
    try (S3Client reader = TestClients.s3(server.port(), "READER", "reader-secret")) {
      assertThat(admin("PUT", "/admin/users/reader/policies/read-assets", READ_ASSETS).statusCode())
          .isEqualTo(204);

      assertThat(reader.getObjectAsBytes(b -> b.bucket("assets").key("a.txt")).asUtf8String())
          .isEqualTo("asset");
      assertThat(
              errorCode(
                  () ->
                      reader.putObject(
                          b -> b.bucket("assets").key("b.txt"), RequestBody.fromString("no"))))
          .isEqualTo("AccessDenied");
      assertThat(errorCode(() -> adminS3.headObject(b -> b.bucket("assets").key("b.txt"))))
          .isNotEqualTo("none");

      assertThat(admin("DELETE", "/admin/users/reader/policies/read-assets", null).statusCode())
          .isEqualTo(204);
      assertThat(errorCode(() -> reader.getObjectAsBytes(b -> b.bucket("assets").key("a.txt"))))
          .isEqualTo("AccessDenied");
    }
  }

  @Test
  void remove_whenTheUserExists_itsKeyStopsWorkingAtOnce() throws Exception {
    addReader();
    admin("PUT", "/admin/users/reader/policies/read-assets", READ_ASSETS);
    try (S3Client reader = TestClients.s3(server.port(), "READER", "reader-secret")) {
      assertThat(reader.getObjectAsBytes(b -> b.bucket("assets").key("a.txt")).asUtf8String())
          .isEqualTo("asset");

      assertThat(admin("DELETE", "/admin/users/reader", null).statusCode()).isEqualTo(204);

      assertThat(errorCode(() -> reader.getObjectAsBytes(b -> b.bucket("assets").key("a.txt"))))
          .isEqualTo("InvalidAccessKeyId");
      assertThat(users()).isEmpty();
      HttpResponse<String> again = admin("DELETE", "/admin/users/reader", null);
      assertThat(again.statusCode()).isEqualTo(404);
      assertThat(errorOf(again)).isEqualTo("NoSuchEntity");
    }
  }

  /** A request of the bad-input test, and the status and error code it must get. */
  private record Case(
      String method, String path, String type, String body, int status, String code) {}

  /** {@code POST /admin/users} of {@code body}, and what it must get. */
  private static Case add(String body, int status, String code) {
    return new Case("POST", "/admin/users", "application/json", body, status, code);
  }

  @Test
  void badInput_whenRefused_answersItsErrorAndChangesNothing() throws Exception {
    addReader();
    admin("PUT", "/admin/users/reader/policies/read-assets", READ_ASSETS);
    String before = users().toString();
    String tooBig =
        "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"s3:GetObject\","
            + "\"Resource\":\"arn:aws:s3:::assets/"
            + "x".repeat(21 * 1024)
            + "\"}]}";
    String json = "application/json";
    String reader = "/admin/users/reader/policies/read-assets";
    List<Case> cases =
        List.of(
            add("{\"name\":\"reader\"}", 409, "EntityAlreadyExists"),
            add("{\"name\":\"other\",\"accessKey\":\"READER\"}", 409, "EntityAlreadyExists"),
            add("{\"name\":\"other\",\"accessKey\":\"" + ADMIN + "\"}", 409, "EntityAlreadyExists"),
            add("{\"name\":\"no spaces\"}", 400, "InvalidInput"),
            add(
                "{\"name\":\"other\",\"secretKey\":\"bad secret with spaces\"}",
                400,
                "InvalidInput"),
            add("{\"name\":\"other\"", 400, "InvalidInput"),
            add("[\"other\"]", 400, "InvalidInput"),
            add("{\"name\":\"other\"} {}", 400, "InvalidInput"),
            add("{\"name\":\"a\",\"name\":\"b\"}", 400, "InvalidInput"),
            add("{\"name\":\"other\",\"admin\":true}", 400, "InvalidInput"),
            add("{\"name\":7}", 400, "InvalidInput"),
            add(
                "{\"name\":\"other\",\"secretKey\":\"" + "s".repeat(70_000) + "\"}",
                413,
                "EntityTooLarge"),
            new Case(
                "POST",
                "/admin/users",
                "application/x-www-form-urlencoded",
                "name=other",
                415,
                "UnsupportedMediaType"),
            new Case(
                "POST",
                "/admin/users?name=other",
                json,
                "{\"name\":\"other\"}",
                400,
                "InvalidInput"),
            new Case(
                "PUT", "/admin/users/nobody/policies/p", json, READ_ASSETS, 404, "NoSuchEntity"),
            new Case(
                "PUT",
                reader,
                json,
                READ_ASSETS.replace("s3:GetObject", "s3:Teleport"),
                400,
                "MalformedPolicy"),
            new Case("PUT", reader, json, "{", 400, "MalformedPolicy"),
            new Case("PUT", reader, json, tooBig, 400, "MalformedPolicy"),
            new Case(
                "PUT",
                reader.replace("read-assets", "bad%20name"),
                json,
                READ_ASSETS,
                400,
                "InvalidInput"),
            new Case("PUT", reader, "text/plain", READ_ASSETS, 415, "UnsupportedMediaType"),
            new Case(
                "DELETE", "/admin/users/reader/policies/none", null, null, 404, "NoSuchEntity"),
            new Case("DELETE", "/admin/users/nobody", null, null, 404, "NoSuchEntity"),
            new Case("GET", reader, null, null, 405, "MethodNotAllowed"),
            new Case("PUT", "/admin/users", json, "{}", 405, "MethodNotAllowed"),
            new Case("GET", "/admin/buckets", null, null, 404, "NotFound"));
    for (Case c : cases) {
      HttpResponse<String> response =
          send(c.method(), c.path(), c.type(), c.body(), basic(ADMIN, ADMIN_SECRET));
      assertThat(response.statusCode())
          .as(c.method() + " " + c.path() + " " + c.code())
          .isEqualTo(c.status());
      assertThat(errorOf(response)).as(c.path()).isEqualTo(c.code());
      assertThat(response.body()).doesNotContain("bad secret with spaces");
    }
    HttpResponse<String> notUtf8 =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:"
                            + server.adminPort()
                            + "/admin/users/reader/policies/x"))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[] {'{', (byte) 0xff, '}'}))
                .header("Content-Type", "application/json")
                .header("Authorization", basic(ADMIN, ADMIN_SECRET))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(notUtf8.statusCode()).isEqualTo(400);
    assertThat(errorOf(notUtf8)).isEqualTo("InvalidInput");
    HttpResponse<String> tooLarge =
        admin("PUT", "/admin/users/reader/policies/read-assets", tooBig);
    assertThat(JSON.readTree(tooLarge.body()).get("message").asText())
        .isEqualTo("MalformedPolicy: Policies must be no more than 20480 bytes");

    assertThat(users().toString()).isEqualTo(before);
    assertThat(logged()).noneMatch(l -> l.contains("bad secret with spaces"));
  }

  @Test
  void requests_whenNotSignedByAnAdministrator_areRefusedAndChangeNothing() throws Exception {
    addReader();
    String before = users().toString();
    String[] refused = {
      null,
      basic(ADMIN, "wrong-secret"),
      basic("READER", "reader-secret"), // a stored user, however it signs S3 requests
      "Basic !!!not-base64",
      "Bearer " + ADMIN_SECRET,
    };
    for (String authorization : refused) {
      for (String[] request :
          new String[][] {
            {"GET", "/admin/users", null},
            {"POST", "/admin/users", "{\"name\":\"intruder\"}"},
            {"DELETE", "/admin/users/reader", null},
            {"PUT", "/admin/users/reader/policies/all", READ_ASSETS},
            {"GET", "/admin/anything", null},
          }) {
        HttpResponse<String> response =
            send(request[0], request[1], "application/json", request[2], authorization);
        assertThat(response.statusCode()).as(request[0] + " " + request[1]).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).isPresent();
        assertThat(response.body()).doesNotContain("reader");
      }
    }
    assertThat(users().toString()).isEqualTo(before);
    assertThat(logged()).anyMatch(l -> l.contains("refused for access key '" + ADMIN + "'"));
    assertThat(logged()).noneMatch(l -> l.contains("wrong-secret"));
  }

  @Test
  void users_whenTheArrayIsNotOpenYet_answer503AndChangeNothing() throws Exception {
    AdminSources notOpen =
        new AdminSources(
            () -> null,
            null,
            new ServerMetrics(),
            () -> null,
            () -> null,
            false,
            Map.of(ADMIN, ADMIN_SECRET),
            null,
            null,
            false,
            json -> {},
            () -> MetricSnapshots.of(),
            () -> null,
            () -> {
              throw new AssertionError("nothing changed, nothing to re-read");
            });
    try (AdminServer waiting = AdminServer.start(new InetSocketAddress("127.0.0.1", 0), notOpen)) {
      for (String[] request :
          new String[][] {
            {"GET", "/admin/users", null}, {"POST", "/admin/users", "{\"name\":\"a\"}"}
          }) {
        HttpResponse<String> response =
            send(
                waiting.port(),
                request[0],
                request[1],
                "application/json",
                request[2],
                basic(ADMIN, ADMIN_SECRET));
        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(errorOf(response)).isEqualTo("ServiceUnavailable");
        assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
      }
    }
  }

  @Test
  void console_whenSignedIn_listsTheUsersWithoutSecrets() throws Exception {
    addReader();
    assertThat(send("GET", "/console/api/users", null, null, null).statusCode()).isEqualTo(401);
    String form =
        "accessKey="
            + URLEncoder.encode(ADMIN, StandardCharsets.UTF_8)
            + "&secretKey="
            + URLEncoder.encode(ADMIN_SECRET, StandardCharsets.UTF_8);
    String cookie =
        send("POST", "/console/login", "application/x-www-form-urlencoded", form, null)
            .headers()
            .firstValue("Set-Cookie")
            .orElseThrow()
            .split(";")[0];

    HttpResponse<String> listed =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.adminPort() + "/console/api/users"))
                .header("Cookie", cookie)
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(listed.statusCode()).isEqualTo(200);
    JsonNode json = JSON.readTree(listed.body());
    assertThat(json.get("error").isNull()).isTrue();
    assertThat(json.get("users").get(0).get("accessKey").asText()).isEqualTo("READER");
    assertThat(listed.body()).doesNotContain("reader-secret");
  }
}
