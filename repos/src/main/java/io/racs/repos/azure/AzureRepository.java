package io.racs.repos.azure;

import com.azure.core.http.rest.Response;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobItemProperties;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.BlockBlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.models.ParallelTransferOptions;
import com.azure.storage.blob.options.BlobInputStreamOptions;
import com.azure.storage.blob.options.BlobParallelUploadOptions;
import io.racs.repos.Bodies;
import io.racs.repos.Keys;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.InputStream;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A repository in one Azure Blob Storage container (optionally under a key prefix), on Azure or
 * Azurite, through {@code azure-storage-blob} over the JDK's HttpClient.
 *
 * <p><b>Names.</b> Keys are stored under {@link BlobNames}: the prefix, verbatim, then the key's
 * safe name, adjusted so that blob names list in key order whether the service compares UTF-8 or
 * UTF-16. A key whose blob name exceeds Azure's 1024 characters or 254 segments is refused up front
 * (see {@link #accepts(String)}).
 *
 * <p><b>Uploads.</b> A body up to the block size goes as one Put Blob; a larger one, or one of
 * unknown length, as staged blocks and one Put Block List, so that nothing is visible until the
 * whole body is. An upload holds one block in memory. {@link #putIfAbsent} is Put Blob (or Put
 * Block List) with {@code If-None-Match: *}.
 *
 * <p><b>Reads</b> ask for the blob's properties, then read the clipped range in blocks, each
 * conditional on the ETag the properties gave: an overwrite while a stream is open breaks it off
 * with {@code UNAVAILABLE} instead of mixing two bodies.
 *
 * <p><b>The container</b> must exist, or every call fails {@code UNAVAILABLE} naming it; with
 * {@link AzureOptions#createContainer()} the repository's first call creates it when missing (see
 * {@link AzureContainer}).
 *
 * <p><b>Errors</b> are translated once, in {@link AzureErrors}: 404 is {@code NOT_FOUND} (but
 * {@code ContainerNotFound} is {@code UNAVAILABLE}: the storage is missing, not the object),
 * 401/403 {@code ACCESS_DENIED}, 412 and 409 {@code BlobAlreadyExists} {@code PRECONDITION_FAILED},
 * 503 {@code ServerBusy} (throttling), other 5xx, 429 and unreachable hosts {@code UNAVAILABLE},
 * timeouts {@code TIMEOUT}. The SDK retries transient failures first, {@code maxTries} times with
 * exponential backoff.
 */
public final class AzureRepository implements Repository {
  /** The block size of reads: the one buffer an open stream holds. */
  private static final int READ_BLOCK_BYTES = 4 << 20;

  /**
   * Attempts at opening a read when the blob changes between its properties and its first block.
   */
  private static final int OPEN_ATTEMPTS = 3;

  private final String name;
  private final AzureOptions options;
  private final BlobContainerClient container;
  private final BlobNames names;
  private final AzureContainer storage;
  private volatile boolean closed;

  private AzureRepository(String name, AzureOptions options) {
    this.name = Objects.requireNonNull(name, "name");
    this.options = Objects.requireNonNull(options, "options");
    this.container = AzureClients.create(options);
    this.names = new BlobNames(name, options.keyPrefix());
    this.storage = new AzureContainer(name, options, container);
  }

  /** A repository called {@code name} with {@code options}; builds the client, no I/O. */
  public static AzureRepository create(String name, AzureOptions options) {
    return new AzureRepository(name, options);
  }

  @Override
  public String name() {
    return name;
  }

  /** The options this repository was built with. */
  public AzureOptions options() {
    return options;
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> description = new LinkedHashMap<>();
    description.put("type", "azure");
    // The client's URL: the endpoint as configured or taken from the connection string, without
    // the SAS token's query.
    String account = container.getAccountUrl();
    int query = account.indexOf('?');
    description.put(
        "location",
        (query < 0 ? account : account.substring(0, query))
            + "/"
            + options.container()
            + "/"
            + options.keyPrefix());
    description.put("credentials", options.credentials().toString());
    description.put("serviceVersion", container.getServiceVersion().getVersion());
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
   * Stores {@code body} under {@code key} only if no object is there: "create if absent", as Put
   * Blob with {@code If-None-Match: *}. Otherwise like {@link #put}.
   *
   * @throws RepositoryException {@code PRECONDITION_FAILED} when an object exists under {@code
   *     key}, which is then unchanged
   */
  public ObjectInfo putIfAbsent(String key, InputStream body, long lengthBytes) {
    return upload(key, body, lengthBytes, true);
  }

  private ObjectInfo upload(String key, InputStream body, long lengthBytes, boolean ifAbsent) {
    ready();
    String blob = names.of(key);
    Keys.checkLength(lengthBytes);
    CountingBody counted = new CountingBody(Bodies.checked(body, lengthBytes, name, key));
    long block = options.blockSizeBytes();
    BlobParallelUploadOptions upload =
        new BlobParallelUploadOptions(counted)
            .setParallelTransferOptions(
                new ParallelTransferOptions()
                    .setBlockSizeLong(block)
                    .setMaxSingleUploadSizeLong(block)
                    .setMaxConcurrency(1));
    if (ifAbsent) {
      upload.setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*"));
    }
    try {
      Response<BlockBlobItem> response =
          container.getBlobClient(blob).uploadWithResponse(upload, null, Context.NONE);
      BlockBlobItem item = response.getValue();
      return new ObjectInfo(
          key, counted.count(), etag(item.getETag()), lastModified(item.getLastModified()));
    } catch (RuntimeException e) {
      throw translate(e, ifAbsent ? "put if absent" : "put", key);
    }
  }

  // ---- get and head ------------------------------------------------------------------------

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    ready();
    String blob = names.of(key);
    Keys.checkRange(offset, lengthBytes);
    BlobClient client = container.getBlobClient(blob);
    for (int attempt = 1; ; attempt++) {
      BlobProperties properties = properties(client, key, "get").orElseThrow(() -> notFound(key));
      ObjectInfo info = info(key, properties);
      long size = properties.getBlobSize();
      if (lengthBytes == 0 || offset >= size) {
        return new ObjectStream(info, InputStream.nullInputStream());
      }
      long count = lengthBytes < 0 ? size - offset : Math.min(lengthBytes, size - offset);
      try {
        InputStream in =
            client.openInputStream(
                new BlobInputStreamOptions()
                    .setRange(new BlobRange(offset, count))
                    .setBlockSize((int) Math.min(READ_BLOCK_BYTES, count))
                    .setRequestConditions(
                        new BlobRequestConditions().setIfMatch(properties.getETag())));
        return new ObjectStream(info, new BlobStream(name, key, in));
      } catch (RuntimeException e) {
        RepositoryException failure = translate(e, "get", key);
        // Overwritten or deleted between the properties and the open: read what is there now.
        boolean changed =
            failure.kind() == Kind.PRECONDITION_FAILED || failure.kind() == Kind.NOT_FOUND;
        if (!changed || attempt == OPEN_ATTEMPTS) {
          throw failure;
        }
      }
    }
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    ready();
    String blob = names.of(key);
    return properties(container.getBlobClient(blob), key, "head").map(p -> info(key, p));
  }

  /** The blob's properties, or empty when it does not exist in a container that does. */
  private Optional<BlobProperties> properties(BlobClient client, String key, String operation) {
    try {
      return Optional.of(client.getProperties());
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404 && !AzureErrors.isMissingContainer(e)) {
        // A HEAD answer has no body, and an emulator need not send the error code header: ask
        // about the container (only on a miss), since a missing container must not read as a
        // missing object.
        probe();
        return Optional.empty();
      }
      throw translate(e, operation, key);
    } catch (RuntimeException e) {
      throw translate(e, operation, key);
    }
  }

  // ---- delete and list ---------------------------------------------------------------------

  @Override
  public void delete(String key) {
    ready();
    String blob = names.of(key);
    try {
      container.getBlobClient(blob).deleteWithResponse(null, null, null, Context.NONE);
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404 && !AzureErrors.isMissingContainer(e)) {
        probe(); // Deleting a missing blob succeeds; in a missing container it must not.
        return;
      }
      throw translate(e, "delete", key);
    } catch (RuntimeException e) {
      throw translate(e, "delete", key);
    }
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    ready();
    Keys.checkBound(prefix, "prefix");
    Keys.checkBound(startAfter, "startAfter");
    Keys.checkMaxKeys(maxKeys);
    String storedPrefix = names.ofPrefix(prefix);
    String storedStart = startAfter.isEmpty() ? null : names.unchecked(startAfter);
    // List Blobs has no start-after. The service's startFrom parameter would serve (it is
    // inclusive), but Azurite does not support it, so this lists from the start of the prefix and
    // skips every name up to the bound: a page deep into a large prefix costs the listing of
    // everything before it. Blob names list in the same order under UTF-8 and UTF-16 comparison
    // (see BlobNames), so a plain String comparison against the bound is exact.
    ListBlobsOptions request =
        new ListBlobsOptions().setPrefix(storedPrefix).setMaxResultsPerPage(MAX_LIST_PAGE);
    List<ObjectInfo> found = new ArrayList<>();
    try {
      for (BlobItem item : container.listBlobs(request, null)) {
        if (storedStart != null && item.getName().compareTo(storedStart) <= 0) {
          continue;
        }
        Optional<String> key = names.keyOf(item.getName());
        if (key.isEmpty()) {
          continue;
        }
        if (found.size() == maxKeys) {
          return new ListPage(found, true);
        }
        BlobItemProperties p = item.getProperties();
        found.add(
            new ObjectInfo(
                key.get(),
                p.getContentLength() == null ? 0 : p.getContentLength(),
                etag(p.getETag()),
                lastModified(p.getLastModified())));
      }
    } catch (RuntimeException e) {
      throw translate(e, "list", prefix);
    }
    return new ListPage(found, false);
  }

  // ---- probe and close ---------------------------------------------------------------------

  @Override
  public void probe() {
    ready();
    storage.probe();
  }

  @Override
  public void close() {
    // The SDK's clients hold nothing to release: the JDK HttpClient's pool goes with it.
    closed = true;
  }

  // ---- helpers -----------------------------------------------------------------------------

  /** Before every call: fails once closed, and creates the container on the first if asked. */
  private void ready() {
    if (closed) {
      throw new IllegalStateException(name + ": closed");
    }
    storage.ensure();
  }

  private static ObjectInfo info(String key, BlobProperties p) {
    return new ObjectInfo(
        key, p.getBlobSize(), etag(p.getETag()), lastModified(p.getLastModified()));
  }

  private static Optional<String> etag(String etag) {
    if (etag == null || etag.isEmpty()) {
      return Optional.empty();
    }
    boolean quoted = etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"");
    return Optional.of(quoted ? etag.substring(1, etag.length() - 1) : etag);
  }

  private static Instant lastModified(OffsetDateTime time) {
    return time == null ? Instant.EPOCH : time.toInstant();
  }

  private RepositoryException notFound(String key) {
    return new RepositoryException(Kind.NOT_FOUND, name + ": no object " + Keys.abbreviate(key));
  }

  private RepositoryException translate(Throwable e, String operation, String key) {
    // The SDK may wrap its answer on the way out of an upload's pipeline.
    BlobStorageException answer = AzureErrors.storageCause(e);
    if (answer != null && AzureErrors.isMissingContainer(answer)) {
      return storage.missing(e);
    }
    return AzureErrors.translate(name, e, operation, key);
  }
}
