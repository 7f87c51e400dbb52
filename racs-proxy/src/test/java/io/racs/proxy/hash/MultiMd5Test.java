package io.racs.proxy.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.TestSeed;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Proves {@link MultiMd5} gives exactly {@link MessageDigest}'s MD5 of every message, whatever the
 * lengths hashed together: every length from 0 to 400 bytes (each padding case: a last block with
 * room for the length, without it, and a block of padding alone), lanes of different lengths side
 * by side, and random lengths up to 200 KiB from a printed seed.
 */
class MultiMd5Test {
  private final long seed = TestSeed.get();

  private static byte[] md5(byte[] message) throws Exception {
    return MessageDigest.getInstance("MD5").digest(message);
  }

  private static byte[] bytes(SplittableRandom random, int length) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) random.nextInt();
    }
    return b;
  }

  @Test
  void everyLengthUpTo400_equalsTheJdk_withNeighbouringLengthsInTheOtherLanes() throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    int lanes = MultiMd5.lanes();
    for (int start = 0; start <= 400; start += lanes) {
      byte[][] messages = new byte[lanes][];
      for (int lane = 0; lane < lanes; lane++) {
        messages[lane] = bytes(random, start + lane);
      }
      byte[][] digests = MultiMd5.digest(messages);
      for (int lane = 0; lane < lanes; lane++) {
        assertThat(digests[lane])
            .as("length %d, seed %d", messages[lane].length, seed)
            .isEqualTo(md5(messages[lane]));
      }
    }
  }

  @Test
  void randomLengths_andFewerMessagesThanLanes_equalTheJdk() throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    for (int round = 0; round < 20; round++) {
      int n = 1 + random.nextInt(MultiMd5.lanes());
      List<byte[]> messages = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        messages.add(bytes(random, random.nextInt(200 * 1024)));
      }
      byte[][] digests = MultiMd5.digest(messages.toArray(new byte[0][]));
      assertThat(digests.length).isEqualTo(n);
      for (int i = 0; i < n; i++) {
        assertThat(digests[i])
            .as("round %d, message %d of %d bytes, seed %d", round, i, messages.get(i).length, seed)
            .isEqualTo(md5(messages.get(i)));
      }
    }
  }

  @Test
  void knownVectors_fromRfc1321() {
    byte[][] digests =
        MultiMd5.digest(
            "".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
            "abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    assertThat(java.util.HexFormat.of().formatHex(digests[0]))
        .isEqualTo("d41d8cd98f00b204e9800998ecf8427e");
    assertThat(java.util.HexFormat.of().formatHex(digests[1]))
        .isEqualTo("900150983cd24fb0d6963f7d28e17f72");
  }

  @Test
  void moreMessagesThanLanes_isRefused() {
    byte[][] tooMany = new byte[MultiMd5.lanes() + 1][0];
    assertThatThrownBy(() -> MultiMd5.digest(tooMany))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most " + MultiMd5.lanes());
  }
}
