package io.racs.bench.demo;

import java.io.PrintWriter;

/**
 * How the demo talks: numbered steps ({@code [3/6] ...}) and the explanation under them, indented
 * under the step and wrapped at {@value #WIDTH} columns so a terminal shows it as written.
 */
final class DemoPrinter {
  private static final int WIDTH = 100;

  private final PrintWriter out;
  private final int steps;

  /** Prints to {@code out}, numbering steps out of {@code steps}. */
  DemoPrinter(PrintWriter out, int steps) {
    this.out = out;
    this.steps = steps;
  }

  /** Prints step {@code n}'s heading and flushes, so a slow step shows what it is doing. */
  void step(int n, String what) {
    out.printf("[%d/%d] %s%n", n, steps, what);
    out.flush();
  }

  /** Prints {@code text} in the steps' indentation, wrapped at {@link #WIDTH} columns. */
  void wrapped(String text) {
    String indent = "      " + " ".repeat(text.length() - text.stripLeading().length());
    String continuation = indent + "  ";
    StringBuilder line = new StringBuilder(indent);
    for (String word : text.strip().split(" ")) {
      if (line.length() + 1 + word.length() > WIDTH && !line.toString().isBlank()) {
        out.println(line.toString().stripTrailing());
        line = new StringBuilder(continuation);
      }
      if (!line.toString().isBlank()) {
        line.append(' ');
      }
      line.append(word);
    }
    out.println(line);
  }
}
