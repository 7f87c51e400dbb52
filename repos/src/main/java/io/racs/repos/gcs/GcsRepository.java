package io.racs.repos.gcs;

import com.google.api.gax.paging.Page;
import com.google.cloud.ReadChannel;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.Storage.BlobField;
import com.google.cloud.storage.Storage.BlobGetOption;
import com.google.cloud.storage.Storage.BlobListOption;
import com.google.cloud.storage.Storage.BucketField;
import com.google.cloud.storage.Storage.BucketGetOption;
import io.racs.repos.Keys;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A repository in one Google Cloud Storage bucket (optionally under a key prefix), on GCS or
 * fake-gcs-server, through {@code google-cloud-storage} over the JSON API on HTTP.
 *
 * <p><b>Names.</b> Keys are stored under {@link ObjectNames}: the prefix, verbatim, then the key's
 * safe name, which lists in key order. A key whose name exceeds GCS's 1024 bytes is refused up
 * front (see {@link #accepts(String)}).
 *
 * <p><b>Uploads</b> ({@link ObjectUploads}): a body up to the block size goes as one request; a
 * larger one, or one of unknown length that turns out larger, as a resumable upload that is
 * finalised only once the whole body has been read and checked, so nothing is visible before. An
 * upload holds up to two blocks in memory. {@link #putIfAbsent} is either with {@code
 * ifGenerationMatch=0}.
 *
 * <p><b>Reads</b> ask for the object's metadata, then read the clipped range of the generation it
 * names, sending that request before {@link #get} returns: an object overwritten while a stream is
 * open breaks the stream off with {@code UNAVAILABLE} instead of mixing two bodies.
 *
 * <p><b>Missing bucket.</b> A read, head or delete of a missing object in a missing bucket gets the
 * same 404 as one in a bucket that exists (fake-gcs-server does not even say which in its message),
 * so on a 404 those ask about the bucket, once, before answering "no such object"; uploads and
 * listings name no object, so their 404 is the bucket's. With {@code create} set, the first request
 * of the repository creates the bucket if it is missing (see {@link GcsOptions#create()}); a bucket
 * that goes missing later is {@code UNAVAILABLE}, never re-created empty.
 *
 * <p><b>Errors</b> are translated once, in {@link GcsErrors}: 404 is {@code NOT_FOUND} for an
 * object, {@code UNAVAILABLE} for the bucket; 401/403 {@code ACCESS_DENIED} (a 403 that is rate
 * limiting {@code UNAVAILABLE}); 412 {@code PRECONDITION_FAILED}; 429, 5xx and unreachable hosts
 * {@code UNAVAILABLE}; 408 and socket timeouts {@code TIMEOUT}. The client retries transient
 * failures first, {@code maxAttempts} times with exponential backoff, for requests that are safe to
 * repeat (reads, listings, and conditional uploads; an unconditional upload is not repeated).
 */
public final class GcsRepository implements Repository {
  /** The buffer of an open read. */
  private static final int READ_CHUNK_BYTES = 2 << 20;

  /** The first read of {@link #get}, which sends the request. */
  private static final int FIRST_READ_BYTES = 64 << 10;

  /**
   * Attempts at opening a read when the object changes between its metadata and its first read. GCS
   * takes about one write per second to one object name, so there a second attempt is rare; an
   * emulator takes writes as fast as they come, and the contract's test of concurrent writers
   * overwrites one key between most pairs of requests.
   */
  private static final int OPEN_ATTEMPTS = 10;

  private static final BlobField[] INFO_FIELDS = {
    BlobField.NAME, BlobField.SIZE, BlobField.ETAG, BlobField.UPDATED, BlobField.GENERATION
  };

  private final String name;
  private final GcsOptions options;
  private final ObjectNames names;
  private final Object clientLock = new Object();
  private volatile Storage storage;
  private volatile boolean closed;

  private GcsRepository(String name, GcsOptions options) {
    this.name = Objects.requireNonNull(name, "name");
    this.options = Objects.requireNonNull(options, "options");
    this.names = new ObjectNames(name, options.keyPrefix());
  }

  /**
   * A repository called {@code name} with {@code options}; no I/O (the client is built, and its
   * credentials read, on the first request).
   */
  public static GcsRepository create(String name, GcsOptions options) {
    return new GcsRepository(name, options);
  }

  @Override
  public String name() {
    return name;
  }

  /** The options this repository was built with. */
  public GcsOptions options() {
    return options;
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> description = new LinkedHashMap<>();
    description.put("type", "gcs");
    String endpoint =
        options.endpoint().map(URI::toString).orElse("https://storage.googleapis.com");
    description.put(
        "location",
        endpoint.replaceAll("/+$", "") + "/" + options.bucket() + "/" + options.keyPrefix());
    description.put("credentials", options.credentials().toString());
    description.put("blockSizeBytes", Integer.toString(options.blockSizeBytes()));
    return description;
  }

  @Override
  public boolean accepts(String key) {
    return names.accepts(key);
  }

  // ---- put ---------------------------------------------------------------------------------

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    return upload(key, body, lengthBytes, false);
  }

  /**
   * Stores {@code body} under {@code key} only if no object is there: "create if absent", as an
   * upload with {@code ifGenerationMatch=0}. Otherwise like {@link #put}.
   *
   * @throws RepositoryException {@code PRECONDITION_FAILED} when an object exists under {@code
   *     key}, which is then unchanged
   */
  public ObjectInfo putIfAbsent(String key, InputStream body, long lengthBytes) {
    return upload(key, body, lengthBytes, true);
  }

  private ObjectInfo upload(String key, InputStream body, long lengthBytes, boolean ifAbsent) {
    checkOpen();
    String object = names.of(key);
    Keys.checkLength(lengthBytes);
    ObjectUploads uploads = new ObjectUploads(name, storage(), options.blockSizeBytes());
    return uploads.upload(
        BlobId.of(options.bucket(), object), key, body, lengthBytes, ifAbsent, GcsRepository::info);
  }

  // ---- get and head ------------------------------------------------------------------------

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    checkOpen();
    String object = names.of(key);
    Keys.checkRange(offset, lengthBytes);
    for (int attempt = 1; ; attempt++) {
      Blob blob = metadata(object, key, "get").orElseThrow(() -> notFound(key));
      ObjectInfo info = info(key, blob);
      long size = info.sizeBytes();
      if (lengthBytes == 0 || offset >= size) {
        return new ObjectStream(info, InputStream.nullInputStream());
      }
      long count = lengthBytes < 0 ? size - offset : Math.min(lengthBytes, size - offset);
      ReadChannel channel =
          storage().reader(BlobId.of(options.bucket(), object, blob.getGeneration()));
      try {
        channel.setChunkSize((int) Math.min(READ_CHUNK_BYTES, count));
        channel.seek(offset);
        channel.limit(offset + count);
        // The first read sends the request, so that the stream reads the object as it was when
        // this returns, and an object changed since its metadata is found here, where it can be
        // read again, rather than in the caller's first read.
        ByteBuffer first = ByteBuffer.allocate((int) Math.min(FIRST_READ_BYTES, count));
        if (channel.read(first) < 0) {
          throw new IOException("the object ended before its first byte");
        }
        first.flip();
        return new ObjectStream(info, new ObjectReadStream(name, key, first, channel));
      } catch (IOException | RuntimeException e) {
        closeQuietly(channel);
        Kind kind = GcsErrors.kindOf(e, Kind.NOT_FOUND);
        // Overwritten (that generation is gone) or deleted since the metadata: read what is there
        // now.
        boolean changed = kind == Kind.NOT_FOUND || kind == Kind.PRECONDITION_FAILED;
        if (!changed || attempt == OPEN_ATTEMPTS) {
          throw ObjectReadStream.changedOrTranslated(name, e, "get", key);
        }
      }
    }
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    checkOpen();
    String object = names.of(key);
    return metadata(object, key, "head").map(blob -> info(key, blob));
  }

  /** The object's metadata, or empty when it does not exist in a bucket that does. */
  private Optional<Blob> metadata(String object, String key, String operation) {
    Blob blob;
    try {
      blob = storage().get(BlobId.of(options.bucket(), object), BlobGetOption.fields(INFO_FIELDS));
    } catch (RuntimeException e) {
      throw translate(e, operation, key, Kind.NOT_FOUND);
    }
    if (blob == null) {
      // The client answers null for any 404, a missing bucket's too: ask about the bucket (only on
      // a miss), since a missing bucket must not read as a missing object.
      probe();
    }
    return Optional.ofNullable(blob);
  }

  // ---- delete and list ---------------------------------------------------------------------

  @Override
  public void delete(String key) {
    checkOpen();
    String object = names.of(key);
    boolean deleted;
    try {
      deleted = storage().delete(BlobId.of(options.bucket(), object));
    } catch (RuntimeException e) {
      throw translate(e, "delete", key, Kind.UNAVAILABLE);
    }
    if (!deleted) {
      probe(); // Deleting a missing object succeeds; in a missing bucket it must not.
    }
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    checkOpen();
    Keys.checkBound(prefix, "prefix");
    Keys.checkBound(startAfter, "startAfter");
    Keys.checkMaxKeys(maxKeys);
    String storedPrefix = names.ofPrefix(prefix);
    List<BlobListOption> request = new ArrayList<>();
    request.add(BlobListOption.prefix(storedPrefix));
    request.add(BlobListOption.fields(INFO_FIELDS));
    // One more than asked, to know whether the page is the last, and one more for the start key.
    request.add(BlobListOption.pageSize(Math.min(maxKeys + 2, MAX_LIST_PAGE)));
    String storedStart = null;
    if (!startAfter.isEmpty()) {
      // startOffset is inclusive (names >= it), while startAfter is strictly after: the object
      // named exactly storedStart, if any, comes back first and is skipped below. The safe name
      // keeps key order, so every other name the service returns sorts after the bound.
      storedStart = names.unchecked(startAfter);
      request.add(BlobListOption.startOffset(storedStart));
    }
    List<ObjectInfo> found = new ArrayList<>();
    try {
      Page<Blob> page = storage().list(options.bucket(), request.toArray(BlobListOption[]::new));
      for (Blob blob : page.iterateAll()) {
        if (blob.getName().equals(storedStart)) {
          continue;
        }
        Optional<String> key = names.keyOf(blob.getName());
        if (key.isEmpty()) {
          continue; // Not written by a repository with this prefix.
        }
        if (found.size() == maxKeys) {
          return new ListPage(found, true);
        }
        found.add(info(key.get(), blob));
      }
    } catch (RuntimeException e) {
      // A listing names no object: its 404 is the bucket's.
      throw translate(e, "list", prefix, Kind.UNAVAILABLE);
    }
    return new ListPage(found, false);
  }

  // ---- probe and close ---------------------------------------------------------------------

  @Override
  public void probe() {
    checkOpen();
    if (!bucketExists(storage())) {
      throw missingBucket();
    }
  }

  private boolean bucketExists(Storage client) {
    try {
      return client.get(options.bucket(), BucketGetOption.fields(BucketField.NAME)) != null;
    } catch (RuntimeException e) {
      throw translate(e, "probe", "", Kind.UNAVAILABLE);
    }
  }

  private RepositoryException missingBucket() {
    return new RepositoryException(
        Kind.UNAVAILABLE,
        name
            + ": bucket "
            + options.bucket()
            + " does not exist (deleted, or never created"
            + (options.create() ? ")" : "; create: true creates it at start-up)"));
  }

  @Override
  public void close() {
    closed = true;
    Storage client = storage;
    if (client != null) {
      try {
        client.close();
      } catch (Exception e) {
        // The HTTP transport holds no connections that outlive the JVM's own pool.
      }
    }
  }

  // ---- helpers -----------------------------------------------------------------------------

  /**
   * The client, built on first use: reading credentials is I/O, which building a repository must
   * not do. With {@code create} set, the bucket is created here if it is missing, once.
   */
  private Storage storage() {
    Storage client = storage;
    if (client != null) {
      return client;
    }
    synchronized (clientLock) {
      if (storage == null) {
        client = GcsClients.create(name, options);
        if (options.create() && !bucketExists(client)) {
          createBucket(client);
        }
        storage = client;
      }
      return storage;
    }
  }

  private void createBucket(Storage client) {
    try {
      client.create(BucketInfo.of(options.bucket()));
    } catch (RuntimeException e) {
      // 409: created meanwhile, by another proxy starting beside this one.
      if (GcsErrors.status(e) != 409) {
        throw translate(e, "create bucket " + options.bucket(), "", Kind.UNAVAILABLE);
      }
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(name + ": closed");
    }
  }

  private static ObjectInfo info(String key, BlobInfo blob) {
    Long size = blob.getSize();
    String etag = blob.getEtag();
    OffsetDateTime updated = blob.getUpdateTimeOffsetDateTime();
    return new ObjectInfo(
        key,
        size == null ? 0 : size,
        etag == null || etag.isEmpty() ? Optional.empty() : Optional.of(etag),
        updated == null ? Instant.EPOCH : updated.toInstant());
  }

  private static void closeQuietly(ReadChannel channel) {
    try {
      channel.close();
    } catch (RuntimeException e) {
      // Already failed; the failure that matters is the one being reported.
    }
  }

  private RepositoryException notFound(String key) {
    return new RepositoryException(Kind.NOT_FOUND, name + ": no object " + Keys.abbreviate(key));
  }

  private RepositoryException translate(Throwable e, String operation, String key, Kind notFound) {
    return GcsErrors.translate(name, e, operation, key, notFound);
  }
}
