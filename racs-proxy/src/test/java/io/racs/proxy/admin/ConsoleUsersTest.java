package io.racs.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.testing.TestArray;
import io.racs.proxy.testing.TestProxies;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Proves the console manages the stored users through the admin API's own rules, for its signed-in
 * administrator: a change needs the page's confirmation header and a session (400, 401 without),
 * adds a user (its secret answered once), attaches a policy (a malformed one refused as
 * MalformedPolicy) and removes it (404 NoSuchEntity a second time), each seen in the users the
 * console lists; in read-only mode every change is refused (403) and nothing changes.
 */
class ConsoleUsersTest {
  private static final String ACCESS = TestProxies.ACCESS;
  private static final String SECRET = TestProxies.SECRET;
  private static final String READ_PUBLIC =
      """
      {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:GetObject",
        "Resource": "arn:aws:s3:::b/public/*"}]}
      """;

  private RacsServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private String signIn() throws Exception {
    String form =
        "accessKey="
            + URLEncoder.encode(ACCESS, StandardCharsets.UTF_8)
            + "&secretKey="
            + URLEncoder.encode(SECRET, StandardCharsets.UTF_8);
    String setCookie =
        http.send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.adminPort() + "/console/login"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .headers()
            .firstValue("Set-Cookie")
            .orElseThrow();
    return setCookie.substring(0, setCookie.indexOf(';'));
  }

  private HttpResponse<String> call(
      String method, String path, String body, String cookie, boolean confirmed) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:" + server.adminPort() + "/console/api/admin/users" + path))
            .header("Cookie", cookie)
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (confirmed) {
      request.header("X-Racs-Console", "confirmed");
    }
    if (body != null) {
      request.header("Content-Type", "application/json"); // as the page sends it
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String listed(String cookie) throws Exception {
    return http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.adminPort() + "/console/api/users"))
                .header("Cookie", cookie)
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void users_whenConfirmed_areAddedGivenAPolicyAndRemoved() throws Exception {
    server = TestProxies.start(TestArray.builder("4x2").open().store());
    String cookie = signIn();
    String add = "{\"name\": \"web\"}";
    assertThat(call("POST", "", add, cookie, false).statusCode()).isEqualTo(400);
    assertThat(call("POST", "", add, "racs_console=forged", true).statusCode()).isEqualTo(401);
    assertThat(listed(cookie)).doesNotContain("\"web\"");

    HttpResponse<String> added = call("POST", "", add, cookie, true);
    assertThat(added.statusCode()).as(added.body()).isEqualTo(201);
    assertThat(added.body()).contains("\"name\":\"web\"", "\"accessKey\":", "\"secretKey\":");
    assertThat(listed(cookie)).contains("\"web\"");
    assertThat(call("POST", "", add, cookie, true).statusCode()).as("a duplicate").isEqualTo(409);

    HttpResponse<String> malformed =
        call("PUT", "/web/policies/bad", "{\"Statement\": 3}", cookie, true);
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(malformed.body()).contains("\"code\":\"MalformedPolicy\"");
    assertThat(call("PUT", "/web/policies/read-public", READ_PUBLIC, cookie, true).statusCode())
        .isEqualTo(204);
    assertThat(listed(cookie)).contains("read-public").doesNotContain("\"bad\"");

    assertThat(call("DELETE", "/web", null, cookie, true).statusCode()).isEqualTo(204);
    assertThat(listed(cookie)).doesNotContain("\"web\"");
    HttpResponse<String> again = call("DELETE", "/web", null, cookie, true);
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(again.body()).contains("\"code\":\"NoSuchEntity\"");
  }

  @Test
  void users_whenReadOnly_areRefusedAndNothingChanges() throws Exception {
    server =
        RacsServer.start(
            TestArray.builder("4x2").open().store(),
            ServerConfig.defaults()
                .with("127.0.0.1:0", Map.of(ACCESS, SECRET))
                .withAdmin("127.0.0.1:0")
                .withConsoleReadOnly(true));
    String cookie = signIn();
    HttpResponse<String> refused = call("POST", "", "{\"name\": \"web\"}", cookie, true);
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body()).contains("read-only");
    assertThat(listed(cookie)).doesNotContain("\"web\"");
    assertThat(call("GET", "", null, cookie, false).statusCode())
        .as("reading the users needs no confirmation")
        .isEqualTo(200);
  }
}
