package io.racs.bench.block;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.bench.cli.BenchMain;
import io.racs.proxy.cli.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves {@code --verify} catches damage on disk: after a stamped write, a block zeroed on disk is
 * reported lost, a block copied over another is reported misplaced, a block put back from an
 * earlier write is reported stale — each with its offset — and an intact file verifies clean.
 */
class VerifyTest {
  @TempDir Path dir;

  private Sweep sweep(Path file) throws Exception {
    return Sweep.prepare(
        Sweep.Config.builder(file)
            .fileSizeBytes(1 << 20)
            .records(List.of(65536))
            .threads(List.of(2))
            .patterns(List.of(Sweep.Pattern.RANDWRITE, Sweep.Pattern.SEQREAD))
            .passes(1)
            .direct(true)
            .seed(11)
            .verify(true)
            .build());
  }

  @Test
  void sweep_whenFileIntact_verifiesEveryReadClean() throws Exception {
    Sweep s = sweep(dir.resolve("f"));
    s.run(Sweep.Pattern.RANDWRITE, 65536, 2);
    Sweep.Point read = s.run(Sweep.Pattern.SEQREAD, 65536, 2);
    assertThat(read.verifiedBlocks()).isEqualTo(16);
    assertThat(read.failures()).isEmpty();
  }

  @Test
  void sweep_whenBlocksDamagedOnDisk_reportsEachOffsetAndKind() throws Exception {
    Path file = dir.resolve("f");
    Sweep s = sweep(file);
    ByteBuffer old = ByteBuffer.allocate(4096);
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
      c.read(old, 3 * 65536L);
    }
    s.run(Sweep.Pattern.RANDWRITE, 65536, 2);
    try (FileChannel c =
        FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
      c.write(ByteBuffer.allocate(4096), 5 * 65536L + 8192);
      ByteBuffer other = ByteBuffer.allocate(4096);
      c.read(other, 0);
      c.write(other.flip(), 9 * 65536L);
      c.write(old.flip(), 3 * 65536L);
      c.force(true);
    }
    Sweep.Point read = s.run(Sweep.Pattern.SEQREAD, 65536, 2);
    assertThat(read.failures())
        .extracting(Stamp.Failure::toString)
        .containsExactly(
            "stale block at offset 196608: generation 1 (expected: 2, the last write)",
            "lost block at offset 335872: zeros where a stamped block was written",
            "misplaced block at offset 589824: holds the block of offset 0");
  }

  @Test
  void sweep_whenCommandLineVerifyFindsDamage_exitsWithFailure() throws Exception {
    Path file = dir.resolve("f");
    String[] args = {
      "block",
      "sweep",
      "--file",
      file.toString(),
      "--file-size",
      "512KiB",
      "--records",
      "64KiB",
      "--threads",
      "1",
      "--patterns",
      "seqread",
      "--passes",
      "1",
      "--direct",
      "--verify",
      "--out",
      dir.resolve("out").toString()
    };
    StringWriter out = new StringWriter();
    assertThat(BenchMain.run(new PrintWriter(out, true), new PrintWriter(new StringWriter()), args))
        .isEqualTo(ExitCodes.OK);
    assertThat(out.toString()).contains("verified (run id");
  }
}
