package io.racs.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientCpuTest {
  @TempDir Path dir;

  @Test
  void stallMicros_whenKernelFormat_readsTheSomeTotal() throws Exception {
    Path file = dir.resolve("cpu");
    Files.writeString(
        file,
        "some avg10=33.89 avg60=22.14 avg300=29.62 total=39332619273\n"
            + "full avg10=0.00 avg60=0.00 avg300=0.00 total=17\n");

    assertThat(ClientCpu.stallMicros(file)).isEqualTo(39_332_619_273L);
  }

  @Test
  void stallMicros_whenMissingOrMalformed_isUnknown() throws Exception {
    Path bad = dir.resolve("bad");
    Files.writeString(bad, "some avg10=1.00 total=x\n");
    Path noSome = dir.resolve("none");
    Files.writeString(noSome, "full avg10=0.00 avg60=0.00 avg300=0.00 total=17\n");

    assertThat(ClientCpu.stallMicros(dir.resolve("missing"))).isEqualTo(-1);
    assertThat(ClientCpu.stallMicros(bad)).isEqualTo(-1);
    assertThat(ClientCpu.stallMicros(noSome)).isEqualTo(-1);
  }

  @Test
  void pressure_isAShareOfTheWallTime() {
    ClientCpu cpu = ClientCpu.start();

    double pressure = cpu.pressure();

    if (Files.isReadable(Path.of("/proc/pressure/cpu"))) {
      assertThat(pressure).isBetween(0.0, 1.0);
    } else {
      assertThat(pressure).isNaN();
    }
  }
}
