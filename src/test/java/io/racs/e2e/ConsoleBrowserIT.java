package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Proves the console in a real browser: headless Chromium (over ChromeDriver) signs in to the
 * console of a proxy process over six directories, sees the array's geometry, the bucket and every
 * repository up; when one repository's directory goes away under traffic, the page shows that
 * repository as not up within seconds, by its own polling; and the page logs no console error. Each
 * repository row shows its price so far and a latency chart, and the background work the reshape.
 * Both pages pass axe-core's rules with no violation of serious or critical impact (all violations
 * are printed), and the Tab key reaches every control of the console, whose log filter works from
 * the keyboard alone. Screenshots go to {@code target/console-browser/}.
 */
class ConsoleBrowserIT {
  private static final String BUCKET = "console-bucket";
  private static final Duration SHOWN_WITHIN = Duration.ofSeconds(15);
  private static final Path SHOTS = Path.of("target", "console-browser");

  @TempDir static Path dir;
  private static ProxyProcess proxy;
  private static WebDriver browser;

  @BeforeAll
  static void start() throws Exception {
    proxy = ProxyProcess.start(dir, ProxyProcess.fsConfig(dir, "4x2", null));
    browser = WebDriver.start(SHOTS);
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.close();
    }
    if (proxy != null) {
      proxy.close();
    }
  }

  private static String console() {
    return "http://127.0.0.1:" + proxy.adminPort() + "/console/";
  }

  /** Each repository row's state, in slot order, as the page shows it now. */
  private static List<String> states() throws Exception {
    JsonNode rows =
        browser.script(
            "return [...document.querySelectorAll('#repositories tbody tr')]"
                + ".map(r => r.dataset.state);");
    List<String> states = new java.util.ArrayList<>();
    rows.forEach(r -> states.add(r.asText()));
    return states;
  }

  /** Polls the page's DOM until {@code done} holds for its states, or fails after the limit. */
  private static List<String> awaitStates(Predicate<List<String>> done, Runnable traffic)
      throws Exception {
    long deadline = System.nanoTime() + SHOWN_WITHIN.toNanos();
    List<String> states = states();
    while (!done.test(states)) {
      if (System.nanoTime() > deadline) {
        browser.screenshot(SHOTS.resolve("timeout.png"));
        throw new AssertionError("the page still shows " + states + " after " + SHOWN_WITHIN);
      }
      traffic.run();
      // Polling what the page shows; the page polls the proxy on its own timer.
      TimeUnit.MILLISECONDS.sleep(100);
      states = states();
    }
    return states;
  }

  /** Runs axe-core on the page shown now: prints every violation, fails on serious or worse. */
  private static void assertAccessible(String page) throws Exception {
    Accessibility.Result result = Accessibility.axe(browser);
    System.out.printf(
        "axe-core %s on the %s page: %d rules passed, %d violated%n",
        result.version(), page, result.passed(), result.violations().size());
    result.violations().forEach(v -> System.out.println("  " + v));
    assertThat(result.version()).isEqualTo(Launcher.pinned("AXE_CORE_VERSION"));
    assertThat(result.passed()).as("rules that applied and passed").isPositive();
    assertThat(result.violations())
        .as("axe-core violations of serious or critical impact on the %s page", page)
        .filteredOn(v -> Accessibility.FAILING.contains(v.impact()))
        .isEmpty();
  }

  /**
   * Proves the check can fail: an input with no label, added to the page, is a critical violation
   * axe-core reports; then it is taken away again.
   */
  private static void assertAxeSeesAnUnlabelledInput() throws Exception {
    browser.script(
        "const i = document.createElement('input'); i.id = 'axe-control';"
            + " document.querySelector('main').appendChild(i);");
    Accessibility.Result result = Accessibility.axe(browser);
    browser.script("document.getElementById('axe-control').remove();");
    assertThat(result.violations())
        .anySatisfy(
            v -> {
              assertThat(v.id()).isEqualTo("label");
              assertThat(v.impact()).isEqualTo("critical");
              assertThat(v.targets()).contains("#axe-control");
            });
  }

  /** The text of the element {@code id}. */
  private static String text(String id) throws Exception {
    return browser.script("return document.getElementById('" + id + "').textContent;").asText();
  }

  @Test
  void console_whenRepositoryRemoved_showsItNotUpWithinSeconds() throws Exception {
    try (S3Client s3 = FaultLoad.client(proxy.endpoint())) {
      s3.createBucket(b -> b.bucket(BUCKET));
      s3.putObject(b -> b.bucket(BUCKET).key("first"), RequestBody.fromString("hello"));

      browser.open(console());
      assertThat(browser.script("return document.title;").asText())
          .isEqualTo("RACS console: sign in");
      browser.screenshot(SHOTS.resolve("sign-in.png"));
      assertAccessible("sign-in");
      browser.type("#accessKey", ProxyProcess.ACCESS_KEY);
      browser.type("#secretKey", ProxyProcess.SECRET_KEY);
      browser.click("#signIn");
      assertThat(browser.url()).isEqualTo(console());

      List<String> up =
          awaitStates(s -> s.size() == 6 && s.stream().allMatch("up"::equals), () -> {});
      assertThat(up).hasSize(6);
      assertThat(browser.script("return document.getElementById('geometry').textContent;").asText())
          .contains("4x2")
          .contains("ready");
      assertThat(
              browser
                  .script("return document.querySelector('#bucket-table tbody').textContent;")
                  .asText())
          .contains(BUCKET);
      assertThat(browser.script("return document.getElementById('version').textContent;").asText())
          .isNotEqualTo("…");
      browser.screenshot(SHOTS.resolve("array-up.png"));
      assertThat(
              browser
                  .script(
                      "return [...document.querySelectorAll('#repositories tbody tr')]"
                          + ".map(r => r.querySelector('td.price').textContent"
                          + " + ' ' + r.querySelector('svg.latency').getAttribute('aria-label'));")
                  .toString())
          .contains("$")
          .contains("latency");
      assertThat(text("work-list")).contains("Reshape").contains("none recorded");
      assertThat(text("prices-source")).contains("AWS S3 Standard");
      assertAccessible("console");

      List<String> controls = Accessibility.controls(browser);
      List<String> reached = Accessibility.tabOrder(browser, controls.size() + 10);
      assertThat(reached).as("the Tab key reaches every control").containsAll(controls);
      assertThat(controls).contains("input#log-filter", "button#scrub-pause", "pre#log-lines");
      for (int i = 0; i < controls.size() + 10; i++) {
        if (browser.script("return document.activeElement.id;").asText().equals("log-filter")) {
          break;
        }
        browser.keys(WebDriver.TAB);
      }
      browser.keys("no-such-request");
      assertThat(text("log-lines")).isEqualTo("(none)");
      browser.screenshot(SHOTS.resolve("keyboard-filter.png"));
      browser.keys("\uE003".repeat("no-such-request".length())); // Backspace

      Path root = dir.resolve("repo-2");
      Files.move(root, dir.resolve("repo-2-away"));
      int[] n = {0};
      List<String> after =
          awaitStates(
              s -> s.size() == 6 && !"up".equals(s.get(2)),
              () -> {
                try {
                  s3.putObject(
                      b -> b.bucket(BUCKET).key("after-" + n[0]++), RequestBody.fromString("x"));
                } catch (RuntimeException refusedOrSlow) {
                  // The array may refuse or hedge while it notices; only the page is asserted.
                }
              });
      assertThat(after.get(2)).isNotEqualTo("up");
      assertThat(after).filteredOn("up"::equals).hasSize(5);
      browser.script("window.scrollTo(0, 0);");
      browser.screenshot(SHOTS.resolve("array-one-down.png"));
      assertAccessible("console, one repository down");
      assertAxeSeesAnUnlabelledInput();
    }
    assertThat(browser.browserLog()).filteredOn(l -> l.startsWith("SEVERE")).isEmpty();
  }
}
