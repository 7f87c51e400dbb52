package io.racs.bench.external;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What warp reports of a run: its own average throughput, from the text it prints ({@code
 * Operation: PUT. Concurrency: 8. ...} then {@code * Average: 120.51 MiB/s, 120.51 obj/s}), and
 * every operation it timed, from its {@code --benchdata} file (tab-separated, decompressed: a
 * header naming the columns {@code op}, {@code error}, {@code start} and {@code end} among others,
 * times as RFC 3339 instants).
 */
public final class WarpOutput {
  private WarpOutput() {}

  /** One operation warp timed, in epoch seconds. */
  public record Operation(double startSeconds, double endSeconds) {}

  /**
   * warp's average obj/s for {@code op} ({@code PUT}, {@code GET}) in its printed output.
   *
   * @throws IllegalArgumentException when the output has no average for that operation
   */
  public static double averageObjectsPerSecond(Path output, String op) {
    String text = readString(output);
    Pattern average =
        Pattern.compile(
            "Operation: "
                + Pattern.quote(op.toUpperCase(Locale.ROOT))
                + "\\b.*?\\* Average: ([\\d.]+) MiB/s, ([\\d.]+) obj/s",
            Pattern.DOTALL);
    Matcher m = average.matcher(text);
    if (!m.find()) {
      throw new IllegalArgumentException(
          output
              + ": no \"* Average: ... obj/s\" after \"Operation: "
              + op.toUpperCase(Locale.ROOT)
              + "\" (expected: warp's output)");
    }
    return Double.parseDouble(m.group(2));
  }

  /**
   * The operations of kind {@code op} that ended without an error, from a decompressed {@code
   * --benchdata} file.
   *
   * @throws IllegalArgumentException when the header lacks a column needed or a time is not one
   */
  public static List<Operation> operations(Path benchdata, String op) {
    List<String> lines = readString(benchdata).lines().toList();
    if (lines.isEmpty()) {
      throw new IllegalArgumentException(benchdata + ": empty (expected: warp's benchdata)");
    }
    String[] header = lines.getFirst().split("\t", -1);
    Map<String, Integer> column = new HashMap<>();
    for (int i = 0; i < header.length; i++) {
      column.put(header[i], i);
    }
    for (String name : List.of("op", "error", "start", "end")) {
      if (!column.containsKey(name)) {
        throw new IllegalArgumentException(
            benchdata + ": no column " + name + " (expected: warp's benchdata, decompressed)");
      }
    }
    String wanted = op.toUpperCase(Locale.ROOT);
    List<Operation> operations = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split("\t", -1);
      if (f.length < header.length
          || !f[column.get("op")].equals(wanted)
          || !f[column.get("error")].isEmpty()) {
        continue;
      }
      operations.add(
          new Operation(
              epochSeconds(benchdata, f[column.get("start")]),
              epochSeconds(benchdata, f[column.get("end")])));
    }
    return operations;
  }

  private static double epochSeconds(Path file, String time) {
    try {
      Instant instant = Instant.parse(time);
      return instant.getEpochSecond() + instant.getNano() / 1e9;
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(file + ": time " + time + " (expected: RFC 3339)");
    }
  }

  private static String readString(Path file) {
    try {
      return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")");
    }
  }
}
