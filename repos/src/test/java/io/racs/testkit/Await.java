package io.racs.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition that another thread or process makes true (a ZooKeeper session connected, a
 * leader elected, every proxy seeing its peers), for tests that have no event to wait on. It polls
 * the condition with a deadline, so a test passes as soon as the condition holds and fails with
 * what it waited for when it never does; it never waits for a guessed time.
 */
public final class Await {
  /** How long {@link #until(String, BooleanSupplier)} waits before it fails. */
  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(30);

  private static final long POLL_MILLIS = 5;

  private Await() {}

  /**
   * Returns once {@code condition} is true; fails after {@link #DEFAULT_DEADLINE}.
   *
   * @param what the condition in words, for the failure message
   * @throws AssertionError naming {@code what} if the condition is still false at the deadline
   */
  public static void until(String what, BooleanSupplier condition) throws InterruptedException {
    until(what, DEFAULT_DEADLINE, condition);
  }

  /**
   * Returns once {@code condition} is true; fails after {@code deadline}.
   *
   * @param what the condition in words, for the failure message
   * @throws AssertionError naming {@code what} if the condition is still false at the deadline
   */
  public static void until(String what, Duration deadline, BooleanSupplier condition)
      throws InterruptedException {
    long end = System.nanoTime() + deadline.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - end > 0) {
        throw new AssertionError("not within " + deadline + ": " + what);
      }
      Thread.sleep(POLL_MILLIS); // polling a condition with a deadline, not a guessed wait
    }
  }
}
