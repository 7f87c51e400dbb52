package io.racs.proxy.store.object;

import io.racs.proxy.crypto.DataKey;
import io.racs.proxy.crypto.SealingInputStream;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.array.WritesInFlight;
import io.racs.proxy.store.bucket.BucketCatalog;
import io.racs.proxy.store.commit.CommitOrder;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.SealRecord;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.stripe.PartWriter;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * Writes new versions of single keys: a PUT (striped into shard objects, or for a small object
 * inline in its records) and a delete marker. Each ends in one {@link QuorumWriter#commit}, with a
 * version id minted right before it and after the key's newest id was listed ({@link CommitOrder}).
 *
 * <p>Thread-safe; bodies are read on the calling thread.
 */
public final class ObjectWrites {
  private final StoreContext context;
  private final QuorumWriter writer;
  private final VersionResolver resolver;
  private final CommitOrder order;

  private final BucketCatalog buckets;

  public ObjectWrites(
      StoreContext context,
      QuorumWriter writer,
      VersionResolver resolver,
      CommitOrder order,
      BucketCatalog buckets) {
    this.buckets = buckets;
    this.context = context;
    this.writer = writer;
    this.resolver = resolver;
    this.order = order;
  }

  /**
   * Writes a new version; {@code nullVersion} flags it as the key's {@code null} version (its
   * bucket's versioning is not enabled: see {@link VersionMeta#nullVersion()}).
   */
  @SuppressWarnings("try") // underWay is only to be closed
  public VersionMeta put(
      String bucket,
      String key,
      InputStream body,
      long lengthBytes,
      ObjectStore.PutOptions options,
      ObjectStore.WriteCondition condition,
      boolean nullVersion) {
    ObjectSealing.Sealed sealed = ObjectSealing.begin(options.sealing(), context.config.keys());
    // The write's ordering; closing it ends a registration no commit took (CommitOrder.Pending).
    // Counted under way until it ends, whatever the outcome (WritesInFlight).
    try (CommitOrder.Pending ordering = order.of(bucket, key);
        WritesInFlight.Write underWay = context.writesInFlight.begin()) {
      if (sealed == null) {
        return store(
            bucket, key, body, lengthBytes, options, condition, null, nullVersion, ordering);
      }
      MessageDigest plainMd5 = PartWriter.md5();
      // A body of unknown length (a browser form's file) is sealed as it comes; its length is
      // known, and recorded, once it has all been read.
      SealingInputStream sealedBody =
          new SealingInputStream(
              new DigestInputStream(body, plainMd5),
              lengthBytes < 0 ? -1 : lengthBytes,
              sealed.key().sealer(1));
      return store(
          bucket,
          key,
          sealedBody,
          sealedBody.sealedLength(),
          options,
          condition,
          new Seal(sealed.record(), sealed.key(), sealedBody::plainBytesRead, plainMd5),
          nullVersion,
          ordering);
    }
  }

  /**
   * What a sealed PUT stores besides the sealed bytes: its {@link SealRecord}, and the plaintext's
   * length and MD5. S3's ETag of an SSE-S3 object is the plaintext's MD5; of an SSE-C object it is
   * not (see {@link DataKey#opaqueEtag}). The sealed bytes are not hashed at all.
   */
  private record Seal(
      SealRecord record, DataKey key, LongSupplier plainBytes, MessageDigest plainMd5) {
    PartMeta apply(PartMeta part) {
      byte[] md5 = plainMd5.digest();
      return part.withEtag(record.customer() ? key.opaqueEtag(md5) : HexFormat.of().formatHex(md5));
    }
  }

  private VersionMeta store(
      String bucket,
      String key,
      InputStream body,
      long lengthBytes,
      ObjectStore.PutOptions options,
      ObjectStore.WriteCondition condition,
      Seal seal,
      boolean nullVersion,
      CommitOrder.Pending ordering) {
    // The data is named when it starts; the version gets its id when it commits (below), so that
    // of two overlapping PUTs the one that commits later, and is acknowledged later, is newer. The
    // version takes the data's id when no newer one was listed (CommitOrder.versionIdOrData): then
    // a reader that has not read its record knows where its shards are.
    String dataId = context.ids.next(VersionId.Mark.DATA);
    StoreContext.Writes layout = context.writes(); // one layout for the whole write
    StoreConfig config = layout.config();
    List<Integer> slots = context.slotsFor(bucket, key);
    InputStream rest = body;
    if (config.inlineBytes() > 0 && (lengthBytes < 0 || config.inlines(lengthBytes))) {
      byte[] head = readHead(body, lengthBytes);
      if (config.inlines(head.length)) {
        return putInline(
            layout,
            bucket,
            key,
            slots,
            head,
            options,
            condition,
            seal,
            ordering.start(),
            nullVersion);
      }
      rest = new SequenceInputStream(new ByteArrayInputStream(head), body);
    }
    // The ordering listing starts once the whole body has been received, alongside the flush of
    // the last shards: late enough that a PUT that ended while this one was still uploading may be
    // ordered before it, early enough to cost no round trip of its own.
    rest = new OnEnd(rest, lengthBytes, ordering::start);
    PartWriter.Result written =
        PartWriter.write(
            context.array,
            layout.codec(),
            config,
            1,
            dataId,
            slots,
            rest,
            lengthBytes,
            seal == null);
    Map<String, String> checksums = options.checksums().get();
    PartMeta part = written.part().withChecksums(checksums);
    if (seal != null) {
      part = seal.apply(part);
    }
    VersionMeta meta;
    try {
      check(condition, bucket, key);
      meta =
          singlePartVersion(
                  layout,
                  bucket,
                  key,
                  ordering.versionIdOrData(dataId),
                  part,
                  options,
                  checksums,
                  seal)
              .withNullVersion(nullVersion);
    } catch (RuntimeException e) {
      PartWriter.deleteShards(context.array, part.slots(), part.dataId());
      throw e;
    }
    writer.commit(meta, recordOf(meta), written.failures(), ordering);
    return meta;
  }

  /**
   * A body that runs an action once it has been read to its end: its declared length, or the end of
   * the stream when the length is unknown (or the body is shorter).
   */
  private static final class OnEnd extends FilterInputStream {
    private final long lengthBytes;
    private Runnable action;
    private long read;

    OnEnd(InputStream in, long lengthBytes, Runnable action) {
      super(in);
      this.lengthBytes = lengthBytes;
      this.action = action;
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      count(b < 0 ? -1 : 1);
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      count(n);
      return n;
    }

    private void count(int n) {
      if (n > 0) {
        read += n;
      }
      if (action != null && (n < 0 || (lengthBytes >= 0 && read >= lengthBytes))) {
        Runnable run = action;
        action = null;
        run.run();
      }
    }
  }

  /**
   * Checks that the bucket still exists, and a write's condition against the key's current version,
   * as late as the store allows: after the data is stored, right before the commit (see {@link
   * ObjectStore.WriteCondition} for the window that remains).
   */
  void check(ObjectStore.WriteCondition condition, String bucket, String key) {
    // The bucket may have been deleted while the body streamed: a version committed now would be
    // invisible, and would come back in a bucket of the same name created later. Answered from the
    // bucket cache, which a delete through this proxy (or, with coordination, any) has dropped.
    buckets.require(bucket);
    if (condition != ObjectStore.WriteCondition.NONE) {
      condition.check(live(resolver.newest(bucket, key)));
    }
  }

  private static Optional<VersionMeta> live(Optional<VersionMeta> newest) {
    return newest.filter(meta -> !meta.deleteMarker());
  }

  /**
   * Reads a body that may be small enough to inline: all of it when its length is known (checking
   * that length), else up to one byte more than the inline limit.
   */
  private byte[] readHead(InputStream body, long lengthBytes) {
    try {
      if (lengthBytes >= 0) {
        byte[] head = body.readNBytes((int) lengthBytes);
        if (head.length < lengthBytes) {
          throw new StoreException(
              StoreException.Code.INCOMPLETE_BODY,
              "body ended after " + head.length + " of " + lengthBytes + " bytes");
        }
        if (body.read() >= 0) {
          throw new StoreException(
              StoreException.Code.INCOMPLETE_BODY,
              "body longer than its declared length " + lengthBytes);
        }
        return head;
      }
      return body.readNBytes(context.config.inlineBytes() + 1);
    } catch (IOException | RuntimeException e) {
      if (e instanceof StoreException store) {
        throw store;
      }
      throw new StoreException(StoreException.Code.INCOMPLETE_BODY, "request body failed: " + e, e);
    }
  }

  /** The same record on every slot. */
  static IntFunction<byte[]> recordOf(VersionMeta meta) {
    byte[] record = Layout.encode(meta);
    return slot -> record;
  }

  /** A small object: one stripe, each shard inside the version's record on its repository. */
  private VersionMeta putInline(
      StoreContext.Writes layout,
      String bucket,
      String key,
      List<Integer> slots,
      byte[] data,
      ObjectStore.PutOptions options,
      ObjectStore.WriteCondition condition,
      Seal seal,
      CommitOrder.Pending ordering,
      boolean nullVersion) {
    byte[][] shards =
        data.length == 0
            ? new byte[layout.geometry().totalShards()][0]
            : PartWriter.encodeStripe(layout.codec(), data, data.length, byte[]::new);
    Map<String, String> checksums = options.checksums().get();
    check(condition, bucket, key); // nothing is stored yet: an inline version's data is its record
    String versionId = ordering.versionId(VersionId.Mark.INLINE);
    PartMeta part =
        new PartMeta(
            1,
            versionId, // an inline part's data is its version's record
            data.length,
            HexFormat.of().formatHex(PartWriter.md5().digest(data)),
            layout.config().pieceBytes(),
            slots,
            checksums,
            true);
    if (seal != null) {
      part = seal.apply(part);
    }
    VersionMeta meta =
        singlePartVersion(layout, bucket, key, versionId, part, options, checksums, seal)
            .withNullVersion(nullVersion);
    writer.commit(
        meta, slot -> Layout.encodeInline(meta, shards[slots.indexOf(slot)]), List.of(), ordering);
    return meta;
  }

  private VersionMeta singlePartVersion(
      StoreContext.Writes layout,
      String bucket,
      String key,
      String versionId,
      PartMeta part,
      ObjectStore.PutOptions options,
      Map<String, String> checksums,
      Seal seal) {
    return VersionMeta.builder()
        .arrayId(context.arrayId)
        .bucket(bucket)
        .key(key)
        .versionId(versionId)
        .sizeBytes(seal == null ? part.sizeBytes() : seal.plainBytes().getAsLong())
        .etag(part.etag())
        .contentType(options.contentType())
        .userMetadata(options.userMetadata())
        .checksums(checksums)
        .lastModifiedMillis(context.config.clock().millis())
        .geometry(layout.geometry().toString())
        .parts(List.of(part))
        .contentHeaders(options.contentHeaders())
        .tags(options.tags())
        .encryption(seal == null ? null : seal.record())
        .lock(options.lock())
        .build();
  }

  /**
   * Writes a delete marker and returns it, unless the bucket is not versioned and the key has no
   * version to hide (a versioned bucket gets a marker every time, as in S3); {@code condition} is
   * checked against the version the marker would hide (with the window {@link
   * ObjectStore.WriteCondition} describes). {@code nullVersion} flags the marker as the key's
   * {@code null} version (the bucket's versioning is not enabled).
   *
   * <p>Without a condition the current version's record is not read: over distant repositories that
   * read is a round trip between the listing and the marker, and the marker needs only to be
   * ordered after the newest id listed. In a versioned bucket the marker is written whatever the
   * key holds; in one never versioned, whenever the listing names a version that counts ({@link
   * VersionResolver#listsVersionToHide}), even when that is a delete marker already, unless this
   * store has read that marker's record before: telling would take the record, and a second marker
   * hides the same nothing (the first one is collected as superseded, and the answer carries no
   * version either way). A key with no version that counts gets no marker, as before.
   */
  @SuppressWarnings("try") // underWay is only to be closed
  public Optional<VersionMeta> delete(
      String bucket,
      String key,
      ObjectStore.WriteCondition condition,
      boolean versioned,
      boolean nullVersion) {
    // The listing that finds the current version also orders the marker: one listing, no round
    // trip of its own. The marker's registration (with key stamps) runs alongside it.
    try (CommitOrder.Pending ordering = order.of(bucket, key).register();
        WritesInFlight.Write underWay = context.writesInFlight.begin()) {
      if (condition != ObjectStore.WriteCondition.NONE) {
        Optional<VersionMeta> newest = resolver.newest(bucket, key, ordering::listed);
        Optional<VersionMeta> current = live(newest);
        condition.check(current);
        // Only a key with no version at all has nothing to hide: a marker that is newest may count
        // only because some repositories did not answer (see VersionResolver.listsVersionToHide).
        if (newest.isEmpty() && !versioned) {
          return Optional.empty(); // nothing to hide
        }
      } else if (!versioned && !resolver.listsVersionToHide(bucket, key, ordering::listed)) {
        return Optional.empty(); // nothing to hide
      }
      // A versioned bucket's plain DELETE has listed nothing yet: versionId() lists the key now.
      VersionMeta marker =
          VersionMeta.builder()
              .arrayId(context.arrayId)
              .bucket(bucket)
              .key(key)
              .versionId(ordering.versionId())
              .deleteMarker(true)
              .etag("")
              .lastModifiedMillis(context.config.clock().millis())
              .geometry(context.writes().geometry().toString())
              .nullVersion(nullVersion)
              .build();
      writer.commit(marker, recordOf(marker), List.of(), ordering);
      return Optional.of(marker);
    }
  }
}
