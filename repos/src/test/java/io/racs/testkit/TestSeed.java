package io.racs.testkit;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The seed of a test that draws random data: the value of {@code -Dracs.test.seed} when it is set,
 * so that a failure replays exactly, otherwise a fresh one, so that every run explores new data.
 *
 * <p>Every seed is printed to standard output as {@code seed: N (replay with -Dracs.test.seed=N)},
 * with the test that drew it. Surefire and Failsafe keep a test class's output beside its report
 * ({@code target/surefire-reports/<class>-output.txt}, or {@code failsafe-reports}) and pass the
 * {@code -D} properties of the Maven command line on to the forked test JVMs, so the seed of a
 * failed run can be pasted back as is:
 *
 * <pre>{@code
 * ./mvnw -pl racs-proxy -am test -Dtest=DegradedReadTest -Dracs.test.seed=42 ...
 * }</pre>
 *
 * <p>A test that needs several independent streams derives them from its one seed; a pinned seed
 * pins every test that runs in that JVM, which is what a replay of one test wants.
 */
public final class TestSeed {
  /** The system property that pins the seed. */
  public static final String PROPERTY = "racs.test.seed";

  private TestSeed() {}

  /**
   * The pinned seed, or a fresh one; printed with the calling test's class and method.
   *
   * @throws IllegalArgumentException if {@code racs.test.seed} is set but is not a decimal long
   */
  public static long get() {
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
    System.out.println(
        "seed: " + seed + " (replay with -D" + PROPERTY + "=" + seed + ") in " + caller());
    return seed;
  }

  /** The class and method that called {@link #get()}, so that a log of many seeds says whose. */
  private static String caller() {
    return StackWalker.getInstance()
        .walk(
            frames ->
                frames
                    .filter(f -> !f.getClassName().equals(TestSeed.class.getName()))
                    .findFirst()
                    .map(f -> f.getClassName() + "." + f.getMethodName())
                    .orElse("?"));
  }
}
