package io.racs.e2e;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The seed of a randomised end-to-end test: {@code -Dracs.test.seed} when set, so that a failure
 * replays, else a fresh one; printed as {@code seed: N (replay with -Dracs.test.seed=N)} with the
 * test that drew it (Failsafe keeps it in {@code failsafe-reports/<class>-output.txt}).
 *
 * <p>This is the contract of the test kit's {@code io.racs.testkit.TestSeed}, which is on its way
 * to the repos test-jar; once it is there, {@link #get()} becomes a call to it.
 */
final class Seeds {
  static final String PROPERTY = "racs.test.seed";

  private Seeds() {}

  /** The pinned seed, or a fresh one; printed with the calling test. */
  static long get() {
    String pinned = System.getProperty(PROPERTY);
    long seed;
    if (pinned == null || pinned.isBlank()) {
      seed = ThreadLocalRandom.current().nextLong();
    } else {
      try {
        seed = Long.parseLong(pinned.strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            PROPERTY + ": " + pinned + " (expected: a decimal long, as printed by a failed run)",
            e);
      }
    }
    String caller =
        StackWalker.getInstance()
            .walk(
                frames ->
                    frames
                        .filter(f -> !f.getClassName().equals(Seeds.class.getName()))
                        .findFirst()
                        .map(f -> f.getClassName() + "." + f.getMethodName())
                        .orElse("?"));
    System.out.println(
        "seed: " + seed + " (replay with -D" + PROPERTY + "=" + seed + ") in " + caller);
    return seed;
  }
}
