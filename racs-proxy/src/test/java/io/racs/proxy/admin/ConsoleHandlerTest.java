package io.racs.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.testing.TestArray;
import io.racs.proxy.testing.TestProxies;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that the console on the admin port serves nothing but its login form without a session,
 * refuses a wrong secret, signs in with the proxy's credentials into an HttpOnly SameSite=Strict
 * cookie, then serves the page, its assets and the state JSON with each repository's state, price
 * so far and latency history and the reshape; and that the S3 port serves no console.
 */
class ConsoleHandlerTest {
  private static final String ACCESS = TestProxies.ACCESS;
  private static final String SECRET = TestProxies.SECRET;

  private TestArray array;
  private RacsServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    array = TestArray.builder("4x2").wrap(RepositoryMetrics::metered).open();
    server = TestProxies.start(array.store());
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private HttpResponse<String> get(int port, String path, String cookie) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> login(String accessKey, String secretKey) throws Exception {
    String form =
        "accessKey="
            + URLEncoder.encode(accessKey, StandardCharsets.UTF_8)
            + "&secretKey="
            + URLEncoder.encode(secretKey, StandardCharsets.UTF_8);
    return http.send(
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.adminPort() + "/console/login"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void console_whenNotSignedIn_servesOnlyTheLoginForm() throws Exception {
    HttpResponse<String> page = get(server.adminPort(), "/console/", null);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("action=\"/console/login\"").doesNotContain("console.js");
    assertThat(get(server.adminPort(), "/console/api/state", null).statusCode()).isEqualTo(401);
    assertThat(get(server.adminPort(), "/console/assets/console.js", null).statusCode())
        .isEqualTo(401);
    assertThat(get(server.adminPort(), "/console/api/state", "racs_console=forged").statusCode())
        .isEqualTo(401);
  }

  @Test
  void login_whenSecretWrong_setsNoCookie() throws Exception {
    HttpResponse<String> refused = login(ACCESS, "not-the-secret");
    assertThat(refused.statusCode()).isEqualTo(303);
    assertThat(refused.headers().firstValue("Location")).hasValue("/console/?failed");
    assertThat(refused.headers().firstValue("Set-Cookie")).isEmpty();
    assertThat(login("nobody", SECRET).headers().firstValue("Set-Cookie")).isEmpty();
  }

  @Test
  void login_whenCredentialsRight_servesPageAssetsAndState() throws Exception {
    HttpResponse<String> signedIn = login(ACCESS, SECRET);
    assertThat(signedIn.statusCode()).isEqualTo(303);
    String setCookie = signedIn.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(setCookie)
        .contains("HttpOnly")
        .contains("SameSite=Strict")
        .contains("Path=/console");
    String cookie = setCookie.substring(0, setCookie.indexOf(';'));

    assertThat(get(server.adminPort(), "/console/", cookie).body()).contains("console.js");
    HttpResponse<String> js = get(server.adminPort(), "/console/assets/console.js", cookie);
    assertThat(js.statusCode()).isEqualTo(200);
    assertThat(js.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
    assertThat(get(server.adminPort(), "/console/assets/../index.html", cookie).statusCode())
        .isEqualTo(404);

    HttpResponse<String> state = get(server.adminPort(), "/console/api/state", cookie);
    assertThat(state.statusCode()).isEqualTo(200);
    assertThat(state.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(state.body())
        .contains("\"dataShards\":4,\"parityShards\":2")
        .contains("\"slot\":0,")
        .contains("\"accessLog\":{\"enabled\":false")
        .contains("\"priceSoFar\":\"")
        .contains("\"latency\":[")
        .contains("\"reshape\":{\"state\":\"none\"")
        .contains("\"pricesSource\":\"AWS S3 Standard");
    assertThat(get(server.adminPort(), "/console/assets/chart.js", cookie).statusCode())
        .isEqualTo(200);
  }

  private HttpResponse<String> action(String name, String cookie, boolean confirmed)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:" + server.adminPort() + "/console/api/actions/" + name))
            .header("Cookie", cookie)
            .POST(HttpRequest.BodyPublishers.noBody());
    if (confirmed) {
      request.header("X-Racs-Console", "confirmed");
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String signIn() throws Exception {
    String setCookie = login(ACCESS, SECRET).headers().firstValue("Set-Cookie").orElseThrow();
    return setCookie.substring(0, setCookie.indexOf(';'));
  }

  @Test
  void actions_whenConfirmed_pauseAndResumeTheScrub() throws Exception {
    String cookie = signIn();
    assertThat(action("scrub-pause", cookie, false).statusCode()).isEqualTo(400);
    assertThat(action("scrub-pause", "racs_console=forged", true).statusCode()).isEqualTo(401);
    assertThat(action("no-such", cookie, true).statusCode()).isEqualTo(404);

    assertThat(action("scrub-pause", cookie, true).statusCode()).isEqualTo(200);
    assertThat(get(server.adminPort(), "/console/api/state", cookie).body())
        .contains("\"scrubPaused\":true");
    assertThat(action("scrub-start", cookie, true).statusCode())
        .as("no scrub starts while paused")
        .isEqualTo(409);
    assertThat(action("scrub-resume", cookie, true).statusCode()).isEqualTo(200);
    assertThat(get(server.adminPort(), "/console/api/state", cookie).body())
        .contains("\"scrubPaused\":false");

    assertThat(action("scrub-start", cookie, true).statusCode()).isEqualTo(200);
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
    String state;
    while ((state = get(server.adminPort(), "/console/api/state", cookie).body())
        .contains("\"lastScrub\":null")) {
      assertThat(System.nanoTime()).as("the scrub asked for never reported").isLessThan(deadline);
      // Polling the state the page polls; the scrub runs on its own thread.
      java.util.concurrent.TimeUnit.MILLISECONDS.sleep(50);
    }
    assertThat(state).contains("\"lastScrub\":{\"objectsScanned\":0");
  }

  @Test
  void actions_whenReadOnly_areRefusedAndChangeNothing() throws Exception {
    server.close();
    server =
        io.racs.proxy.runtime.RacsServer.start(
            TestArray.builder("4x2").open().store(),
            io.racs.proxy.runtime.ServerConfig.defaults()
                .with("127.0.0.1:0", java.util.Map.of(ACCESS, SECRET))
                .withAdmin("127.0.0.1:0")
                .withConsoleReadOnly(true));
    String cookie = signIn();
    assertThat(action("scrub-pause", cookie, true).statusCode()).isEqualTo(403);
    assertThat(get(server.adminPort(), "/console/api/state", cookie).body())
        .contains("\"readOnly\":true")
        .contains("\"scrubPaused\":false");
  }

  @Test
  void s3Port_whenAskedForTheConsole_servesNoConsole() throws Exception {
    HttpResponse<String> onS3 = get(server.port(), "/console/", null);
    assertThat(onS3.statusCode()).isNotEqualTo(200);
    assertThat(onS3.body()).doesNotContain("RACS console");
  }
}
