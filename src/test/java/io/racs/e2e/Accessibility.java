package io.racs.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.testkit.TestTools;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The accessibility checks of a page in the browser: axe-core (from npm at the pinned version,
 * provisioned as {@link TestTools#axeCore()}) run inside the page, and the page's controls walked
 * with the Tab key as a keyboard user would.
 */
final class Accessibility {
  private Accessibility() {}

  /** The impacts a violation fails the test at. */
  static final Set<String> FAILING = Set.of("serious", "critical");

  /**
   * One axe-core violation.
   *
   * @param id the rule
   * @param impact minor, moderate, serious or critical
   * @param help what the rule asks
   * @param targets the CSS selectors of the elements that break it
   */
  record Violation(String id, String impact, String help, List<String> targets) {
    @Override
    public String toString() {
      return impact + " " + id + ": " + help + " " + targets;
    }
  }

  /**
   * What one axe-core run found.
   *
   * @param version axe-core's version, as the library reports it
   * @param passed how many rules applied to the page and passed
   * @param violations the rules it broke
   */
  record Result(String version, int passed, List<Violation> violations) {}

  /** Runs axe-core's rules against the page {@code browser} shows now. */
  static Result axe(WebDriver browser) throws IOException, InterruptedException {
    JsonNode loaded = browser.script("return typeof window.axe;");
    if (!"object".equals(loaded.asText())) {
      String source = Files.readString(TestTools.axeCore());
      browser.script(source + "\n;return typeof window.axe;");
    }
    JsonNode answer =
        browser.scriptAsync(
            "const done = arguments[arguments.length - 1];"
                + "window.axe.run(document, {resultTypes: ['violations']})"
                + ".then(r => done(JSON.stringify({version: window.axe.version,"
                + " passed: r.passes.length, violations: r.violations.map(v => ({id: v.id,"
                + " impact: v.impact, help: v.help,"
                + " targets: v.nodes.map(n => n.target.join(' '))}))})))"
                + ".catch(e => done('axe failed: ' + e));");
    String text = answer.asText();
    if (text.startsWith("axe failed")) {
      throw new IllegalStateException(text);
    }
    JsonNode result = new com.fasterxml.jackson.databind.ObjectMapper().readTree(text);
    List<Violation> out = new ArrayList<>();
    for (JsonNode v : result.path("violations")) {
      List<String> targets = new ArrayList<>();
      v.path("targets").forEach(t -> targets.add(t.asText()));
      out.add(
          new Violation(
              v.path("id").asText(), v.path("impact").asText(), v.path("help").asText(), targets));
    }
    return new Result(result.path("version").asText(), result.path("passed").asInt(), out);
  }

  /**
   * What the Tab key focuses, in order, pressed until it comes back round to an element it focused
   * already (at most {@code limit} presses): each element as {@code tag#id} or {@code tag "name"}.
   * Where focus starts is the browser's; leaving the page's last control focuses the body, and the
   * next press the first control again.
   */
  static List<String> tabOrder(WebDriver browser, int limit)
      throws IOException, InterruptedException {
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < limit; i++) {
      browser.keys(WebDriver.TAB);
      String focused = browser.script(FOCUSED).asText();
      if (seen.contains(focused)) {
        break;
      }
      if (!focused.equals("body")) {
        seen.add(focused);
      }
    }
    return seen;
  }

  /** Every control of the page a keyboard should reach, named as {@link #tabOrder} names them. */
  static List<String> controls(WebDriver browser) throws IOException, InterruptedException {
    List<String> out = new ArrayList<>();
    browser
        .script(
            "return [...document.querySelectorAll('a[href], button, input, textarea, select,"
                + " [tabindex]')].filter(e => !e.disabled && e.tabIndex >= 0"
                + " && e.getClientRects().length > 0).map(e => "
                + NAME
                + ");")
        .forEach(n -> out.add(n.asText()));
    return out;
  }

  private static final String NAME =
      "(e.id ? e.tagName.toLowerCase() + '#' + e.id"
          + " : e.tagName.toLowerCase() + ' \"' + (e.getAttribute('aria-label') || e.textContent)"
          + ".trim() + '\"')";

  private static final String FOCUSED =
      "const e = document.activeElement;"
          + "return !e || e === document.body ? 'body' : "
          + NAME
          + ";";
}
