package io.racs.proxy.s3.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.TestSeed;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Proves S3's expiration rule: days are added to the last modification and the result is rounded up
 * to the next midnight UTC (a result already at midnight stays), the object is expired from that
 * instant on and not a millisecond before, and a rule's date expires from the date itself.
 */
class ExpirationTest {
  private static Instant at(String iso) {
    return Instant.parse(iso);
  }

  @Test
  void expiresAt_whenWrittenMidDay_isTheMidnightAfterTheDays() {
    assertThat(Expiration.expiresAt(at("2026-03-01T10:00:00Z"), 1))
        .isEqualTo(at("2026-03-03T00:00:00Z"));
    assertThat(Expiration.expiresAt(at("2026-03-01T23:59:59.999Z"), 30))
        .isEqualTo(at("2026-04-01T00:00:00Z"));
  }

  @Test
  void expiresAt_whenWrittenAtMidnight_isExactlyTheDaysLater() {
    assertThat(Expiration.expiresAt(at("2026-03-01T00:00:00Z"), 2))
        .isEqualTo(at("2026-03-03T00:00:00Z"));
  }

  @Test
  void expired_isFalseUntilTheInstantAndTrueFromIt() {
    Instant written = at("2026-12-31T18:30:00Z");
    Instant due = at("2027-01-02T00:00:00Z");
    assertThat(Expiration.expired(written, 1, due.minusMillis(1))).isFalse();
    assertThat(Expiration.expired(written, 1, due)).isTrue();
    assertThat(Expiration.expired(written, 1, due.plus(400, ChronoUnit.DAYS))).isTrue();
  }

  @Test
  void dateReached_fromTheDateOn() {
    Instant date = at("2027-01-01T00:00:00Z");
    assertThat(Expiration.dateReached(date, date.minusMillis(1))).isFalse();
    assertThat(Expiration.dateReached(date, date)).isTrue();
  }

  @Test
  void expiresAt_whenDaysNotPositive_isRefused() {
    assertThatThrownBy(() -> Expiration.expiresAt(at("2026-03-01T10:00:00Z"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("days: 0");
  }

  @Test
  void expiresAt_forRandomTimes_isTheFirstMidnightAtOrAfterTheDays() {
    long seed = TestSeed.get();
    Random random = new Random(seed);
    for (int i = 0; i < 10_000; i++) {
      Instant written = Instant.ofEpochMilli(random.nextLong(4_000_000_000_000L));
      int days = 1 + random.nextInt(3650);
      Instant due = Expiration.expiresAt(written, days);
      Instant plain = written.plus(days, ChronoUnit.DAYS);
      assertThat(due.atOffset(ZoneOffset.UTC).toLocalTime().toSecondOfDay())
          .as("seed %d: %s + %d", seed, written, days)
          .isZero();
      assertThat(due.toEpochMilli() % 86_400_000L).as("seed %d", seed).isZero();
      assertThat(due).as("seed %d", seed).isAfterOrEqualTo(plain);
      assertThat(due).as("seed %d", seed).isBefore(plain.plus(1, ChronoUnit.DAYS));
    }
  }
}
