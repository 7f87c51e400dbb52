package io.racs.proxy.store;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Version ids: time-ordered and unique across proxies. An id is 16 hex digits of {@code
 * Long.MAX_VALUE - microseconds since the epoch} followed by 16 random hex digits, so that ids sort
 * newest first as strings (the order repository listings return) and two proxies minting ids in the
 * same microsecond still differ. Within one process ids are also strictly decreasing.
 */
final class VersionId {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Object LOCK = new Object();
  private static long lastMicros;

  static final int LENGTH = 32;

  private VersionId() {}

  /** A new id, older-sorting than none minted before it in this process. */
  static String next() {
    long micros;
    synchronized (LOCK) {
      Instant now = Instant.now();
      micros =
          Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
      if (micros <= lastMicros) {
        micros = lastMicros + 1;
      }
      lastMicros = micros;
    }
    return String.format(Locale.ROOT, "%016x", Long.MAX_VALUE - micros)
        + HexFormat.of().toHexDigits(RANDOM.nextLong());
  }

  /** When the id was minted. */
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
