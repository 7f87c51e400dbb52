package io.racs.e2e;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code scripts/bench-clouds.sh} refuses a bad setting in one line with exit 2, before it starts
 * anything. Its measuring run is not here: it first runs the whole {@code racs demo --clouds} story
 * (about a minute on two cores), whose slots {@code CloudRepositoriesIT} (racs-bench) proves on
 * their real servers, and the bench it then runs is {@code racs bench object --repository}, which
 * {@code ObjectCommandTest} covers.
 */
class BenchCloudsScriptIT {
  @Test
  void clouds_whenASettingIsBad_exitsUsage() {
    ScriptSmoke.refuses("bench-clouds.sh", Map.of("ITERATIONS", "0"), 2, "ITERATIONS: 0");
    ScriptSmoke.refuses("bench-clouds.sh", Map.of("DEMO_SECONDS", "5m"), 2, "DEMO_SECONDS: 5m");
  }
}
