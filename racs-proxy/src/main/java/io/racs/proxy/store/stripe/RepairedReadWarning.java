package io.racs.proxy.store.stripe;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The warning a read repaired from parity logs, limited in rate across all reads. */
final class RepairedReadWarning {
  // Under the reader's name, as before this was split out of it: log settings name it.
  private static final Logger LOG = LoggerFactory.getLogger(PartReader.class);
  private static final long WARN_EVERY_NANOS = 10_000_000_000L;
  private static final AtomicLong LAST_WARN = new AtomicLong(System.nanoTime() - WARN_EVERY_NANOS);
  private static final LongAdder SUPPRESSED = new LongAdder();
  private static final LongAdder ISSUED = new LongAdder();

  /**
   * Repaired reads are worth a warning (the client never sees them), but during an outage every
   * read is one: warn at most every ten seconds, counting the ones in between.
   */
  static void warn(String dataId, String why) {
    ISSUED.increment();
    long now = System.nanoTime();
    long last = LAST_WARN.get();
    if (now - last >= WARN_EVERY_NANOS && LAST_WARN.compareAndSet(last, now)) {
      LOG.warn(
          "read of {} repaired from parity ({} more repaired reads since the last warning): {}",
          dataId,
          SUPPRESSED.sumThenReset(),
          why);
    } else {
      SUPPRESSED.increment();
      LOG.debug("read of {} repaired from parity: {}", dataId, why);
    }
  }

  /**
   * How many repaired reads have asked to warn since the JVM started, logged or suppressed: what a
   * test of a quiet read counts, as the log's level and rate limit hide most of them.
   */
  static long issued() {
    return ISSUED.sum();
  }

  private RepairedReadWarning() {}
}
