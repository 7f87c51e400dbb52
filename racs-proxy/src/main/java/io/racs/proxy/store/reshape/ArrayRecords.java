package io.racs.proxy.store.reshape;

import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.ArrayRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.heal.Maintenance;
import java.util.Optional;

/**
 * The array records of one array (docs/reshape.md): written on a write quorum of the array's
 * repositories through the one commit routine, and read on a read quorum, where the newest record
 * that may be on a write quorum decides, as a version's entry does (records of a write that failed
 * on too many repositories never count). So far {@code racs reshape start}, {@code status} and
 * {@code abort} use them, and every opening of the array ({@link RecordedLayout}); the mover next.
 *
 * <p>Thread-safe, as the store is; two writers racing each other both write, and the newer record
 * decides (the commands are meant for one operator at a time).
 */
public final class ArrayRecords {
  private final StoreContext context;
  private final QuorumWriter writer;

  public ArrayRecords(Maintenance store) {
    this.context = store.context();
    this.writer = new QuorumWriter(context, store.collector());
  }

  /**
   * The array record that decides now, empty when the array has none.
   *
   * @throws StoreException {@code INSUFFICIENT_SHARDS} when fewer than a read quorum of
   *     repositories answered, or no repository holding the deciding record could be read
   */
  public Optional<ArrayRecord> current() {
    IndexMerge merge = new IndexMerge(context.array, Layout.ARRAY_RECORDS, "", 100);
    IndexMerge.Entry deciding = null;
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      // Ordered by commit, not by clock: the next record's id is newer than every one listed.
      context.ids.observe(e.name().substring(Layout.ARRAY_RECORDS.length()));
      if (merge.index().mayCount(VersionResolver.possibleHolders(merge, e))) {
        deciding = e; // the newest that may be on a write quorum: ids sort newest first
        break;
      }
    }
    context.requireReadQuorum(merge, "read the array record");
    if (deciding == null) {
      return Optional.empty();
    }
    String name = deciding.name();
    ArrayRecord record =
        context
            .read(deciding, ArrayRecord.class)
            .orElseThrow(
                () ->
                    new StoreException(
                        StoreException.Code.INSUFFICIENT_SHARDS,
                        "array record " + name + ": no repository listing it could be read"));
    return Optional.of(record);
  }

  /**
   * A new record's id: newer than every id this store has minted or read, so newer than every array
   * record {@link #current} listed (call it first), whatever the clocks of the proxies that wrote
   * them (docs/ordering.md).
   */
  public String nextId() {
    return context.ids.next();
  }

  /**
   * Writes {@code record} (whose id is {@link #nextId}) on a write quorum.
   *
   * @throws StoreException {@code INSUFFICIENT_SHARDS} when fewer than a write quorum took it (it
   *     then does not count)
   */
  public void write(ArrayRecord record) {
    if (!record.arrayId().equals(context.arrayId)) {
      throw new IllegalArgumentException(
          "arrayId: " + record.arrayId() + " (expected: " + context.arrayId + ")");
    }
    writer.write(
        Layout.arrayRecord(record.versionId()),
        Layout.encode(record),
        "array record " + record.state());
  }

  /** The array id. */
  public String arrayId() {
    return context.arrayId;
  }
}
