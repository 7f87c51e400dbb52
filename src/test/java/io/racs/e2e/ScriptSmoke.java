package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one of {@code scripts/} at the smallest settings a smoke test gives it: its output directory
 * and its temporary files under the test's directory, and a run that must succeed; or with a bad
 * setting, which it must refuse in one line before it starts anything.
 */
final class ScriptSmoke {
  private ScriptSmoke() {}

  /**
   * Runs {@code scripts/NAME DIR/out} with {@code settings} (and TMPDIR=DIR) in its environment,
   * asserts that it exits 0, and returns {@code DIR/out}.
   */
  static Path run(String name, Path dir, Map<String, String> settings) {
    Path out = dir.resolve("out");
    Launcher.Result result = exec(name, dir, settings, out.toString());
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    return out;
  }

  /**
   * Runs {@code scripts/NAME ARGS...} with {@code settings} (and TMPDIR=DIR) in its environment,
   * asserts that it exits 0, and returns what it printed on standard output.
   */
  static String output(String name, Path dir, Map<String, String> settings, String... args) {
    Launcher.Result result = exec(name, dir, settings, args);
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    return result.stdout();
  }

  /**
   * Runs {@code scripts/NAME} with {@code settings} in its environment and asserts that it refuses
   * them before it starts anything: exit {@code code} and one line on stderr that contains {@code
   * named}.
   */
  static void refuses(String name, Map<String, String> settings, int code, String named) {
    Launcher.Result result = Launcher.exec(List.of("scripts/" + name), settings);
    assertThat(result.exitCode()).as(name + ": " + result.stderr()).isEqualTo(code);
    assertThat(result.stderr().strip().lines()).as(name).singleElement().asString().contains(named);
  }

  private static Launcher.Result exec(
      String name, Path dir, Map<String, String> settings, String... args) {
    Map<String, String> env = new HashMap<>(settings);
    env.put("TMPDIR", dir.toString());
    List<String> command = new java.util.ArrayList<>(List.of("scripts/" + name));
    command.addAll(List.of(args));
    return Launcher.exec(command, env);
  }
}
