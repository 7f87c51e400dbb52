package io.racs.proxy.store.bucket;

import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.ArrayHealth;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.object.ObjectTags;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The configuration documents of buckets (CORS rules, tags, lifecycle rules, default encryption,
 * the bucket policy), one {@link Kind} each, as records beside the bucket records: each put or
 * delete writes a new record on a write quorum through the {@link QuorumWriter}, and the newest
 * record of a bucket and kind, listed on a read quorum, decides. A record names the creation time
 * of the bucket it was written for, so a bucket deleted and created again does not inherit its
 * predecessor's configuration.
 *
 * <p>A document is opaque to the store: the S3 layer validates and renders it before it is stored.
 * Thread-safe. {@link #get} lists the records each time, so a change made through another proxy is
 * seen at once; {@link #getRecently} (what every write asks of the default encryption) may answer
 * from a cache of {@link BucketCatalog#CACHE_NANOS}, which is dropped when this proxy changes the
 * document and, with coordination, as soon as it hears of a change through another proxy ({@link
 * #forget}); it is not used while it could not hear of one. A document in use is read again in the
 * background once it is three quarters that old ({@link RefreshAhead}), so that no write waits for
 * it.
 */
public final class BucketDocuments {
  /** The kinds of bucket documents, each under its own prefix of records. */
  public enum Kind {
    CORS("c/", "CORS", "configuration", "a CORS configuration", false),
    TAGGING("g/", "tags", "tagging", "a tag set", false),
    LIFECYCLE("l/", "lifecycle", "configuration", "a lifecycle configuration", false),
    /**
     * Every write asks for it, so proxies cache it: a change is coordinated as a bucket change is
     * (see {@link #set}).
     */
    ENCRYPTION("e/", "default encryption", "configuration", "a document", true),
    /**
     * That a tag set was once set on some object of the bucket after it was written (its presence
     * is what counts; it is never removed while the bucket lives): see {@link ObjectTags}.
     */
    RETAGGED("r/", "object tags set after a write", "announcement", "an announcement", false),
    /**
     * The object lock configuration (the default retention): every write in a bucket with object
     * lock asks for it, so proxies cache it, as they do {@link #ENCRYPTION}.
     */
    OBJECT_LOCK("o/", "object lock", "configuration", "a document", true),
    /**
     * The bucket policy (issue #40): every request is judged by it, so proxies cache it, as they do
     * {@link #ENCRYPTION}.
     */
    POLICY("p/", "bucket policy", "policy", "a policy", true);

    private final String prefix;
    private final String label;
    // How a missing document is named when a put is refused: the argument, and what it should be.
    private final String argument;
    private final String expected;
    private final boolean cached;

    Kind(String prefix, String label, String argument, String expected, boolean cached) {
      this.prefix = prefix;
      this.label = label;
      this.argument = argument;
      this.expected = expected;
      this.cached = cached;
    }

    /** The prefix of this kind's records on every repository. */
    public String prefix() {
      return prefix;
    }

    /** A record of this kind: the newest one of a bucket decides. */
    String record(String bucket, String versionId) {
      return prefix + bucket + Layout.SEPARATOR + versionId;
    }
  }

  /**
   * A document record; {@code configuration} is {@code null} once the document was deleted. (The
   * JSON field names are those of the CORS records written before other kinds existed.)
   */
  record DocumentRecord(String bucket, long bucketCreatedMillis, String configuration) {}

  private final StoreContext context;
  private final QuorumWriter writer;
  private final BucketCatalog buckets;
  private final ArrayHealth health;

  /** A document as read, kept until {@code untilNanos} ({@link StoreConfig#ticker()}). */
  private record Cached(Optional<String> document, long untilNanos) {}

  // By kind and bucket ("<prefix><bucket>").
  private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();
  // Counts the changes heard of: a document read before one is not cached after it.
  private final AtomicLong forgets = new AtomicLong();
  private final RefreshAhead refresh;

  public BucketDocuments(
      StoreContext context,
      QuorumWriter writer,
      BucketCatalog buckets,
      ArrayHealth health,
      Executor background) {
    this.context = context;
    this.writer = writer;
    this.buckets = buckets;
    this.health = health;
    this.refresh = new RefreshAhead(background);
  }

  /** Whether a background re-read of some document runs (for tests). */
  public boolean refreshing() {
    return refresh.running();
  }

  /**
   * What the store's API does to set a document: refuses an empty one, and writes it as {@link
   * #change} does.
   *
   * @throws StoreException {@code INVALID_ARGUMENT} when {@code document} is null or empty
   */
  public void set(Kind kind, String bucket, String document) {
    if (document == null || document.isEmpty()) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT,
          kind.argument + ": " + document + " (expected: " + kind.expected + ")");
    }
    change(kind, bucket, document);
  }

  /**
   * Sets (with {@code null}: removes) the document of {@code kind} of an existing bucket, telling
   * {@link ArrayHealth} of full disks. A document that proxies cache is written as a bucket change
   * ({@link BucketCatalog#change}), as a bucket delete is.
   */
  public void change(Kind kind, String bucket, String document) {
    if (!kind.cached) {
      health.writing(() -> put(kind, bucket, document));
      return;
    }
    buckets.change(bucket, () -> health.writing(() -> put(kind, bucket, document)));
  }

  /** Sets (with {@code null}: removes) the document of {@code kind} of an existing bucket. */
  public void put(Kind kind, String bucket, String document) {
    BucketCatalog.BucketRecord created = buckets.current(bucket);
    try {
      writer.write(
          kind.record(bucket, context.ids.next()),
          Layout.encode(new DocumentRecord(bucket, created.createdMillis(), document)),
          (document == null ? "delete " : "put ") + kind.label + " of " + bucket);
    } finally {
      forget(bucket); // a failed write may still have reached some repositories
    }
  }

  /** Drops what is cached of {@code bucket}'s documents: they changed, here or elsewhere. */
  public void forget(String bucket) {
    forgets.incrementAndGet();
    for (Kind kind : Kind.values()) {
      cache.remove(kind.prefix() + bucket);
    }
  }

  /** Drops every cached document. */
  public void forgetAll() {
    forgets.incrementAndGet();
    cache.clear();
  }

  /**
   * {@link #get} as this store read it within {@link BucketCatalog#CACHE_NANOS}, while the cache is
   * trusted (see the class comment); read anew otherwise.
   */
  public Optional<String> getRecently(Kind kind, String bucket) {
    String at = kind.prefix() + bucket;
    Cached cached = cache.get(at);
    long now = context.config.ticker().getAsLong();
    if (cached != null && cached.untilNanos() - now > 0 && buckets.coordinator().cacheTrusted()) {
      refresh.ifDue(at, cached.untilNanos(), now, () -> read(kind, bucket));
      return cached.document();
    }
    return read(kind, bucket);
  }

  /**
   * {@link #get}, cached for {@link BucketCatalog#CACHE_NANOS} from when the read began unless a
   * change was heard of meanwhile; a missing bucket drops it.
   */
  private Optional<String> read(Kind kind, String bucket) {
    String at = kind.prefix() + bucket;
    long began = context.config.ticker().getAsLong();
    long before = forgets.get();
    Optional<String> document;
    try {
      document = get(kind, bucket);
    } catch (StoreException e) {
      if (e.code() == StoreException.Code.NO_SUCH_BUCKET) {
        cache.remove(at);
      }
      throw e;
    }
    if (forgets.get() == before) {
      cache.put(at, new Cached(document, began + BucketCatalog.CACHE_NANOS));
    }
    return document;
  }

  /** The document of {@code kind} of an existing bucket, if it has one. */
  public Optional<String> get(Kind kind, String bucket) {
    BucketCatalog.BucketRecord created = buckets.current(bucket);
    IndexMerge merge =
        new IndexMerge(context.array, kind.prefix() + bucket + Layout.SEPARATOR, "", 10);
    IndexMerge.Entry newest = merge.next();
    context.requireReadQuorum(merge, "read " + kind.label + " of " + bucket);
    if (newest == null) {
      return Optional.empty();
    }
    return context
        .read(newest, DocumentRecord.class)
        .filter(r -> r.bucketCreatedMillis() == created.createdMillis())
        .map(DocumentRecord::configuration);
  }
}
