package io.racs.bench.object.workload;

import io.racs.repos.config.Units;
import java.util.OptionalLong;
import java.util.SplittableRandom;

/**
 * Which bytes a GET asks for: the whole object ({@code none}), a fixed range {@code 0-1023}
 * (inclusive, as HTTP writes it), {@code random:LEN} (LEN bytes at a random offset), or {@code
 * random} (a random offset and a random length). Ranges are clipped to the object, as the SPI and
 * S3 do.
 *
 * @param kind {@code none}, {@code fixed}, {@code random-length} or {@code random}
 * @param first the first byte of a fixed range
 * @param length the length of a fixed or random-length range
 * @param label the text it was parsed from
 */
public record RangeSpec(String kind, long first, long length, String label) {
  /** Whole objects. */
  public static final RangeSpec NONE = new RangeSpec("none", 0, -1, "none");

  /**
   * Parses {@code 0-1023}, {@code random:4KiB} or {@code random}.
   *
   * @throws IllegalArgumentException on anything else
   */
  public static RangeSpec parse(String text) {
    String t = text.trim();
    if (t.equals("random")) {
      return new RangeSpec("random", 0, 0, t);
    }
    if (t.startsWith("random:")) {
      OptionalLong length = Units.size(t.substring(7));
      if (length.isPresent() && length.getAsLong() > 0) {
        return new RangeSpec("random-length", 0, length.getAsLong(), t);
      }
    } else {
      String[] ends = t.split("-", 2);
      if (ends.length == 2) {
        try {
          long first = Long.parseLong(ends[0].trim());
          long last = Long.parseLong(ends[1].trim());
          if (first >= 0 && last >= first) {
            return new RangeSpec("fixed", first, last - first + 1, t);
          }
        } catch (NumberFormatException e) {
          // Falls through to the message below.
        }
      }
    }
    throw new IllegalArgumentException(
        "range: " + text + " (expected: FIRST-LAST such as 0-1023, random:LENGTH, or random)");
  }

  /** True when GETs read whole objects. */
  public boolean isNone() {
    return kind.equals("none");
  }

  /**
   * The {@code [offset, length]} to ask of an object of {@code sizeBytes}, already clipped; length
   * -1 means the whole object.
   */
  public long[] pick(long sizeBytes, SplittableRandom random) {
    return switch (kind) {
      case "none" -> new long[] {0, sizeBytes};
      case "fixed" -> clip(first, length, sizeBytes);
      case "random-length" -> {
        long offset = sizeBytes <= length ? 0 : random.nextLong(sizeBytes - length + 1);
        yield clip(offset, length, sizeBytes);
      }
      default -> {
        if (sizeBytes == 0) {
          yield new long[] {0, 0};
        }
        long offset = random.nextLong(sizeBytes);
        yield new long[] {offset, 1 + random.nextLong(sizeBytes - offset)};
      }
    };
  }

  private static long[] clip(long offset, long length, long sizeBytes) {
    if (offset >= sizeBytes) {
      return new long[] {offset, 0};
    }
    return new long[] {offset, Math.min(length, sizeBytes - offset)};
  }
}
