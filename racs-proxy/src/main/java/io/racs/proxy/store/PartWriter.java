package io.racs.proxy.store;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.repos.ObjectInfo;
import io.racs.repos.Repository;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.zip.CRC32C;

/**
 * Streams one run of data (a single-PUT object or a multipart part) into k + m shard objects: reads
 * the body a stripe at a time, encodes parity, appends each piece with its CRC32C to the shard's
 * {@link ShardPipe}, and lets one virtual thread per repository stream its shard with {@link
 * Repository#put}. Memory stays at a few stripes whatever the size.
 *
 * <p>A repository that fails, or takes no data for the slow-shard timeout, is dropped; the write
 * goes on while a write quorum remains, and fails with {@code INSUFFICIENT_SHARDS} (deleting what
 * it wrote) when it does not.
 */
final class PartWriter {
  private static final int PIPE_PIECES = 2;

  /** Bytes read from the body at a time, and handed to MD5 as soon as they are in. */
  private static final int HASH_CHUNK = 128 * 1024;

  /** What was written: the part's record, and which slots hold its shards. */
  record Result(
      PartMeta part, List<Integer> writtenSlots, List<StoreException.ShardFailure> failures) {}

  private PartWriter() {}

  static Result write(
      RepositoryArray array,
      ErasureCodec codec,
      StoreConfig config,
      int partNumber,
      String dataId,
      List<Integer> slots,
      InputStream body,
      long lengthBytes) {
    int k = codec.geometry().dataShards();
    int n = codec.geometry().totalShards();
    int pieceBytes = config.pieceBytes();
    long timeoutNanos = config.slowShardTimeout().toNanos();
    PartMeta sizing =
        new PartMeta(
            partNumber, dataId, Math.max(0, lengthBytes), "", pieceBytes, slots, null, false);
    long shardLength = lengthBytes >= 0 ? sizing.shardObjectBytes(k) : -1;

    ShardPipe[] pipes = new ShardPipe[n];
    List<Future<ObjectInfo>> puts = new ArrayList<>();
    String[] dropped = new String[n];
    for (int i = 0; i < n; i++) {
      ShardPipe pipe = new ShardPipe(PIPE_PIECES, ArrayPool.PIECES::give);
      pipes[i] = pipe;
      Repository repository = array.slot(slots.get(i));
      String name = Layout.shard(dataId, i);
      puts.add(
          array
              .executor()
              .submit(
                  () -> {
                    try {
                      return repository.put(name, pipe, shardLength);
                    } catch (RuntimeException e) {
                      pipe.readerFailed();
                      throw e;
                    }
                  }));
    }

    BlockDigester md5 = new BlockDigester(array.executor(), k * pieceBytes);
    long total = 0;
    byte[] etag;
    try {
      while (true) {
        byte[] block = md5.take();
        int read = readHashing(body, block, md5);
        if (read == 0) {
          break; // the end, or an empty object: no stripes, empty shard objects
        }
        total += read;
        if (lengthBytes >= 0 && total > lengthBytes) {
          throw new StoreException(
              StoreException.Code.INCOMPLETE_BODY,
              "body longer than its declared length " + lengthBytes);
        }
        byte[][] stripe = encodeStripe(codec, block, read, ArrayPool.PIECES::take);
        for (int i = 0; i < n; i++) {
          if (dropped[i] != null) {
            ArrayPool.PIECES.give(stripe[i]); // never offered: still ours
            continue;
          }
          if (!pipes[i].offer(stripe[i], timeoutNanos)) {
            drop(pipes, dropped, i, "took no data for " + config.slowShardTimeout());
          }
        }
        checkQuorum(array, config, slots, dropped, pipes, puts);
        if (read < block.length) {
          break;
        }
      }
      if (lengthBytes >= 0 && total != lengthBytes) {
        throw new StoreException(
            StoreException.Code.INCOMPLETE_BODY,
            "body ended after " + total + " of " + lengthBytes + " bytes");
      }
      // The shards do not depend on the ETag: let the repositories finish while MD5 catches up.
      for (int i = 0; i < n; i++) {
        if (dropped[i] == null && !pipes[i].finish(timeoutNanos)) {
          drop(pipes, dropped, i, "took no data for " + config.slowShardTimeout());
        }
      }
      etag = md5.digest();
    } catch (StoreException e) {
      abortAll(pipes, dropped, e.getMessage());
      cleanUp(array, slots, dataId, puts);
      throw e;
    } catch (IOException | RuntimeException e) {
      abortAll(pipes, dropped, "body failed: " + e);
      cleanUp(array, slots, dataId, puts);
      throw new StoreException(StoreException.Code.INCOMPLETE_BODY, "request body failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abortAll(pipes, dropped, "interrupted");
      cleanUp(array, slots, dataId, puts);
      throw new StoreException(StoreException.Code.INCOMPLETE_BODY, "interrupted", e);
    } finally {
      md5.close();
    }

    List<Integer> written = new ArrayList<>();
    List<StoreException.ShardFailure> failures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int slot = slots.get(i);
      String cause = dropped[i];
      if (cause == null) {
        try {
          puts.get(i).get(timeoutNanos, TimeUnit.NANOSECONDS);
          written.add(slot);
          continue;
        } catch (ExecutionException e) {
          cause = String.valueOf(e.getCause());
        } catch (TimeoutException e) {
          puts.get(i).cancel(true);
          cause = "did not finish in " + config.slowShardTimeout();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          cause = "interrupted";
        }
      }
      failures.add(new StoreException.ShardFailure(slot, array.slot(slot).name(), cause));
    }
    if (written.size() < config.writeQuorum()) {
      cleanUp(array, slots, dataId, puts);
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          "stored "
              + written.size()
              + " of "
              + n
              + " shards, fewer than the write quorum "
              + config.writeQuorum(),
          failures,
          null);
    }
    PartMeta part =
        new PartMeta(
            partNumber,
            dataId,
            total,
            HexFormat.of().formatHex(etag),
            pieceBytes,
            slots,
            null,
            false);
    return new Result(part, written, failures);
  }

  /**
   * Encodes one stripe of {@code length} data bytes from {@code block}: n arrays, each a piece
   * followed by its CRC32C, ready to append to shard {@code i}. Each piece is built in the array
   * that is handed on, so the data is copied once out of the block and parity is encoded in place.
   * The arrays come from {@code allocate}, which may return used ones: every byte is written.
   */
  static byte[][] encodeStripe(
      ErasureCodec codec, byte[] block, int length, IntFunction<byte[]> allocate) {
    int k = codec.geometry().dataShards();
    int n = codec.geometry().totalShards();
    int piece = (length + k - 1) / k;
    byte[][] stripe = new byte[n][];
    for (int i = 0; i < n; i++) {
      stripe[i] = allocate.apply(piece + Layout.CRC_BYTES);
    }
    for (int i = 0; i < k; i++) {
      int from = i * piece;
      int len = Math.max(0, Math.min(piece, length - from));
      if (len > 0) {
        System.arraycopy(block, from, stripe[i], 0, len);
      }
      if (len < piece) {
        Arrays.fill(stripe[i], len, piece, (byte) 0); // the short stripe's padding
      }
    }
    codec.encodeParity(stripe, 0, piece);
    CRC32C crc = new CRC32C();
    for (byte[] chunk : stripe) {
      crc.update(chunk, 0, piece);
      ShardRebuilder.writeInt(chunk, piece, (int) crc.getValue());
      crc.reset();
    }
    return stripe;
  }

  private static void checkQuorum(
      RepositoryArray array,
      StoreConfig config,
      List<Integer> slots,
      String[] dropped,
      ShardPipe[] pipes,
      List<Future<ObjectInfo>> puts) {
    int alive = 0;
    List<StoreException.ShardFailure> failures = new ArrayList<>();
    for (int i = 0; i < dropped.length; i++) {
      if (dropped[i] == null && puts.get(i).isDone() && !succeeded(puts.get(i))) {
        dropped[i] = failureOf(puts.get(i));
        pipes[i].abort(dropped[i]);
      }
      if (dropped[i] == null) {
        alive++;
      } else {
        failures.add(
            new StoreException.ShardFailure(
                slots.get(i), array.slot(slots.get(i)).name(), dropped[i]));
      }
    }
    if (alive < config.writeQuorum()) {
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          alive
              + " of "
              + dropped.length
              + " repositories still writing, fewer than the write quorum "
              + config.writeQuorum(),
          failures,
          null);
    }
  }

  private static boolean succeeded(Future<?> future) {
    return future.state() == Future.State.SUCCESS;
  }

  private static String failureOf(Future<?> future) {
    return future.state() == Future.State.FAILED
        ? String.valueOf(future.exceptionNow())
        : "cancelled";
  }

  private static void drop(ShardPipe[] pipes, String[] dropped, int i, String reason) {
    dropped[i] = reason;
    pipes[i].abort(reason);
  }

  private static void abortAll(ShardPipe[] pipes, String[] dropped, String reason) {
    for (int i = 0; i < pipes.length; i++) {
      if (dropped[i] == null) {
        dropped[i] = reason;
      }
      pipes[i].abort(reason);
    }
  }

  /** Waits for the puts to end, then deletes whatever shard objects they left. */
  static void cleanUp(
      RepositoryArray array, List<Integer> slots, String dataId, List<Future<ObjectInfo>> puts) {
    for (Future<ObjectInfo> put : puts) {
      try {
        put.get(30, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        // Failed or stuck: nothing, or a leftover heal collects.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    deleteShards(array, slots, dataId);
  }

  /**
   * Deletes every shard object of {@code dataId}, best effort and without waiting for the deletes
   * to be durable: these are garbage (superseded, abandoned or replaced data), and shards that come
   * back after a crash belong to a version that is superseded or never committed, or to a part no
   * upload lists, all of which heal collects.
   */
  static void deleteShards(RepositoryArray array, List<Integer> slots, String dataId) {
    array.fanOut(
        slots,
        (slot, repository) -> {
          for (int i = 0; i < slots.size(); i++) {
            if (slots.get(i) == slot) {
              repository.discard(Layout.shard(dataId, i));
            }
          }
          return null;
        });
  }

  /**
   * Fills {@code block} from {@code in} (less only at the end of the body), handing each range to
   * {@code md5} as it arrives so that hashing runs alongside receiving, then releases the block.
   */
  private static int readHashing(InputStream in, byte[] block, BlockDigester md5)
      throws IOException, InterruptedException {
    int total = 0;
    int hashed = 0;
    try {
      while (total < block.length) {
        int n = in.read(block, total, Math.min(block.length - total, HASH_CHUNK));
        if (n < 0) {
          break;
        }
        total += n;
        if (total - hashed >= HASH_CHUNK) {
          md5.update(block, hashed, total);
          hashed = total;
        }
      }
      md5.update(block, hashed, total);
    } finally {
      md5.release(block);
    }
    return total;
  }

  static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
