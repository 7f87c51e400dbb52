package io.racs.proxy.store.reshape;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.codec.Geometry;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.SlotLayout;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.array.Throttle;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.Maintenance;
import io.racs.proxy.store.stripe.PartReader;
import io.racs.proxy.store.stripe.PartWriter;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Writes one version's copy in the target layout (docs/reshape.md §3, §5): each part's stored bytes
 * read with {@link PartReader} in the version's own geometry (sealed parts as ciphertext: no key is
 * needed) and written with {@link PartWriter} in the target's under a fresh data id, its shards
 * placed by the key's rotation over the target's slots; an inline version is encoded inline again
 * when it fits the target's inline size. The copy is then committed under {@code
 * <vid>-a<generation>} through {@link QuorumWriter}. Everything else of the record (version id,
 * times, ETags, checksums, headers, metadata, tags, the part table, the seal, the lock, the null
 * flag) is copied as it is.
 *
 * <p>Not thread-safe: the mover copies one version at a time.
 */
final class VersionCopier {
  /**
   * The version's stored bytes could not be read (fewer than k good shards of a part, or a record
   * that does not describe its parts): thrown by {@link #copy} instead of the read's own failure,
   * so that the mover can tell an unreadable version from a copy that did not reach a write quorum.
   */
  static final class Unreadable extends StoreException {
    private static final long serialVersionUID = 1L;

    @SuppressWarnings("serial") // a record of strings and lists; never serialised in practice
    private final PartMeta part;

    Unreadable(PartMeta part, StoreException cause) {
      super(cause.code(), "read: " + cause.getMessage(), cause);
      this.part = part;
    }

    /** The part that could not be read. */
    PartMeta part() {
      return part;
    }
  }

  private final StoreContext context;
  private final QuorumWriter writer;
  private final Geometry target;
  private final int generation;
  // Where the target places shards: a geometry-only reshape keeps the slot ids 0..n-1.
  private final SlotLayout targetLayout;
  private final StoreConfig targetConfig;
  private final ErasureCodec targetCodec;
  private final Throttle throttle;

  VersionCopier(Maintenance store, Geometry target, int generation, Throttle throttle) {
    this.context = store.context();
    this.writer = new QuorumWriter(context, store.collector());
    this.target = target;
    this.generation = generation;
    this.targetLayout = SlotLayout.overFirst(generation, target);
    this.targetConfig = configFor(context.config, target);
    this.targetCodec = context.codecFor(target);
    this.throttle = throttle;
  }

  /** The store's configuration with {@code target}'s geometry and that geometry's write quorum. */
  static StoreConfig configFor(StoreConfig c, Geometry target) {
    int writeQuorum = Math.max(target.dataShards(), target.parityShards() + 1);
    return new StoreConfig(
        target,
        c.blockBytes(),
        writeQuorum,
        c.slowShardTimeout(),
        c.stallGrace(),
        c.minPartBytes(),
        c.gcGrace(),
        c.inlineBytes(),
        c.settleTime(),
        c.clock(),
        c.keys(),
        c.hedge(),
        c.ticker());
  }

  /** Whether {@code meta} is already in the target layout. */
  boolean inTarget(VersionMeta meta) {
    return meta.geometry().equals(target.toString())
        && meta.parts().stream().allMatch(p -> p.slots().size() == target.totalShards());
  }

  /**
   * Copies {@code meta}, read from the index name {@code readFrom} (an inline version's shards are
   * in it), into the target layout and commits the copy; returns the stored bytes copied.
   *
   * @throws StoreException {@code INSUFFICIENT_SHARDS} when the version cannot be read, or its copy
   *     did not reach a write quorum (then the copy's data is deleted and nothing counts)
   */
  long copy(VersionMeta meta, String readFrom) {
    List<Integer> slots = context.slotsFor(meta.bucket(), meta.key(), targetLayout);
    List<PartMeta> parts = new ArrayList<>();
    List<StoreException.ShardFailure> failures = new ArrayList<>();
    byte[][] inlineShards = null;
    long bytes = 0;
    try {
      for (PartMeta part : meta.parts()) {
        throttle.consume(part.sizeBytes());
        bytes += part.sizeBytes();
        if (part.inline() && targetConfig.inlines(part.sizeBytes())) {
          byte[] data = readAll(meta, part, readFrom);
          inlineShards =
              data.length == 0
                  ? new byte[target.totalShards()][0]
                  : PartWriter.encodeStripe(targetCodec, data, data.length, byte[]::new);
          parts.add(
              new PartMeta(
                  part.partNumber(),
                  meta.versionId(), // an inline part's data is its version's record
                  part.sizeBytes(),
                  part.etag(),
                  targetConfig.pieceBytes(),
                  slots,
                  part.checksums(),
                  true));
          continue;
        }
        try (PartReader source = open(meta, part, readFrom)) {
          InputStream in = unreadableOnFailure(part, source);
          PartWriter.Result written =
              PartWriter.write(
                  context.array,
                  targetCodec,
                  targetConfig,
                  part.partNumber(),
                  context.ids.next(),
                  slots,
                  in,
                  part.sizeBytes(),
                  false);
          parts.add(written.part().withEtag(part.etag()).withChecksums(part.checksums()));
          failures.addAll(written.failures());
        }
      }
    } catch (RuntimeException e) {
      // What was written is no copy: its data goes (heal collects what this misses).
      deleteWritten(parts);
      throw e;
    }
    VersionMeta copy =
        meta.toBuilder()
            .geometry(target.toString())
            .parts(parts)
            .layout(generation)
            .movedMillis(context.config.clock().millis())
            .build();
    String name =
        Layout.copyEntry(
            context.indexEntry(meta.bucket(), meta.key(), meta.versionId()), generation);
    IntFunction<byte[]> recordOnSlot;
    if (inlineShards != null) {
      byte[][] shards = inlineShards;
      recordOnSlot = slot -> Layout.encodeInline(copy, shards[slots.indexOf(slot)]);
    } else {
      byte[] record = Layout.encode(copy);
      recordOnSlot = slot -> record;
    }
    writer.commitCopy(name, copy, recordOnSlot, failures);
    return bytes;
  }

  private void deleteWritten(List<PartMeta> parts) {
    for (PartMeta part : parts) {
      if (!part.inline()) {
        PartWriter.deleteShards(context.array, part.slots(), part.dataId());
      }
    }
  }

  private PartReader reader(VersionMeta meta, PartMeta part, String readFrom) {
    PartReader reader =
        new PartReader(
            context.array,
            context.codecOf(meta),
            context.config,
            context.stats,
            part,
            0,
            part.sizeBytes());
    return part.inline() ? reader.inlineIn(readFrom) : reader;
  }

  private byte[] readAll(VersionMeta meta, PartMeta part, String readFrom) {
    try (PartReader in = open(meta, part, readFrom)) {
      return in.readAllBytes();
    } catch (StoreException e) {
      throw e instanceof Unreadable ? e : new Unreadable(part, e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The part's reader, opened; {@link Unreadable} when it cannot be. */
  private PartReader open(VersionMeta meta, PartMeta part, String readFrom) {
    try {
      return reader(meta, part, readFrom).open();
    } catch (StoreException e) {
      throw new Unreadable(part, e);
    }
  }

  /**
   * {@code in}, whose read failures are {@link Unreadable} (the writer passes them on as they are).
   */
  private static InputStream unreadableOnFailure(PartMeta part, PartReader in) {
    return new FilterInputStream(in) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        try {
          return super.read(b, off, len);
        } catch (StoreException e) {
          throw e instanceof Unreadable ? e : new Unreadable(part, e);
        }
      }
    };
  }
}
