package io.racs.proxy.codec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The CPU feature flags Linux reports in {@code /proc/cpuinfo}; empty elsewhere, which makes every
 * choice fall back to its portable default.
 */
final class CpuFlags {
  private static final Set<String> FLAGS = read(Path.of("/proc/cpuinfo"));

  private CpuFlags() {}

  /** True when the first CPU lists {@code flag} (lower case, e.g. {@code avx512vbmi}). */
  static boolean has(String flag) {
    return FLAGS.contains(flag);
  }

  static Set<String> read(Path cpuinfo) {
    try (Stream<String> lines = Files.lines(cpuinfo)) {
      return lines
          .filter(line -> line.startsWith("flags") || line.startsWith("Features"))
          .findFirst()
          .map(line -> line.substring(line.indexOf(':') + 1).trim().toLowerCase(Locale.ROOT))
          .map(flags -> Stream.of(flags.split("\\s+")).collect(Collectors.toUnmodifiableSet()))
          .orElse(Set.of());
    } catch (IOException | RuntimeException e) {
      return Set.of();
    }
  }
}
