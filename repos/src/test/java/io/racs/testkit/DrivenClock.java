package io.racs.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that a test moves by hand, so that ages, grace periods and lease expiries pass at once
 * and exactly where the test says, with nothing waiting on real time. It starts at a fixed instant
 * (in 2027, so that ids minted from it sort after any minted from a real clock today) and is safe
 * to share between threads and stores.
 */
public final class DrivenClock extends Clock {
  /** Where every driven clock starts, in milliseconds since the epoch. */
  public static final long START_MILLIS = 1_800_000_000_000L;

  private final AtomicLong millis = new AtomicLong(START_MILLIS);

  /** Moves the clock forward by {@code by} (whole milliseconds). */
  public void advance(Duration by) {
    millis.addAndGet(by.toMillis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  /** This clock itself: it is always UTC, and shared by whoever was given it. */
  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis.get());
  }
}
