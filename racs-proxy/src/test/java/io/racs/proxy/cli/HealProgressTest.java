package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.proxy.cli.progress.ProgressBar;
import io.racs.proxy.cli.progress.ProgressMode;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * Proves that {@code racs heal} shows heal's counting line (once a second, in the words heal
 * writes) as a step of the progress renderer, with its rate and no ETA (heal does not know how many
 * objects there are), and every other line at once as a message.
 */
class HealProgressTest {
  @Test
  void show_whenCountingLine_isAStep_andOtherLinesAreMessages() {
    StringWriter text = new StringWriter();
    long[] nanos = {0};
    ProgressBar bar = ProgressBar.create(ProgressMode.LINE, new PrintWriter(text), () -> nanos[0]);
    HealCommand.show(bar, "heal: slot 5 (r5) is new: adopted");
    for (int s = 1; s <= 5; s++) {
      nanos[0] = s * 1_000_000_000L;
      HealCommand.show(
          bar,
          "heal: " + 20 * s + " objects scanned, 3 shards rebuilt, 0 records repaired, 1 MB moved");
    }
    assertThat(text.toString().lines())
        .containsExactly(
            "heal: slot 5 (r5) is new: adopted",
            "heal: 100 objects, 20.0 objects/s, ETA unknown;"
                + " 3 shards rebuilt, 0 records repaired, 1 MB moved");
  }
}
