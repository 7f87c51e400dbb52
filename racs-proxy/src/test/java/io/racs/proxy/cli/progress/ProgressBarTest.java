package io.racs.proxy.cli.progress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Proves the progress renderer by what it writes to a {@link StringWriter} under a clock the test
 * drives: a bar redrawn in place no more often than its interval, with percentage, rate and ETA;
 * plain lines no more often than theirs; "ETA unknown" without a total; 100% at the end; messages
 * in every mode; nothing at all for a line-mode run shorter than one interval.
 */
class ProgressBarTest {
  private final StringWriter text = new StringWriter();
  private final PrintWriter out = new PrintWriter(text);
  private long nanos;

  private ProgressBar bar(ProgressMode mode) {
    return ProgressBar.create(mode, out, () -> nanos);
  }

  private void advanceSeconds(double seconds) {
    nanos += (long) (seconds * TimeUnit.SECONDS.toNanos(1));
  }

  @Test
  void update_whenBar_redrawsInPlaceWithRateAndEta() {
    ProgressBar bar = bar(ProgressMode.BAR);
    advanceSeconds(10);
    bar.update(ProgressBar.Step.of("heal", 250, 1000, "objects"));
    assertThat(text.toString())
        .isEqualTo(
            "\rheal [######------------------]  25% 250 objects of 1000 objects"
                + "  25.0 objects/s  ETA 0:30");
    advanceSeconds(0.1); // within the interval: not redrawn
    bar.update(ProgressBar.Step.of("heal", 260, 1000, "objects"));
    assertThat(text.toString()).doesNotContain("260");
    advanceSeconds(0.2);
    bar.update(ProgressBar.Step.of("heal", 500, 1000, "objects"));
    assertThat(text.toString()).contains("\rheal [############------------]  50% 500 objects");
    assertThat(text.toString()).doesNotContain("\n");
  }

  @Test
  void finish_whenBar_shows100PercentAndEndsTheLine() {
    ProgressBar bar = bar(ProgressMode.BAR);
    advanceSeconds(2);
    bar.update(ProgressBar.Step.of("recover b/k", 1_000_000, 4_000_000, "bytes"));
    advanceSeconds(0.01);
    bar.update(ProgressBar.Step.of("recover b/k", 4_000_000, 4_000_000, "bytes"));
    bar.finish();
    assertThat(text.toString())
        .endsWith(
            "\rrecover b/k [########################] 100% 4.0 MB of 4.0 MB  2.0 MB/s  ETA 0:00"
                + "  " // the first drawing was two characters longer: padded away
                + System.lineSeparator());
  }

  @Test
  void message_whenBar_clearsTheBarPrintsTheLineAndRedraws() {
    ProgressBar bar = bar(ProgressMode.BAR);
    advanceSeconds(1);
    bar.update(ProgressBar.Step.of("heal", 3, 0, "objects"));
    bar.message("heal: slot 2 (r2) is new: adopted");
    String drawn = "heal 3 objects  3.0 objects/s  ETA unknown";
    assertThat(text.toString())
        .isEqualTo(
            "\r"
                + drawn
                + "\r"
                + " ".repeat(drawn.length())
                + "\rheal: slot 2 (r2) is new: adopted"
                + System.lineSeparator()
                + "\r"
                + drawn);
  }

  @Test
  void update_whenLine_printsAtMostOneLineAnInterval() {
    ProgressBar bar = bar(ProgressMode.LINE);
    for (int i = 1; i <= 120; i++) {
      advanceSeconds(0.1);
      bar.update(ProgressBar.Step.of("reshape", i * 1000L, 120_000, "bytes").detail("sweep 1"));
    }
    // 12 s: lines at 5 s and 10 s only.
    assertThat(text.toString().lines())
        .containsExactly(
            "reshape:  42% 50.0 kB of 120.0 kB, 10.0 kB/s, ETA 0:07; sweep 1",
            "reshape:  83% 100.0 kB of 120.0 kB, 10.0 kB/s, ETA 0:02; sweep 1");
  }

  @Test
  void update_whenTotalUnknown_saysEtaUnknown() {
    ProgressBar bar = bar(ProgressMode.LINE);
    advanceSeconds(6);
    bar.update(ProgressBar.Step.of("heal", 60, 0, "objects").detail("2 shards rebuilt"));
    assertThat(text.toString())
        .isEqualTo(
            "heal: 60 objects, 10.0 objects/s, ETA unknown; 2 shards rebuilt"
                + System.lineSeparator());
  }

  @Test
  void update_whenTheWorkKnowsItsEta_showsThatOne() {
    ProgressBar bar = bar(ProgressMode.LINE);
    advanceSeconds(5);
    bar.update(ProgressBar.Step.of("reshape", 10, 100, "bytes").eta(3725));
    assertThat(text.toString()).contains("ETA 1:02:05");
  }

  @Test
  void finish_whenLineRunShorterThanAnInterval_printsNothing() {
    ProgressBar bar = bar(ProgressMode.LINE);
    advanceSeconds(1);
    bar.update(ProgressBar.Step.of("recover b/k", 10, 10, "bytes"));
    bar.finish();
    assertThat(text.toString()).isEmpty();
  }

  @Test
  void finish_whenLine_printsTheLastStep() {
    ProgressBar bar = bar(ProgressMode.LINE);
    advanceSeconds(5);
    bar.update(ProgressBar.Step.of("bench", 1, 4, "iterations"));
    advanceSeconds(1);
    bar.update(ProgressBar.Step.of("bench", 4, 4, "iterations"));
    bar.finish();
    assertThat(text.toString().lines())
        .containsExactly(
            "bench:  25% 1 iterations of 4 iterations, 0.2 iterations/s, ETA 0:15",
            "bench: 100% 4 iterations of 4 iterations, 0.7 iterations/s, ETA 0:00");
  }

  @Test
  void none_printsMessagesOnly() {
    ProgressBar bar = bar(ProgressMode.NONE);
    advanceSeconds(60);
    bar.update(ProgressBar.Step.of("heal", 1, 2, "objects"));
    bar.message("heal: could not read r3");
    bar.finish();
    assertThat(text.toString()).isEqualTo("heal: could not read r3" + System.lineSeparator());
  }

  @Test
  void mode_whenNamed_isThatOne_andUnknownIsRefused() {
    assertThat(ProgressMode.of("bar")).isEqualTo(ProgressMode.BAR);
    assertThat(ProgressMode.of("LINE")).isEqualTo(ProgressMode.LINE);
    assertThat(ProgressMode.of("none")).isEqualTo(ProgressMode.NONE);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ProgressMode.of("fancy"))
        .hasMessage("--progress: fancy (expected: auto, bar, line or none)");
  }

  @Test
  void interactive_whenNoConsoleOrDumbTerminal_isFalse() {
    assertThat(ProgressMode.interactive(null, "xterm")).isFalse();
    // Under the test runner the streams are pipes: JDK 22+ still gives a console, not a terminal.
    assertThat(ProgressMode.detect()).isEqualTo(ProgressMode.LINE);
  }
}
