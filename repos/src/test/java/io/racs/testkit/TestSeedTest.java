package io.racs.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves that a test's seed is pinned by {@code -Dracs.test.seed}, is printed in the form a replay
 * pastes back, and that a malformed pin fails loudly instead of silently drawing a fresh seed.
 */
class TestSeedTest {
  private String pinned;
  private PrintStream out;
  private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

  @BeforeEach
  void captureOutput() {
    pinned = System.getProperty(TestSeed.PROPERTY);
    out = System.out;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(out);
    if (pinned == null) {
      System.clearProperty(TestSeed.PROPERTY);
    } else {
      System.setProperty(TestSeed.PROPERTY, pinned);
    }
  }

  @Test
  void get_whenPinned_returnsThePinAndPrintsHowToReplay() {
    System.setProperty(TestSeed.PROPERTY, "-8123456789");
    assertThat(TestSeed.get()).isEqualTo(-8123456789L);
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "seed: -8123456789 (replay with -Dracs.test.seed=-8123456789) in "
                + TestSeedTest.class.getName()
                + ".get_whenPinned_returnsThePinAndPrintsHowToReplay"
                + System.lineSeparator());
  }

  @Test
  void get_whenNotPinned_printsTheFreshSeedItReturns() {
    System.clearProperty(TestSeed.PROPERTY);
    long seed = TestSeed.get();
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .startsWith("seed: " + seed + " (replay with -Dracs.test.seed=" + seed + ") in ");
  }

  @Test
  void get_whenPinIsNotANumber_fails() {
    System.setProperty(TestSeed.PROPERTY, "0x2a");
    assertThatThrownBy(TestSeed::get)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("racs.test.seed: 0x2a (expected: ");
  }
}
