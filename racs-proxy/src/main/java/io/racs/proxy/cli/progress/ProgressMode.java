package io.racs.proxy.cli.progress;

import java.io.Console;
import java.lang.reflect.InvocationTargetException;
import java.util.Locale;

/**
 * How progress is shown: a bar redrawn in place ({@link #BAR}, on a terminal), a plain line every
 * few seconds ({@link #LINE}, when the output is a file or a pipe), or nothing ({@link #NONE}).
 */
public enum ProgressMode {
  /** A bar redrawn in place with {@code \r}, a few times a second. */
  BAR,
  /** A plain line at most every few seconds. */
  LINE,
  /** No progress; the command's messages still print. */
  NONE;

  /**
   * The mode {@code value} names ({@code bar}, {@code line}, {@code none}), or for {@code auto} or
   * null the one the terminal calls for ({@link #detect()}).
   */
  public static ProgressMode of(String value) {
    if (value == null || value.equalsIgnoreCase("auto")) {
      return detect();
    }
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "bar" -> BAR;
      case "line" -> LINE;
      case "none" -> NONE;
      default ->
          throw new IllegalArgumentException(
              "--progress: " + value + " (expected: auto, bar, line or none)");
    };
  }

  /** {@link #BAR} when this process writes to a terminal that can redraw, else {@link #LINE}. */
  public static ProgressMode detect() {
    return interactive(System.console(), System.getenv("TERM")) ? BAR : LINE;
  }

  /**
   * Whether {@code console} is a terminal a bar can be drawn on. JDK 21 gives a console only when
   * both standard streams are a terminal; JDK 22 and later give one even when they are redirected,
   * and say whether it is a terminal with {@code Console.isTerminal()} (called reflectively, as the
   * build targets 21). A {@code dumb} terminal cannot redraw a line.
   */
  static boolean interactive(Console console, String term) {
    if (console == null || "dumb".equals(term)) {
      return false;
    }
    try {
      return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
    } catch (NoSuchMethodException e) {
      return true; // JDK 21: a console exists only on a terminal
    } catch (IllegalAccessException | InvocationTargetException e) {
      return false;
    }
  }
}
