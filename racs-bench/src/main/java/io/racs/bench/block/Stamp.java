package io.racs.bench.block;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * Verification stamps for block writes ({@code --verify}). Every {@link #UNIT_BYTES} unit of a
 * stamped write carries, in its first 16 bytes, its own file offset and the write's key (the run id
 * in the high 32 bits, a generation in the low 32 bits); the rest is seeded from both, so a unit
 * read back proves where it was meant to be and which write put it there. A read that finds zeros
 * reports a lost block, another offset a misplaced one, an older generation a stale one, another
 * run id a foreign one, and a wrong payload a corrupt one. Stateless and thread-safe.
 */
public final class Stamp {
  /** The stamped unit: every stamped record size must be a multiple of it. */
  public static final int UNIT_BYTES = 4096;

  private Stamp() {}

  /** What a unit read back was found to be. */
  public enum Kind {
    /** All header bytes zero: the write never reached the file (or was lost). */
    LOST,
    /** The header names another offset: the write landed in the wrong place. */
    MISPLACED,
    /** Right offset and run, but an older generation than the last write acknowledged. */
    STALE,
    /** Right offset, another run id: data from another run, never rewritten by this one. */
    FOREIGN,
    /** The header is right but the payload is not. */
    CORRUPT
  }

  /**
   * A unit that failed verification.
   *
   * @param offsetBytes the file offset of the unit
   * @param kind what was found
   * @param detail what was expected and found
   */
  public record Failure(long offsetBytes, Kind kind, String detail) {
    @Override
    public String toString() {
      return kind.name().toLowerCase(java.util.Locale.ROOT)
          + " block at offset "
          + offsetBytes
          + ": "
          + detail;
    }
  }

  /** The key of generation {@code generation} of run {@code runId}. */
  public static long key(int runId, int generation) {
    return ((long) runId << 32) | (generation & 0xffffffffL);
  }

  /**
   * Fills {@code buffer} from its position to its limit (a multiple of {@link #UNIT_BYTES}) with
   * the units that belong at {@code offsetBytes}, written under {@code key}; position is left at
   * the start.
   */
  public static void fill(ByteBuffer buffer, long offsetBytes, long key) {
    ByteBuffer b = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int start = b.position();
    for (int u = start; u < b.limit(); u += UNIT_BYTES) {
      long offset = offsetBytes + (u - start);
      b.putLong(u, offset);
      b.putLong(u + 8, key);
      SplittableRandom random = new SplittableRandom(offset * 0x9E3779B97F4A7C15L ^ key);
      for (int i = u + 16; i < u + UNIT_BYTES; i += 8) {
        b.putLong(i, random.nextLong());
      }
    }
  }

  /**
   * Checks the units in {@code buffer} (position to limit) read from {@code offsetBytes}.
   *
   * @param expectedGeneration the generation of the last write acknowledged for a unit's offset
   * @return the first failure, or null when every unit is right
   */
  public static Failure check(
      ByteBuffer buffer,
      long offsetBytes,
      int runId,
      java.util.function.LongToIntFunction expectedGeneration) {
    ByteBuffer b = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int start = b.position();
    for (int u = start; u < b.limit(); u += UNIT_BYTES) {
      long offset = offsetBytes + (u - start);
      long foundOffset = b.getLong(u);
      long foundKey = b.getLong(u + 8);
      if (foundOffset == 0 && foundKey == 0 && (offset != 0 || b.getLong(u + 16) == 0)) {
        return new Failure(offset, Kind.LOST, "zeros where a stamped block was written");
      }
      if (foundOffset != offset) {
        return new Failure(offset, Kind.MISPLACED, "holds the block of offset " + foundOffset);
      }
      int foundRun = (int) (foundKey >>> 32);
      int foundGeneration = (int) foundKey;
      if (foundRun != runId) {
        return new Failure(
            offset, Kind.FOREIGN, "run id " + foundRun + " (expected: " + runId + ")");
      }
      int expected = expectedGeneration.applyAsInt(offset);
      if (foundGeneration != expected) {
        return new Failure(
            offset,
            Kind.STALE,
            "generation " + foundGeneration + " (expected: " + expected + ", the last write)");
      }
      SplittableRandom random = new SplittableRandom(offset * 0x9E3779B97F4A7C15L ^ foundKey);
      for (int i = u + 16; i < u + UNIT_BYTES; i += 8) {
        if (b.getLong(i) != random.nextLong()) {
          return new Failure(offset, Kind.CORRUPT, "payload differs at byte " + (i - u));
        }
      }
    }
    return null;
  }
}
