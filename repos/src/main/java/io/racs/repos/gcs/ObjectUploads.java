package io.racs.repos.gcs;

import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.BlobWriteSession;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobTargetOption;
import com.google.cloud.storage.Storage.BlobWriteOption;
import io.racs.repos.Bodies;
import io.racs.repos.ObjectInfo;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.ExecutionException;
import java.util.function.BiFunction;

/**
 * The uploads of a {@link GcsRepository}: one request for a body up to the block size, a resumable
 * upload for a larger one, each all-or-nothing (see {@link io.racs.repos.Repository#put}).
 *
 * <p>A body of unknown length is read into a buffer of one block and a byte: if it ends there, it
 * goes as one request; otherwise the buffer starts a resumable upload and the rest streams after
 * it. A resumable upload sends a chunk each time its own one-block buffer fills, and only its last
 * request, sent once the body has ended and passed its length check, finalises the object: a body
 * that fails or has the wrong length leaves a session that is never finalised (GCS drops it after a
 * week), so nothing becomes visible. With {@code ifAbsent} both carry {@code ifGenerationMatch=0}.
 *
 * <p>A single-request upload carries the body's MD5 and CRC32C, which GCS checks before storing it;
 * a resumable one carries none, as the client cannot send a checksum of a body it has not seen.
 */
final class ObjectUploads {
  private static final int COPY_BUFFER_BYTES = 64 << 10;

  private final String repository;
  private final Storage storage;
  private final int blockSizeBytes;

  ObjectUploads(String repository, Storage storage, int blockSizeBytes) {
    this.repository = repository;
    this.storage = storage;
    this.blockSizeBytes = blockSizeBytes;
  }

  /**
   * Uploads {@code body} as {@code object}; {@code describe} turns what the service stored into the
   * result.
   */
  ObjectInfo upload(
      BlobId object,
      String key,
      InputStream body,
      long lengthBytes,
      boolean ifAbsent,
      BiFunction<String, BlobInfo, ObjectInfo> describe) {
    InputStream in = Bodies.checked(body, lengthBytes, repository, key);
    // Shards are incompressible, and the type is for nobody but a person browsing the bucket.
    BlobInfo info = BlobInfo.newBuilder(object).setContentType("application/octet-stream").build();
    try {
      BlobInfo stored;
      if (lengthBytes > blockSizeBytes) {
        stored = resumable(info, ByteBuffer.allocate(0), in, ifAbsent);
      } else {
        // A known length reads to its end, which CheckedBody checks; an unknown one reads one
        // byte past the block, to tell whether it fits.
        int capacity = lengthBytes >= 0 ? (int) lengthBytes + 1 : blockSizeBytes + 1;
        byte[] head = new byte[capacity];
        int n = Bodies.readFully(in, head, 0, capacity);
        if (n <= blockSizeBytes) {
          stored = single(info, head, n, ifAbsent);
        } else {
          stored = resumable(info, ByteBuffer.wrap(head, 0, n), in, ifAbsent);
        }
      }
      return describe.apply(key, stored);
    } catch (IOException | RuntimeException e) {
      // An upload names no object that could be missing: its 404 is the bucket's.
      throw GcsErrors.translate(
          repository, e, ifAbsent ? "put if absent" : "put", key, Kind.UNAVAILABLE);
    }
  }

  private BlobInfo single(BlobInfo info, byte[] body, int length, boolean ifAbsent) {
    BlobTargetOption[] options =
        ifAbsent
            ? new BlobTargetOption[] {
              BlobTargetOption.doesNotExist(), BlobTargetOption.disableGzipContent()
            }
            : new BlobTargetOption[] {BlobTargetOption.disableGzipContent()};
    return storage.create(info, body, 0, length, options);
  }

  private BlobInfo resumable(BlobInfo info, ByteBuffer head, InputStream rest, boolean ifAbsent)
      throws IOException {
    BlobWriteOption[] options =
        ifAbsent ? new BlobWriteOption[] {BlobWriteOption.doesNotExist()} : new BlobWriteOption[0];
    BlobWriteSession session = storage.blobWriteSession(info, options);
    // Not closed on failure: closing is what finalises the object.
    WritableByteChannel channel = session.open();
    writeFully(channel, head);
    byte[] buffer = new byte[COPY_BUFFER_BYTES];
    for (int n; (n = rest.read(buffer)) >= 0; ) {
      writeFully(channel, ByteBuffer.wrap(buffer, 0, n));
    }
    channel.close();
    try {
      return session.getResult().get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RepositoryException(
          Kind.UNAVAILABLE, repository + ": interrupted while finishing an upload", e);
    }
  }

  private static void writeFully(WritableByteChannel channel, ByteBuffer bytes) throws IOException {
    while (bytes.hasRemaining()) {
      channel.write(bytes);
    }
  }
}
