package io.racs.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.racs.testkit.TestTools;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Headless Chromium driven over WebDriver: Debian's {@code chromedriver} in its own process on a
 * free loopback port, spoken to in plain HTTP and JSON with the JDK client (W3C WebDriver, plus
 * ChromeDriver's browser log). One browser session per instance; {@link #close()} ends both.
 */
final class WebDriver implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ELEMENT = "element-6066-11e4-a52e-4f735466cecf";
  private static final Duration START_LIMIT = Duration.ofSeconds(20);

  private final Process driver;
  private final HttpClient http = HttpClient.newHttpClient();
  private final URI base;
  private final String session;

  private WebDriver(Process driver, URI base) throws IOException, InterruptedException {
    this.driver = driver;
    this.base = base;
    ObjectNode options = JSON.createObjectNode();
    options.put("binary", TestTools.chromium().toString());
    options
        .putArray("args")
        .add("--headless=new")
        .add("--no-sandbox")
        .add("--disable-gpu")
        .add("--disable-dev-shm-usage")
        .add("--window-size=1280,1000");
    ObjectNode always = JSON.createObjectNode();
    always.put("browserName", "chrome");
    always.set("goog:chromeOptions", options);
    always.putObject("goog:loggingPrefs").put("browser", "ALL");
    ObjectNode body = JSON.createObjectNode();
    body.putObject("capabilities").set("alwaysMatch", always);
    this.session = call("POST", "/session", body).path("sessionId").asText();
    if (session.isEmpty()) {
      throw new IllegalStateException("chromedriver opened no session");
    }
  }

  /** Starts chromedriver and a headless Chromium session. */
  static WebDriver start(Path logDir) throws IOException, InterruptedException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Files.createDirectories(logDir);
    Process driver =
        new ProcessBuilder(
                TestTools.chromedriver().toString(), "--port=" + port, "--allowed-ips=127.0.0.1")
            .redirectErrorStream(true)
            .redirectOutput(logDir.resolve("chromedriver.log").toFile())
            .start();
    URI base = URI.create("http://127.0.0.1:" + port);
    HttpClient probe = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + START_LIMIT.toNanos();
    while (true) {
      try {
        HttpResponse<String> status =
            probe.send(
                HttpRequest.newBuilder(base.resolve("/status")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (JSON.readTree(status.body()).path("value").path("ready").asBoolean()) {
          break;
        }
      } catch (IOException notYet) {
        // Not listening yet: ask again until the limit.
      }
      if (System.nanoTime() > deadline || !driver.isAlive()) {
        driver.destroyForcibly();
        throw new IllegalStateException(
            "chromedriver did not become ready: "
                + Files.readString(logDir.resolve("chromedriver.log")));
      }
      // Polling the driver's own readiness report until it says ready.
      java.util.concurrent.TimeUnit.MILLISECONDS.sleep(50);
    }
    return new WebDriver(driver, base);
  }

  private JsonNode call(String method, String path, JsonNode body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json");
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    JsonNode value = JSON.readTree(response.body()).path("value");
    if (response.statusCode() != 200) {
      throw new IllegalStateException(
          method + " " + path + ": " + response.statusCode() + " " + value);
    }
    return value;
  }

  private String at(String path) {
    return "/session/" + session + path;
  }

  /** Loads {@code url} and waits for the page's load event. */
  void open(String url) throws IOException, InterruptedException {
    call("POST", at("/url"), JSON.createObjectNode().put("url", url));
  }

  /** The current page's URL. */
  String url() throws IOException, InterruptedException {
    return call("GET", at("/url"), null).asText();
  }

  /** The id of the element {@code css} selects (an error when none). */
  String find(String css) throws IOException, InterruptedException {
    ObjectNode body = JSON.createObjectNode().put("using", "css selector").put("value", css);
    JsonNode element = call("POST", at("/element"), body);
    if (!element.hasNonNull(ELEMENT)) {
      throw new IllegalStateException("no element reference for " + css + ": " + element);
    }
    return element.get(ELEMENT).asText();
  }

  /** Types {@code text} into the element {@code css} selects. */
  void type(String css, String text) throws IOException, InterruptedException {
    call("POST", at("/element/" + find(css) + "/value"), JSON.createObjectNode().put("text", text));
  }

  /** Clicks the element {@code css} selects. */
  void click(String css) throws IOException, InterruptedException {
    call("POST", at("/element/" + find(css) + "/click"), JSON.createObjectNode());
  }

  /** Runs {@code script} (a function body) in the page and returns what it returns. */
  JsonNode script(String script) throws IOException, InterruptedException {
    ObjectNode body = JSON.createObjectNode().put("script", script);
    body.putArray("args");
    return call("POST", at("/execute/sync"), body);
  }

  /**
   * Runs {@code script} (a function body whose last argument is the callback it calls with its
   * answer) in the page and returns that answer; for promises such as axe-core's.
   */
  JsonNode scriptAsync(String script) throws IOException, InterruptedException {
    ObjectNode body = JSON.createObjectNode().put("script", script);
    body.putArray("args");
    return call("POST", at("/execute/async"), body);
  }

  /** The key Tab, as WebDriver's key actions name it. */
  static final String TAB = "\uE004";

  /**
   * Presses and releases each key of {@code keys} in turn (WebDriver key actions), sent to whatever
   * has the focus, as a keyboard would.
   */
  void keys(String keys) throws IOException, InterruptedException {
    ObjectNode source = JSON.createObjectNode().put("type", "key").put("id", "keyboard");
    var actions = source.putArray("actions");
    keys.codePoints()
        .forEach(
            c -> {
              String key = new String(Character.toChars(c));
              actions.addObject().put("type", "keyDown").put("value", key);
              actions.addObject().put("type", "keyUp").put("value", key);
            });
    ObjectNode body = JSON.createObjectNode();
    body.putArray("actions").add(source);
    call("POST", at("/actions"), body);
  }

  /** Saves a PNG of the viewport as {@code file}. */
  void screenshot(Path file) throws IOException, InterruptedException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, Base64.getDecoder().decode(call("GET", at("/screenshot"), null).asText()));
  }

  /**
   * The browser's console entries since the last call, as {@code LEVEL message} (ChromeDriver's
   * log; SEVERE is an error: an uncaught exception, a failed load, a CSP violation).
   */
  List<String> browserLog() throws IOException, InterruptedException {
    List<String> lines = new ArrayList<>();
    for (JsonNode entry :
        call("POST", at("/se/log"), JSON.valueToTree(Map.of("type", "browser")))) {
      lines.add(entry.path("level").asText() + " " + entry.path("message").asText());
    }
    return lines;
  }

  @Override
  public void close() {
    try {
      call("DELETE", at(""), null);
    } catch (IOException | RuntimeException e) {
      // The driver goes anyway.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      driver.destroy();
    }
  }
}
