package io.racs.proxy.store.format;

import io.racs.proxy.store.commit.CommitOrder;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Version ids, and the hybrid logical clock that mints them (see {@code docs/ordering.md}). An id
 * is 16 hex digits of {@code Long.MAX_VALUE - t} followed by 16 random hex digits, so that ids sort
 * newest first as strings (the order repository listings return) and two proxies minting the same
 * {@code t} still differ.
 *
 * <p>{@code t} is microseconds since the epoch, but not simply this proxy's wall clock: it is the
 * largest of the wall clock, one more than the last {@code t} this clock minted, and one more than
 * every {@code t} it has observed ({@link #observe}). A writer observes the newest id of its key on
 * a read quorum before it mints its version's id, so its version is newer than every version
 * acknowledged before its write began, whichever proxy wrote it and however far the clocks of the
 * two proxies differ. Where the clocks agree, {@code t} stays the wall-clock time of the commit.
 *
 * <p>The last of the random digits says what a reader may assume of the version the id names,
 * before it has read its record (see {@link Mark}): an id minted for a PUT's data, which the
 * version takes as its own id when that orders it correctly ({@link CommitOrder}), ends in {@code
 * d}; the id of an inline version ends in {@code e}; every other id ends in neither. A cold GET
 * then reads the shards beside the record rather than after it. The mark is a guess a reader checks
 * against the record before it uses a byte (ids from before it, or from another store, may carry it
 * by chance).
 *
 * <p>One instance per store, thread-safe. The static methods read ids of any store.
 */
public final class VersionId {
  static final int LENGTH = 32;

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Clock clock;
  // The largest t minted or observed.
  private long lastMicros;

  public VersionId(Clock clock) {
    this.clock = clock;
  }

  /** What an id's last digit says of the version it names, if it names one (see the class). */
  public enum Mark {
    /** Nothing: a delete marker, a multipart or copied version, or an id that names no version. */
    NONE(' '),
    /** The id was minted for a PUT's data; a version with this id has its shards under it. */
    DATA('d'),
    /** A version whose shards are inside its records (see {@link PartMeta#inline}). */
    INLINE('e');

    private final char digit;

    Mark(char digit) {
      this.digit = digit;
    }

    /** The mark an id carries. */
    public static Mark of(String id) {
      if (!valid(id)) {
        return NONE;
      }
      char last = id.charAt(LENGTH - 1);
      return last == DATA.digit ? DATA : last == INLINE.digit ? INLINE : NONE;
    }
  }

  /** A new id, newer than every id this clock minted or observed before, with no mark. */
  public String next() {
    return next(Mark.NONE);
  }

  /** A new id, newer than every id this clock minted or observed before, marked {@code mark}. */
  public String next(Mark mark) {
    long micros;
    synchronized (this) {
      micros = Math.max(micros(clock.instant()), lastMicros + 1);
      lastMicros = micros;
    }
    char[] random = HexFormat.of().toHexDigits(RANDOM.nextLong()).toCharArray();
    int last = random.length - 1;
    if (mark != Mark.NONE) {
      random[last] = mark.digit;
    } else if (random[last] == Mark.DATA.digit || random[last] == Mark.INLINE.digit) {
      random[last] -= 2; // b or c: an unmarked id never ends in a mark's digit
    }
    return format(micros) + new String(random);
  }

  /**
   * Advances this clock past an id met in a listing or record (the receive rule of a hybrid logical
   * clock), so that every id minted afterwards is newer. Ids that are not well-formed, or whose
   * time is out of range, are ignored.
   */
  public void observe(String id) {
    if (!valid(id)) {
      return;
    }
    long micros = Long.MAX_VALUE - Long.parseUnsignedLong(id.substring(0, 16), 16);
    if (micros < 0 || micros == Long.MAX_VALUE) {
      return; // not a time this clock could follow (the first digit above 7, or t at its limit)
    }
    synchronized (this) {
      lastMicros = Math.max(lastMicros, micros);
    }
  }

  /**
   * The newest time (microseconds) this clock minted or observed: a commit time some proxy's clock
   * gave. A wall clock that reads earlier is behind that proxy's (see {@code RemovalRule}).
   */
  public synchronized long newestMicros() {
    return lastMicros;
  }

  /** The wall clock this version clock follows. */
  Clock clock() {
    return clock;
  }

  private static long micros(Instant now) {
    return Math.addExact(
        Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
  }

  private static String format(long micros) {
    return String.format(Locale.ROOT, "%016x", Long.MAX_VALUE - micros);
  }

  /**
   * The time in the id: when it was minted, by the clock of the proxy that minted it, or later if
   * that proxy had seen newer ids (a clock ahead of it).
   */
  public static Instant time(String id) {
    long micros = Long.MAX_VALUE - Long.parseUnsignedLong(id.substring(0, 16), 16);
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
  }

  /** The time in a well-formed id, in microseconds (see {@link #time}). */
  public static long micros(String id) {
    return Long.MAX_VALUE - Long.parseUnsignedLong(id.substring(0, 16), 16);
  }

  /** True when {@code a} is newer than {@code b}. */
  public static boolean newer(String a, String b) {
    return a.compareTo(b) < 0;
  }

  /** True for a well-formed id. */
  public static boolean valid(String id) {
    if (id == null || id.length() != LENGTH) {
      return false;
    }
    for (int i = 0; i < LENGTH; i++) {
      char c = id.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }
}
