package io.racs.proxy.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The system clock, moved forward by whatever a test has advanced it: time passing on demand. */
final class TestClock extends Clock {
  private volatile Duration offset = Duration.ZERO;

  /** Moves the clock forward by {@code duration}. */
  void advance(Duration duration) {
    offset = offset.plus(duration);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a test clock has one zone");
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(offset);
  }
}
