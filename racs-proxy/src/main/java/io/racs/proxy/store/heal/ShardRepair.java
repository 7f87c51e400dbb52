package io.racs.proxy.store.heal;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.KeyStamps;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.stripe.PieceCodec;
import io.racs.proxy.store.stripe.ShardRebuilder;
import io.racs.repos.ObjectInfo;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * Heal's repair of shards: a part's missing, short or (deep heal) corrupt shards are rebuilt from k
 * good ones, and an inline version's records, each holding a different shard, likewise.
 */
final class ShardRepair {
  final HealRun run;

  ShardRepair(HealRun run) {
    this.run = run;
  }

  void healPart(VersionMeta version, PartMeta part) {
    ErasureCodec codec = codecOf(version);
    if (codec == null) {
      return;
    }
    int k = codec.geometry().dataShards();
    int n = codec.geometry().totalShards();
    Set<Integer> bad = new TreeSet<>();
    long expected = part.shardObjectBytes(k);
    for (int i = 0; i < n; i++) {
      int slot = part.slots().get(i);
      if (run.unreachable.containsKey(slot)) {
        continue;
      }
      Repository repository = run.array.slot(slot);
      String name = Layout.shard(part.dataId(), i);
      try {
        Optional<ObjectInfo> info = repository.head(name);
        if (info.isEmpty() || info.get().sizeBytes() != expected) {
          bad.add(i);
        } else if (run.options.deep() && !piecesIntact(repository, name, part, k)) {
          bad.add(i);
        }
      } catch (RepositoryException ex) {
        run.markUnreachable(slot, ex);
      }
    }
    if (bad.isEmpty()) {
      return;
    }
    if (run.options.dryRun()) {
      run.shards += bad.size();
      return;
    }
    while (!bad.isEmpty()) {
      Set<Integer> unreadable = new TreeSet<>();
      for (int i = 0; i < n; i++) {
        if (run.unreachable.containsKey(part.slots().get(i))) {
          unreadable.add(i);
        }
      }
      bad.removeAll(unreadable);
      if (bad.isEmpty()) {
        return;
      }
      try {
        ShardRebuilder.Result result =
            ShardRebuilder.rebuild(
                run.array, codec, run.context.config, part, bad, unreadable, run.throttle);
        run.shards += result.shardsRebuilt();
        run.read += result.bytesRead();
        run.written += result.bytesWritten();
        return;
      } catch (ShardRebuilder.TargetFailed ex) {
        // That repository failed, not the object: leave it out and rebuild the others.
        run.markUnreachable(ex.slot(), ex);
      } catch (StoreException ex) {
        run.failedRepair(version, ex);
        return;
      }
    }
  }

  /**
   * An inline version's records each hold a different shard, so a missing or damaged one is rebuilt
   * from k others rather than copied.
   */
  void healInline(IndexMerge.Entry e, VersionMeta version) {
    PartMeta part = version.parts().get(0);
    ErasureCodec codec = codecOf(version);
    if (codec == null) {
      return;
    }
    int k = codec.geometry().dataShards();
    Set<Integer> bad = new TreeSet<>();
    Set<Integer> unreadable = new TreeSet<>();
    for (int i = 0; i < part.slots().size(); i++) {
      int slot = part.slots().get(i);
      if (run.unreachable.containsKey(slot)) {
        unreadable.add(i);
      } else if (!e.slots().contains(slot)) {
        bad.add(i);
      } else if (run.options.deep()) {
        Optional<byte[]> stored;
        try {
          stored = RepositoryArray.getBytes(run.array.slot(slot), e.name());
        } catch (RepositoryException | UncheckedIOException ex) {
          run.markUnreachable(slot, ex);
          unreadable.add(i);
          continue;
        }
        long length = stored.map(b -> (long) b.length).orElse(0L);
        run.read += length;
        run.throttle.consume(length);
        if (stored.isEmpty()
            || Layout.decode(stored.get(), VersionMeta.class).isEmpty()
            || ShardRebuilder.inlineShard(stored.get(), part, k).isEmpty()) {
          bad.add(i);
        }
      }
    }
    if (bad.isEmpty()) {
      return;
    }
    if (run.options.dryRun()) {
      run.shards += bad.size();
      run.records += bad.size();
      return;
    }
    KeyStamps.Registration registration =
        run.registerCopies(e); // the records are the entry's copies
    try {
      rebuildInline(e, version, part, bad, unreadable);
    } finally {
      run.context.leave(registration, run.unreachable.isEmpty());
    }
  }

  void rebuildInline(
      IndexMerge.Entry e,
      VersionMeta version,
      PartMeta part,
      Set<Integer> bad,
      Set<Integer> unreadable) {
    while (!bad.isEmpty()) {
      try {
        ShardRebuilder.Result result =
            ShardRebuilder.rebuildInline(
                run.array, run.context.codecOf(version), version, e.name(), bad, unreadable);
        run.shards += result.shardsRebuilt();
        run.records += result.shardsRebuilt();
        run.read += result.bytesRead();
        run.written += result.bytesWritten();
        run.throttle.consume(result.bytesRead() + result.bytesWritten());
        return;
      } catch (ShardRebuilder.TargetFailed ex) {
        // That repository failed, not the object: leave it out and rebuild the others.
        run.markUnreachable(ex.slot(), ex);
        for (int i = 0; i < part.slots().size(); i++) {
          if (part.slots().get(i) == ex.slot()) {
            bad.remove(i);
            unreadable.add(i);
          }
        }
      } catch (StoreException ex) {
        run.failedRepair(version, ex);
        return;
      }
    }
  }

  /** Reads a whole shard object of a part of k data shards and checks every piece's CRC32C. */
  boolean piecesIntact(Repository repository, String name, PartMeta part, int k) {
    CRC32C crc = new CRC32C();
    byte[] piece = new byte[PieceCodec.framedLength(part.pieceBytes())];
    try (InputStream in = repository.get(name)) {
      for (long s = 0; s < part.stripes(k); s++) {
        int length = part.pieceBytes(k, s);
        PieceCodec.Check check = PieceCodec.read(in, piece, length, crc);
        if (check == PieceCodec.Check.SHORT) {
          return false;
        }
        run.read += PieceCodec.framedLength(length);
        run.throttle.consume(length);
        if (check == PieceCodec.Check.CORRUPT) {
          return false;
        }
      }
      return true;
    } catch (IOException | RepositoryException e) {
      return false;
    }
  }

  /**
   * The codec of the geometry {@code version} was written in, which its shards are checked and
   * rebuilt with (never the geometry new writes take); null, the failure listed, when its record
   * names none it can be read with.
   */
  private ErasureCodec codecOf(VersionMeta version) {
    try {
      return run.context.codecOf(version);
    } catch (StoreException ex) {
      run.failedRepair(version, ex);
      return null;
    }
  }

  static boolean isInline(VersionMeta version) {
    return version.parts().size() == 1 && version.parts().get(0).inline();
  }
}
