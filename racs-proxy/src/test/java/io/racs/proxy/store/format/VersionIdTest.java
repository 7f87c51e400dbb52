package io.racs.proxy.store.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/**
 * Proves the hybrid logical clock of version ids: ids from one clock only get newer, even when the
 * wall clock stands still or goes back, an observed id from a clock ahead makes every later id
 * newer than it, and ids that are not well-formed or out of range are not followed.
 */
class VersionIdTest {
  private static final Instant NOW = Instant.parse("2026-11-24T20:00:00Z");

  @Test
  void next_whenTheWallClockStandsStill_isStillNewerEachTime() {
    VersionId ids = new VersionId(Clock.fixed(NOW, ZoneOffset.UTC));
    String previous = ids.next();
    for (int i = 0; i < 1000; i++) {
      String next = ids.next();
      assertThat(VersionId.newer(next, previous)).isTrue();
      previous = next;
    }
    assertThat(VersionId.time(previous)).isEqualTo(NOW.plusNanos(1000 * 1000));
  }

  @Test
  void next_withAndWithoutAMark_endsInTheMarksDigitOnlyWhenMarked() {
    VersionId ids = new VersionId(Clock.fixed(NOW, ZoneOffset.UTC));
    // 64 random bits end in each hex digit about equally often: 2,000 unmarked ids without a d or
    // an e at the end would be a chance of (14/16)^2000 if the mark were not kept out of them.
    for (int i = 0; i < 2_000; i++) {
      assertThat(VersionId.Mark.of(ids.next())).isEqualTo(VersionId.Mark.NONE);
    }
    String data = ids.next(VersionId.Mark.DATA);
    String inline = ids.next(VersionId.Mark.INLINE);
    assertThat(VersionId.Mark.of(data)).isEqualTo(VersionId.Mark.DATA);
    assertThat(VersionId.Mark.of(inline)).isEqualTo(VersionId.Mark.INLINE);
    assertThat(VersionId.valid(data) && VersionId.valid(inline)).isTrue();
    assertThat(VersionId.newer(inline, data)).isTrue();
    assertThat(Instant.EPOCH.plus(VersionId.micros(data), java.time.temporal.ChronoUnit.MICROS))
        .isEqualTo(VersionId.time(data));
    assertThat(VersionId.Mark.of("not an id d")).isEqualTo(VersionId.Mark.NONE);
  }

  @Test
  void next_afterObservingAnIdFromAClockAhead_isNewerThanIt() {
    VersionId behind = new VersionId(Clock.fixed(NOW.minusSeconds(30), ZoneOffset.UTC));
    VersionId ahead = new VersionId(Clock.fixed(NOW.plusSeconds(30), ZoneOffset.UTC));
    String fromAhead = ahead.next();
    assertThat(VersionId.newer(behind.next(), fromAhead)).isFalse(); // by wall clock: older
    behind.observe(fromAhead);
    String next = behind.next();
    assertThat(VersionId.newer(next, fromAhead)).isTrue();
    assertThat(VersionId.time(next)).isEqualTo(VersionId.time(fromAhead).plusNanos(1000));
  }

  @Test
  void observe_ofAnOlderId_leavesTheWallClockInCharge() {
    VersionId ids = new VersionId(Clock.fixed(NOW, ZoneOffset.UTC));
    ids.observe(new VersionId(Clock.fixed(NOW.minus(Duration.ofHours(1)), ZoneOffset.UTC)).next());
    assertThat(VersionId.time(ids.next())).isEqualTo(NOW);
  }

  @Test
  void observe_ofMalformedOrOutOfRangeIds_isIgnored() {
    VersionId ids = new VersionId(Clock.fixed(NOW, ZoneOffset.UTC));
    ids.observe(null);
    ids.observe("not an id");
    ids.observe("0".repeat(32)); // t at its limit: nothing could be newer
    ids.observe("f".repeat(32)); // a first digit above 7: a negative time
    ids.observe("ABCDEF0123456789ABCDEF0123456789"); // upper case: not as minted
    assertThat(VersionId.time(ids.next())).isEqualTo(NOW);
  }
}
