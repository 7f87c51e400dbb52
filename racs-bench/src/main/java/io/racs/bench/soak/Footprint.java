package io.racs.bench.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A process's footprint over a run: a sample per line of {@code SECONDS RSS_KIB FDS} (seconds since
 * the run started, the resident set from {@code /proc/PID/status}'s VmRSS, the open file
 * descriptors), and its growth after warm-up: the smallest of the last three samples minus the
 * largest of the first three after warm-up, so that a single spike neither hides nor fakes a trend.
 *
 * @param samples the samples, in order
 */
public record Footprint(List<Sample> samples) {
  /** The fewest samples after warm-up a growth is read from. */
  public static final int MIN_SAMPLES = 6;

  /** One sample. */
  public record Sample(long seconds, long rssKib, long fds) {}

  /** Growth after warm-up: resident set in MiB and open file descriptors. */
  public record Growth(double rssMib, long fds) {}

  /** Copies the samples. */
  public Footprint {
    samples = List.copyOf(samples);
  }

  /**
   * Reads the samples file.
   *
   * @throws IllegalArgumentException when it is missing or a line is not three whole numbers
   */
  public static Footprint read(Path file) {
    List<Sample> samples = new ArrayList<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": no samples (" + e.getMessage() + ")");
    }
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.trim().split("\\s+");
      try {
        samples.add(new Sample(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])));
      } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
        throw new IllegalArgumentException(file + ": " + line + " (expected: SECONDS RSS_KIB FDS)");
      }
    }
    return new Footprint(samples);
  }

  /** The samples taken at or after {@code warmupSeconds}. */
  public List<Sample> after(long warmupSeconds) {
    return samples.stream().filter(s -> s.seconds() >= warmupSeconds).toList();
  }

  /**
   * The growth after {@code warmupSeconds}; empty with fewer than {@link #MIN_SAMPLES} after it.
   */
  public java.util.Optional<Growth> growth(long warmupSeconds) {
    List<Sample> after = after(warmupSeconds);
    if (after.size() < MIN_SAMPLES) {
      return java.util.Optional.empty();
    }
    List<Sample> first = after.subList(0, 3);
    List<Sample> last = after.subList(after.size() - 3, after.size());
    long rss =
        last.stream().mapToLong(Sample::rssKib).min().orElseThrow()
            - first.stream().mapToLong(Sample::rssKib).max().orElseThrow();
    long fds =
        last.stream().mapToLong(Sample::fds).min().orElseThrow()
            - first.stream().mapToLong(Sample::fds).max().orElseThrow();
    return java.util.Optional.of(new Growth(rss / 1024.0, fds));
  }
}
