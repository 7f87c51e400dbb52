package io.racs.proxy.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Proves the committed {@code VectorKernel*.java} files are exactly what their generator writes, so
 * nobody edits generated code by hand, and that CPU flags parse from a cpuinfo file.
 */
class GeneratedKernelsTest {
  @Test
  void generator_whenRunWithCheck_findsNothingStale() throws IOException, InterruptedException {
    Path root = Path.of("").toAbsolutePath().getParent();
    Path script = root.resolve("scripts/codegen/vector_kernels.py");
    assertThat(script).exists();
    Process process =
        new ProcessBuilder("python3", script.toString(), "--check")
            .redirectErrorStream(true)
            .start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
  }

  @Test
  void cpuFlags_whenCpuinfoListsFlags_readsThem() throws IOException {
    Path file = Files.createTempFile("cpuinfo", ".txt");
    try {
      Files.writeString(
          file, "processor\t: 0\nflags\t\t: fpu sse2 AVX2 avx512vbmi\nflags\t: later\n");
      assertThat(CpuFlags.read(file))
          .containsExactlyInAnyOrder("fpu", "sse2", "avx2", "avx512vbmi");
      assertThat(CpuFlags.read(file.resolveSibling("no-such-cpuinfo"))).isEmpty();
    } finally {
      Files.delete(file);
    }
  }
}
