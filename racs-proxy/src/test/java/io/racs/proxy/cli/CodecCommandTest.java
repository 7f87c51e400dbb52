package io.racs.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code racs codec encode/decode} round-trips files through shard files: sizes and layout
 * as documented, recovery from any m lost or damaged shards with the lost files rewritten, and a
 * clean one-line failure that writes nothing when too few shards remain.
 */
class CodecCommandTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int racs(String... args) {
    return RacsMain.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
  }

  private Path input(long seed, int size) throws IOException {
    byte[] bytes = SeededBytes.bytes(seed, size);
    Path file = dir.resolve("input-" + size);
    Files.write(file, bytes);
    return file;
  }

  @Test
  void encodeThenDecode_whenMShardsLost_rebuildsFileAndShards() throws IOException {
    long seed = TestSeed.get();
    int size = 3 * CodecCommand.CHUNK_BYTES * 4 + 5; // several chunks per shard, padded tail
    Path file = input(seed, size);
    Path shards = dir.resolve("shards");
    assertThat(
            racs(
                "codec",
                "encode",
                "--geometry",
                "4x2",
                "--in",
                file.toString(),
                "--out",
                shards.toString()))
        .as(err.toString())
        .isZero();
    long shardSize = (size + 3) / 4;
    byte[] original = Files.readAllBytes(file);
    byte[][] before = new byte[6][];
    for (int i = 0; i < 6; i++) {
      before[i] = Files.readAllBytes(shards.resolve("shard-" + i));
      assertThat(before[i]).hasSize((int) shardSize);
    }
    assertThat(Arrays.copyOfRange(before[1], 0, 100))
        .isEqualTo(Arrays.copyOfRange(original, (int) shardSize, (int) shardSize + 100));
    assertThat(before[3][(int) shardSize - 1]).as("zero padding").isZero();
    assertThat(out.toString()).contains("into 6 shards of " + shardSize + " bytes");

    Files.delete(shards.resolve("shard-2"));
    Files.write(shards.resolve("shard-5"), new byte[] {1, 2, 3}); // wrong size: damaged
    Path restored = dir.resolve("restored");
    assertThat(
            racs(
                "codec",
                "decode",
                "--geometry",
                "4x2",
                "--in",
                shards.toString(),
                "--length",
                Integer.toString(size),
                "--out",
                restored.toString()))
        .as(err.toString())
        .isZero();
    assertThat(Files.readAllBytes(restored)).as("seed %d", seed).isEqualTo(original);
    assertThat(Files.readAllBytes(shards.resolve("shard-2"))).isEqualTo(before[2]);
    assertThat(Files.readAllBytes(shards.resolve("shard-5"))).isEqualTo(before[5]);
    assertThat(out.toString()).contains("treated as missing", "rewrote 2 missing shard files");
    try (var listing = Files.list(shards)) {
      assertThat(listing.map(p -> p.getFileName().toString()))
          .allMatch(n -> n.startsWith("shard-"));
    }
  }

  @Test
  void decode_whenMoreThanMShardsLost_failsInOneLineAndWritesNothing() throws IOException {
    Path file = input(1, 1000);
    Path shards = dir.resolve("shards");
    assertThat(
            racs(
                "codec",
                "encode",
                "--geometry",
                "3x2",
                "--in",
                file.toString(),
                "--out",
                shards.toString()))
        .isZero();
    for (int i : new int[] {0, 2, 4}) {
      Files.delete(shards.resolve("shard-" + i));
    }
    Path restored = dir.resolve("restored");
    int code =
        racs(
            "codec",
            "decode",
            "--geometry",
            "3x2",
            "--in",
            shards.toString(),
            "--length",
            "1000",
            "--out",
            restored.toString());
    assertThat(code).isEqualTo(ExitCodes.FAILURE);
    assertThat(err.toString().strip())
        .isEqualTo(
            "racs codec decode: only 2 of 5 shard files usable in "
                + shards
                + " (expected: at least 3 for 3x2); nothing written");
    assertThat(restored).doesNotExist();
    try (var listing = Files.list(shards)) {
      assertThat(listing).hasSize(2);
    }
  }

  @Test
  void encodeDecode_whenEmptyFile_roundTrips() throws IOException {
    Path file = dir.resolve("empty");
    Files.createFile(file);
    Path shards = dir.resolve("shards");
    assertThat(
            racs(
                "codec",
                "encode",
                "--geometry",
                "2x1",
                "--in",
                file.toString(),
                "--out",
                shards.toString()))
        .isZero();
    assertThat(Files.size(shards.resolve("shard-2"))).isZero();
    Files.delete(shards.resolve("shard-0"));
    Path restored = dir.resolve("restored");
    assertThat(
            racs(
                "codec",
                "decode",
                "--geometry",
                "2x1",
                "--in",
                shards.toString(),
                "--length",
                "0",
                "--out",
                restored.toString()))
        .isZero();
    assertThat(Files.size(restored)).isZero();
  }

  @Test
  void encode_whenBadGeometryOrMissingInput_exitsWithUsageCode() {
    assertThat(racs("codec", "encode", "--geometry", "4y2", "--in", "x", "--out", dir.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("geometry: 4y2 (expected: DxP");
    assertThat(
            racs(
                "codec",
                "encode",
                "--geometry",
                "4x2",
                "--in",
                dir.resolve("nope").toString(),
                "--out",
                dir.toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .contains("racs codec encode: --in: ")
        .contains("(expected: a readable file)");
  }
}
