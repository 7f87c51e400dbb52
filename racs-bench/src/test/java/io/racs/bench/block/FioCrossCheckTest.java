package io.racs.bench.block;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.testkit.ProvisionedTools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code block sweep} measures what fio measures: the same point (O_DIRECT random 4 KiB
 * reads, one thread, one second, psync) run by fio and by racs-bench on the same file agree within
 * a generous band (0.25× to 4×; the machine is shared, so only direction and magnitude are
 * checked). Both numbers are printed. fio is required: a missing fio fails, naming how to install
 * it.
 */
class FioCrossCheckTest {
  @TempDir Path dir;

  @Test
  void randread4KiB_whenFioAndSweepOnSameFile_agreeInMagnitude() throws Exception {
    Path file = dir.resolve("f");
    long size = 16 << 20;
    Sweep sweep =
        Sweep.prepare(
            Sweep.Config.builder(file)
                .fileSizeBytes(size)
                .records(List.of(4096))
                .threads(List.of(1))
                .patterns(List.of(Sweep.Pattern.RANDREAD))
                .duration(Duration.ofSeconds(1))
                .direct(true)
                .seed(3)
                .build());
    Process fio =
        new ProcessBuilder(
                ProvisionedTools.fio().toString(),
                "--name=crosscheck",
                "--filename=" + file,
                "--direct=1",
                "--ioengine=psync",
                "--rw=randread",
                "--bs=4k",
                "--numjobs=1",
                "--size=" + size,
                "--time_based",
                "--runtime=1",
                "--output-format=json")
            .redirectErrorStream(false)
            .start();
    String json = new String(fio.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(fio.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(fio.waitFor()).as(err).isZero();
    JsonNode read = new ObjectMapper().readTree(json).get("jobs").get(0).get("read");
    double fioIops = read.get("iops").asDouble();
    Sweep.Point ours = sweep.run(Sweep.Pattern.RANDREAD, 4096, 1);
    double ratio = ours.iops() / fioIops;
    System.out.printf(
        Locale.ROOT,
        "fio cross-check randread 4KiB t1 direct: fio %.0f IOPS, racs-bench %.0f IOPS,"
            + " ratio %.2f%n",
        fioIops,
        ours.iops(),
        ratio);
    assertThat(fioIops).isPositive();
    assertThat(ratio).as("racs-bench / fio IOPS").isBetween(0.25, 4.0);
  }
}
