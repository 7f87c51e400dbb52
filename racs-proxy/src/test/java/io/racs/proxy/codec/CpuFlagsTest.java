package io.racs.proxy.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Proves CPU flags parse from a cpuinfo file, and that a missing file means no flags. */
class CpuFlagsTest {
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
