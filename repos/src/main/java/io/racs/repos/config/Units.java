package io.racs.repos.config;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The units every RACS configuration file and command line use: sizes in {@code B}, {@code KiB},
 * {@code MiB} or {@code GiB} (or a plain number of bytes), durations in {@code ns}, {@code us},
 * {@code ms}, {@code s}, {@code m} or {@code h}.
 */
public final class Units {
  private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(B|KiB|MiB|GiB)?");
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ns|us|ms|s|m|h)");

  private Units() {}

  /** A size such as {@code 8MiB}, or empty when {@code text} is not one. */
  public static OptionalLong size(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      return OptionalLong.empty();
    }
    long amount = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "B" : m.group(2);
    int shift =
        switch (unit) {
          case "KiB" -> 10;
          case "MiB" -> 20;
          case "GiB" -> 30;
          default -> 0;
        };
    if (Long.numberOfLeadingZeros(amount) <= shift) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(amount << shift);
  }

  /** A duration such as {@code 10ms}, or empty when {@code text} is not one. */
  public static Optional<Duration> duration(String text) {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      return Optional.empty();
    }
    long amount = Long.parseLong(m.group(1));
    return Optional.of(
        switch (m.group(2)) {
          case "ns" -> Duration.ofNanos(amount);
          case "us" -> Duration.ofNanos(amount * 1000);
          case "ms" -> Duration.ofMillis(amount);
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          default -> Duration.ofHours(amount);
        });
  }
}
