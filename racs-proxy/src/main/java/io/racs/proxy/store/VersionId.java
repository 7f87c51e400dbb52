package io.racs.proxy.store;

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
 * <p>One instance per store, thread-safe. The static methods read ids of any store.
 */
final class VersionId {
  static final int LENGTH = 32;

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Clock clock;
  // The largest t minted or observed.
  private long lastMicros;

  VersionId(Clock clock) {
    this.clock = clock;
  }

  /** A new id, newer than every id this clock minted or observed before. */
  String next() {
    long micros;
    synchronized (this) {
      micros = Math.max(micros(clock.instant()), lastMicros + 1);
      lastMicros = micros;
    }
    return format(micros) + HexFormat.of().toHexDigits(RANDOM.nextLong());
  }

  /**
   * Advances this clock past an id met in a listing or record (the receive rule of a hybrid logical
   * clock), so that every id minted afterwards is newer. Ids that are not well-formed, or whose
   * time is out of range, are ignored.
   */
  void observe(String id) {
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
  static Instant time(String id) {
    long micros = Long.MAX_VALUE - Long.parseUnsignedLong(id.substring(0, 16), 16);
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
  }

  /** True when {@code a} is newer than {@code b}. */
  static boolean newer(String a, String b) {
    return a.compareTo(b) < 0;
  }

  /** True for a well-formed id. */
  static boolean valid(String id) {
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
