package io.racs.proxy.cli.progress;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * The one renderer of a long command's progress. In {@link ProgressMode#BAR} it redraws one line in
 * place with {@code \r} at most every {@link #BAR_INTERVAL}: a bar, the percentage, what is done of
 * the total, the rate and the ETA. In {@link ProgressMode#LINE} it prints the same facts as a plain
 * line at most every {@link #LINE_INTERVAL}, the first one only once that much has passed, so that
 * a short run prints none. {@link ProgressMode#NONE} draws nothing. {@link #message} lines (what
 * happened, not how far) print in every mode, above the bar.
 *
 * <p>The rate is what was done over the time since the renderer was made; the ETA is the rest at
 * that rate, unless the step brings an ETA of its own. Without a total there is no bar and no ETA
 * ("ETA unknown"). Not thread-safe: each method is {@code synchronized}, so a timer and the work
 * may both call it.
 */
public final class ProgressBar {
  /** The shortest time between two redraws of the bar. */
  public static final Duration BAR_INTERVAL = Duration.ofMillis(250);

  /** The shortest time between two progress lines. */
  public static final Duration LINE_INTERVAL = Duration.ofSeconds(5);

  private static final int WIDTH = 24;

  /**
   * How far the work is.
   *
   * @param label what runs ({@code heal}, {@code recover bucket/key})
   * @param done units done so far
   * @param total units in all; 0 or less when not known
   * @param unit the unit's name ({@code objects}; {@code bytes} is shown in kB, MB, GB)
   * @param detail more facts for the end of the line; empty for none
   * @param etaSeconds the ETA the work knows better than the rate would (negative: unknown); empty
   *     to compute it
   * @param ratePerSecond the rate the work knows better, units a second; negative to compute it
   */
  public record Step(
      String label,
      long done,
      long total,
      String unit,
      String detail,
      OptionalLong etaSeconds,
      double ratePerSecond) {
    /** Checks that nothing is null. */
    public Step {
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(unit, "unit");
      Objects.requireNonNull(detail, "detail");
      Objects.requireNonNull(etaSeconds, "etaSeconds");
    }

    /** {@code done} of {@code total} (0: unknown) {@code unit}, no detail, the ETA computed. */
    public static Step of(String label, long done, long total, String unit) {
      return new Step(label, done, total, unit, "", OptionalLong.empty(), -1);
    }

    /** This step with {@code detail} at the end of the line. */
    public Step detail(String detail) {
      return new Step(label, done, total, unit, detail, etaSeconds, ratePerSecond);
    }

    /** This step with the work's own ETA; negative when the work says it is unknown. */
    public Step eta(long seconds) {
      return new Step(label, done, total, unit, detail, OptionalLong.of(seconds), ratePerSecond);
    }

    /** This step with the work's own rate, units a second. */
    public Step rate(double perSecond) {
      return new Step(label, done, total, unit, detail, etaSeconds, perSecond);
    }
  }

  private final ProgressMode mode;
  private final PrintWriter out;
  private final LongSupplier nanos;
  private final long startNanos;
  private long lastNanos;
  private boolean drawn; // a bar is on the screen, or a line was printed
  private int barLength;
  private Step last;

  private ProgressBar(ProgressMode mode, PrintWriter out, LongSupplier nanos) {
    this.mode = Objects.requireNonNull(mode, "mode");
    this.out = Objects.requireNonNull(out, "out");
    this.nanos = Objects.requireNonNull(nanos, "nanos");
    this.startNanos = nanos.getAsLong();
    this.lastNanos = startNanos;
  }

  /** A renderer to {@code out} in {@code mode}, timed by {@code System.nanoTime()}. */
  public static ProgressBar create(ProgressMode mode, PrintWriter out) {
    return new ProgressBar(mode, out, System::nanoTime);
  }

  /** A renderer timed by {@code nanos} (tests drive it). */
  public static ProgressBar create(ProgressMode mode, PrintWriter out, LongSupplier nanos) {
    return new ProgressBar(mode, out, nanos);
  }

  /** The mode it renders in. */
  public ProgressMode mode() {
    return mode;
  }

  /** Shows {@code step} if the last redraw (or line) was long enough ago. */
  public synchronized void update(Step step) {
    last = Objects.requireNonNull(step, "step");
    long now = nanos.getAsLong();
    switch (mode) {
      case BAR -> {
        if (!drawn || now - lastNanos >= BAR_INTERVAL.toNanos()) {
          draw(now);
        }
      }
      case LINE -> {
        if (now - lastNanos >= LINE_INTERVAL.toNanos()) {
          print(now);
        }
      }
      case NONE -> {}
    }
  }

  /** Prints {@code line} at once, in every mode; a bar is redrawn below it. */
  public synchronized void message(String line) {
    if (mode == ProgressMode.BAR && drawn && barLength > 0) {
      out.print("\r" + " ".repeat(barLength) + "\r");
      out.println(line);
      barLength = 0;
      draw(nanos.getAsLong());
      return;
    }
    out.println(line);
    out.flush();
  }

  /**
   * Shows the last step once more, whatever the time (a bar ends its line), when anything was shown
   * before; a line-mode run too short for its first line stays quiet.
   */
  public synchronized void finish() {
    if (last == null || !drawn) {
      return;
    }
    long now = nanos.getAsLong();
    if (mode == ProgressMode.BAR) {
      draw(now);
      out.println();
      out.flush();
      drawn = false;
      barLength = 0;
    } else if (mode == ProgressMode.LINE) {
      print(now);
    }
  }

  private void draw(long now) {
    if (last == null) {
      return;
    }
    String text = render(last, now, true);
    int pad = Math.max(0, barLength - text.length());
    out.print("\r" + text + " ".repeat(pad));
    out.flush();
    barLength = text.length();
    lastNanos = now;
    drawn = true;
  }

  private void print(long now) {
    out.println(render(last, now, false));
    out.flush();
    lastNanos = now;
    drawn = true;
  }

  /** The text of {@code step} at {@code now}: with a bar, or as a plain line. */
  private String render(Step step, long now, boolean bar) {
    double seconds = (now - startNanos) / 1e9;
    double rate =
        step.ratePerSecond() >= 0 ? step.ratePerSecond() : seconds > 0 ? step.done() / seconds : 0;
    boolean known = step.total() > 0;
    StringBuilder text = new StringBuilder(step.label());
    text.append(bar ? " " : ": ");
    if (known) {
      double fraction = Math.min(1, (double) step.done() / step.total());
      if (bar) {
        int full = (int) Math.floor(fraction * WIDTH);
        text.append('[').append("#".repeat(full)).append("-".repeat(WIDTH - full)).append("] ");
      }
      text.append(String.format(Locale.ROOT, "%3.0f%%", 100 * fraction))
          .append(' ')
          .append(amount(step.done(), step.unit()))
          .append(" of ")
          .append(amount(step.total(), step.unit()));
    } else {
      text.append(amount(step.done(), step.unit()));
    }
    text.append(bar ? "  " : ", ").append(rate(rate, step.unit()));
    text.append(bar ? "  " : ", ").append("ETA ").append(eta(step, rate));
    if (!step.detail().isEmpty()) {
      text.append(bar ? "  " : "; ").append(step.detail());
    }
    return text.toString();
  }

  private static String eta(Step step, double rate) {
    if (step.etaSeconds().isPresent()) {
      long seconds = step.etaSeconds().getAsLong();
      return seconds < 0 ? "unknown" : clock(seconds);
    }
    if (step.total() <= 0) {
      return "unknown";
    }
    long left = Math.max(0, step.total() - step.done());
    if (left == 0) {
      return clock(0);
    }
    return rate > 0 ? clock((long) Math.ceil(left / rate)) : "unknown";
  }

  /** Seconds as {@code h:mm:ss} or {@code m:ss}. */
  static String clock(long seconds) {
    long h = seconds / 3600;
    long m = seconds / 60 % 60;
    long s = seconds % 60;
    return h > 0
        ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, s)
        : String.format(Locale.ROOT, "%d:%02d", m, s);
  }

  private static String amount(long n, String unit) {
    return unit.equals("bytes") ? bytes(n) : n + " " + unit;
  }

  private static String rate(double perSecond, String unit) {
    if (unit.equals("bytes")) {
      return bytes((long) perSecond) + "/s";
    }
    return String.format(Locale.ROOT, "%.1f %s/s", perSecond, unit);
  }

  /** Bytes in decimal units, as the commands' MB/s options count them. */
  private static String bytes(long n) {
    if (n < 1000) {
      return n + " B";
    }
    String[] units = {"kB", "MB", "GB", "TB", "PB"};
    double v = n;
    int i = -1;
    while (v >= 1000 && i < units.length - 1) {
      v /= 1000;
      i++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[i]);
  }
}
