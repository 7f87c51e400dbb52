package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one of {@code scripts/} at the smallest settings a smoke test gives it: its output directory
 * and its temporary files under the test's directory, and a run that must succeed.
 */
final class ScriptSmoke {
  private ScriptSmoke() {}

  /**
   * Runs {@code scripts/NAME DIR/out} with {@code settings} (and TMPDIR=DIR) in its environment,
   * asserts that it exits 0, and returns {@code DIR/out}.
   */
  static Path run(String name, Path dir, Map<String, String> settings) {
    Path out = dir.resolve("out");
    Map<String, String> env = new HashMap<>(settings);
    env.put("TMPDIR", dir.toString());
    Launcher.Result result = Launcher.exec(List.of("scripts/" + name, out.toString()), env);
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    return out;
  }
}
