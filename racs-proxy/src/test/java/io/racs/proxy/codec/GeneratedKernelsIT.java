package io.racs.proxy.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Proves the committed {@code VectorKernel*.java} files are exactly what their generator writes, so
 * nobody edits generated code by hand. It runs the generator, a Python process, so it is an
 * integration test.
 */
class GeneratedKernelsIT {
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
}
