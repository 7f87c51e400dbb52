package io.racs.proxy.testing;

import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.reshape.ArrayRecords;
import io.racs.repos.Repository;
import java.util.List;

/** Reshapes recorded on a test array as {@code racs reshape start} records them. */
public final class ReshapeRecords {
  private ReshapeRecords() {}

  /** Records the reshape 4x2 -> 3x3 over {@code store}'s repositories (generation 0 -> 1). */
  public static void record4x2To3x3(ErasureStore store) {
    record4x2To3x3(store, null, 0);
  }

  /**
   * Records the reshape 4x2 -> 3x3 with the plan's {@code totals} (null: none, as records written
   * before they were kept) and {@code rateMegabytesPerSecond}.
   */
  public static void record4x2To3x3(
      ErasureStore store, ArrayRecord.Totals totals, double rateMegabytesPerSecond) {
    record(store, ArrayRecord.State.RUNNING, "3x3", null, totals, rateMegabytesPerSecond);
  }

  /**
   * Records a reshape of {@code store}'s 4x2 to {@code geometry} over the same repositories
   * (generation 0 -> 1) in {@code state}, with its {@code reason} (null: none) and {@code totals}.
   */
  public static void record(
      ErasureStore store,
      ArrayRecord.State state,
      String geometry,
      String reason,
      ArrayRecord.Totals totals,
      double rateMegabytesPerSecond) {
    ArrayRecords records = new ArrayRecords(store);
    records.current(); // observes the ids listed, so that the new one is newer
    List<String> names = store.repositories().stream().map(Repository::name).toList();
    records.write(
        new ArrayRecord(
            1,
            store.arrayId(),
            records.nextId(),
            state,
            new ArrayRecord.Generation(0, "4x2", names),
            new ArrayRecord.Generation(1, geometry, names),
            store.config().clock().millis(),
            rateMegabytesPerSecond,
            reason,
            totals,
            null));
  }
}
