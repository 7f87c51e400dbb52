package io.racs.proxy.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.TestSeed;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Cross-checks the codec against an independent implementation on fresh random cases: the Go
 * program in {@code src/test/go/rsfixtures} computes parity with klauspost/reedsolomon, and every
 * implementation and vector width here must produce the same bytes. Go is a test prerequisite (it
 * also builds the MinIO test server), so its absence fails this test.
 */
class KlauspostCrossCheckIT {
  @Test
  void encodeParity_whenRandomGeometriesAndSeeds_equalsKlauspost()
      throws IOException, InterruptedException {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    List<String> args = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      int k = 1 + random.nextInt(i < 20 ? 16 : 200);
      int m = 1 + random.nextInt(Math.min(32, 256 - k));
      int length = 1 + random.nextInt(i < 20 ? 9000 : 300);
      args.addAll(List.of("" + k, "" + m, "" + length, "" + (random.nextLong() & Long.MAX_VALUE)));
    }
    Path dir = Path.of("src/test/go/rsfixtures").toAbsolutePath();
    List<String> command = new ArrayList<>(List.of("go", "run", "."));
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().put("GOFLAGS", "-mod=readonly");
    Path stderr = Files.createTempFile("rsfixtures", ".err");
    pb.redirectError(stderr.toFile());
    Process process;
    try {
      process = pb.start();
    } catch (IOException e) {
      throw new AssertionError("Go is needed for this test (install it; see README)", e);
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    assertThat(process.waitFor(10, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as(Files.readString(stderr)).isZero();
    Files.delete(stderr);
    int cases = 0;
    for (String line : output.lines().toList()) {
      if (line.startsWith("#")) {
        continue;
      }
      String[] f = line.split(" ");
      int k = Integer.parseInt(f[0]);
      int m = Integer.parseInt(f[1]);
      int length = Integer.parseInt(f[2]);
      long caseSeed = Long.parseLong(f[3]);
      List<ErasureCodec> codecs = new ArrayList<>();
      codecs.add(new ReedSolomon(Geometry.of(k, m), Implementation.SCALAR));
      for (int bits : new int[] {128, 256, 512}) {
        codecs.add(new ReedSolomon(Geometry.of(k, m), Implementation.VECTOR, bits));
      }
      for (ErasureCodec codec : codecs) {
        byte[][] shards = Xorshift.shards(k, m, length, caseSeed);
        codec.encodeParity(shards, 0, length);
        for (int p = 0; p < m; p++) {
          assertThat(HexFormat.of().formatHex(shards[k + p]))
              .as("seed %d: %s, case %s parity %d", seed, codec, line.substring(0, 30), p)
              .isEqualTo(f[4 + p]);
        }
      }
      cases++;
    }
    assertThat(cases).isEqualTo(24);
  }
}
