package io.racs.proxy.store.object;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.crypto.DataKey;
import io.racs.proxy.crypto.SealedLayout;
import io.racs.proxy.crypto.SealingInputStream;
import io.racs.proxy.store.api.ObjectStore;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.IndexMerge;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.bucket.BucketCatalog;
import io.racs.proxy.store.commit.CommitOrder;
import io.racs.proxy.store.commit.QuorumWriter;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.format.AbandonedRecord;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.PartRecord;
import io.racs.proxy.store.format.UploadRecord;
import io.racs.proxy.store.format.VersionId;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.proxy.store.heal.AbandonedUploads;
import io.racs.proxy.store.stripe.PartWriter;
import java.io.InputStream;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Multipart uploads: an upload record, one part record per uploaded part (each part's data striped
 * like a PUT's), and the completion that commits the chosen parts as one version without writing
 * their data again.
 *
 * <p>Thread-safe; part bodies are read on the calling thread.
 */
public final class MultipartUploads {
  private static final Logger LOG = LoggerFactory.getLogger(MultipartUploads.class);

  /** The most parts an upload may have (S3's limit). */
  static final int MAX_PARTS = 10_000;

  private final StoreContext context;
  private final QuorumWriter writer;
  private final BucketCatalog buckets;
  private final VersionResolver resolver;
  private final CommitOrder order;

  public MultipartUploads(
      StoreContext context,
      QuorumWriter writer,
      BucketCatalog buckets,
      VersionResolver resolver,
      CommitOrder order) {
    this.context = context;
    this.writer = writer;
    this.buckets = buckets;
    this.resolver = resolver;
    this.order = order;
  }

  /** Writes the record of a new upload ({@code checksum} null for none) and returns its id. */
  public String create(
      String bucket,
      String key,
      ObjectStore.PutOptions options,
      ObjectStore.UploadChecksum checksum) {
    // Every part is sealed with the one data key chosen here (each part as its own stream).
    ObjectSealing.Sealed sealed = ObjectSealing.begin(options.sealing(), context.config.keys());
    String uploadId = context.ids.next();
    writer.write(
        uploadRecordName(bucket, key, uploadId),
        Layout.encode(
            new UploadRecord(
                bucket,
                key,
                uploadId,
                context.config.clock().millis(),
                options.contentType(),
                options.userMetadata(),
                options.contentHeaders(),
                options.tags(),
                sealed == null ? null : sealed.record(),
                context.writes().geometry().toString(),
                options.lock(),
                checksum == null ? null : checksum.algorithm(),
                checksum == null ? null : checksum.type())),
        "create upload for " + bucket + "/" + key);
    return uploadId;
  }

  private String uploadRecordName(String bucket, String key, String uploadId) {
    return Layout.uploadRecord(bucket, context.nameKey(bucket, key), uploadId);
  }

  /** The upload's record; {@code NO_SUCH_UPLOAD} if there is none for this key. */
  public UploadRecord upload(String bucket, String key, String uploadId) {
    buckets.require(bucket);
    StoreContext.checkKey(key);
    if (!VersionId.valid(uploadId)) {
      throw new StoreException(StoreException.Code.NO_SUCH_UPLOAD, "upload " + uploadId);
    }
    String name = uploadRecordName(bucket, key, uploadId);
    // The record and, when the upload was given up, its mark (which sorts right after it): a
    // record that a repository out during the abort or abandonment kept, and heal copied back, is
    // gone. A mark that does not count is what an abort that failed (and answered 503) left.
    IndexMerge merge = new IndexMerge(context.array, name, "", 2);
    IndexMerge.Entry e = merge.next();
    IndexMerge.Entry after = e == null ? null : merge.next();
    context.requireReadQuorum(merge, "read upload " + uploadId);
    if (e == null
        || !e.name().equals(name)
        || (after != null
            && after.name().equals(Layout.removalRecord(name))
            && markCounts(merge, after))) {
      throw new StoreException(StoreException.Code.NO_SUCH_UPLOAD, "upload " + uploadId);
    }
    return context
        .read(e, UploadRecord.class)
        .filter(r -> r.key().equals(key))
        .orElseThrow(
            () -> new StoreException(StoreException.Code.NO_SUCH_UPLOAD, "upload " + uploadId));
  }

  public ObjectStore.PartInfo uploadPart(
      String bucket,
      String key,
      String uploadId,
      int partNumber,
      InputStream body,
      long length,
      Supplier<Map<String, String>> checksums,
      CustomerKey customerKey,
      ObjectStore.PartCheck check) {
    if (partNumber < 1 || partNumber > MAX_PARTS) {
      throw new StoreException(
          StoreException.Code.INVALID_ARGUMENT,
          "part number: " + partNumber + " (expected: 1 to " + MAX_PARTS + ")");
    }
    UploadRecord upload = upload(bucket, key, uploadId);
    check.check(info(upload));
    DataKey dataKey;
    try {
      dataKey =
          ObjectSealing.open(
              upload.encryption(), customerKey, context.config.keys(), "upload " + uploadId);
    } catch (StoreException e) {
      if (e.code() != StoreException.Code.CUSTOMER_KEY_MISMATCH) {
        throw e;
      }
      // A part is a write, not a read: another key is a bad request (400), as S3 answers it.
      throw new StoreException(
          StoreException.Code.ENCRYPTION_MISMATCH,
          "The provided encryption parameters did not match the ones used originally.");
    }
    MessageDigest plainMd5 = null;
    long plainLength = length;
    if (dataKey != null) {
      if (length < 0) {
        throw new StoreException(
            StoreException.Code.INVALID_ARGUMENT,
            "an encrypted part's length must be known before its body (a Content-Length)");
      }
      plainMd5 = PartWriter.md5();
      body =
          new SealingInputStream(
              new DigestInputStream(body, plainMd5), length, dataKey.sealer(partNumber));
      length = SealedLayout.sealedLength(length);
    }
    Optional<PartRecord> previous =
        partRecords(bucket, key, uploadId).stream()
            .filter(r -> r.part().partNumber() == partNumber)
            .findFirst();
    String dataId = context.ids.next();
    Geometry geometry = context.recordedGeometry(upload.geometry());
    PartWriter.Result written =
        PartWriter.write(
            context.array,
            context.codecFor(geometry),
            // An upload begun in a reshape's target is striped as the mover stripes that layout.
            geometry.equals(context.writes().geometry())
                ? context.writes().config()
                : context.config,
            partNumber,
            dataId,
            context.slotsFor(bucket, key, context.layoutOf(geometry)),
            body,
            length,
            dataKey == null);
    long now = context.config.clock().millis();
    PartMeta part = written.part().withChecksums(checksums.get());
    if (plainMd5 != null) {
      byte[] md5 = plainMd5.digest();
      part =
          part.withEtag(
              upload.encryption().customer()
                  ? dataKey.opaqueEtag(md5)
                  : HexFormat.of().formatHex(md5));
    }
    writer.write(
        Layout.partRecord(bucket, context.nameKey(bucket, key), uploadId, partNumber),
        Layout.encode(new PartRecord(part, now)),
        "record part " + partNumber);
    previous.ifPresent(
        old -> PartWriter.deleteShards(context.array, old.part().slots(), old.part().dataId()));
    return new ObjectStore.PartInfo(
        partNumber,
        dataKey == null ? part.sizeBytes() : plainLength,
        part.etag(),
        Instant.ofEpochMilli(now),
        part.checksums());
  }

  private List<PartRecord> partRecords(String bucket, String key, String uploadId) {
    String prefix = uploadRecordName(bucket, key, uploadId) + "/p";
    IndexMerge merge = new IndexMerge(context.array, prefix, "", 1000);
    List<PartRecord> parts = new ArrayList<>();
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      context.read(e, PartRecord.class).ifPresent(parts::add);
    }
    context.requireReadQuorum(merge, "list parts of " + uploadId);
    return parts;
  }

  /** What a record says of its upload, as the store's callers see it. */
  private static ObjectStore.UploadInfo info(UploadRecord r) {
    return new ObjectStore.UploadInfo(
        r.key(),
        r.uploadId(),
        Instant.ofEpochMilli(r.initiatedMillis()),
        r.checksumAlgorithm() == null
            ? null
            : new ObjectStore.UploadChecksum(r.checksumAlgorithm(), r.checksumType()));
  }

  public ObjectStore.UploadParts parts(String bucket, String key, String uploadId) {
    UploadRecord upload = upload(bucket, key, uploadId);
    List<ObjectStore.PartInfo> parts = new ArrayList<>();
    for (PartRecord r : partRecords(bucket, key, uploadId)) {
      parts.add(
          new ObjectStore.PartInfo(
              r.part().partNumber(),
              VersionMeta.plainBytes(upload.encryption(), r.part()),
              r.part().etag(),
              Instant.ofEpochMilli(r.uploadedMillis()),
              r.part().checksums()));
    }
    return new ObjectStore.UploadParts(info(upload), parts);
  }

  public VersionMeta complete(
      String bucket,
      String key,
      String uploadId,
      List<ObjectStore.CompletedPart> parts,
      ObjectStore.ObjectChecksums objectChecksums,
      ObjectStore.WriteCondition condition,
      boolean nullVersion) {
    // The version is the upload's layout, but it is a new write all the same: refused while this
    // proxy cannot be sure of the array's layout, as the upload's parts are (docs/reshape.md §6).
    context.layoutFreshness.require();
    // Listed and registered alongside the reading of the upload's records: no round trip of its
    // own for either. Closing the ordering ends a registration no commit took.
    try (CommitOrder.Pending ordering = order.of(bucket, key).start()) {
      UploadRecord upload = upload(bucket, key, uploadId);
      if (parts.isEmpty()) {
        throw new StoreException(StoreException.Code.INVALID_PART, "no parts named");
      }
      Map<Integer, PartRecord> uploaded = new HashMap<>();
      for (PartRecord r : partRecords(bucket, key, uploadId)) {
        uploaded.put(r.part().partNumber(), r);
      }
      int last = 0;
      for (ObjectStore.CompletedPart p : parts) {
        if (p.partNumber() <= last) {
          throw new StoreException(
              StoreException.Code.INVALID_PART_ORDER,
              "part " + p.partNumber() + " after part " + last);
        }
        last = p.partNumber();
      }
      List<PartMeta> chosen = new ArrayList<>();
      // As the object's checksums see the parts: of their plaintext sizes (a CRC combines by them).
      List<PartMeta> plainChosen = new ArrayList<>();
      MessageDigest md5s = PartWriter.md5();
      long size = 0;
      for (int i = 0; i < parts.size(); i++) {
        ObjectStore.CompletedPart p = parts.get(i);
        PartRecord r = uploaded.get(p.partNumber());
        if (r == null || !r.part().etag().equalsIgnoreCase(stripQuotes(p.etag()))) {
          throw new StoreException(
              StoreException.Code.INVALID_PART,
              "part " + p.partNumber() + " with ETag " + p.etag());
        }
        long partBytes = VersionMeta.plainBytes(upload.encryption(), r.part());
        if (i < parts.size() - 1 && partBytes < context.config.minPartBytes()) {
          throw new StoreException(
              StoreException.Code.ENTITY_TOO_SMALL,
              "part "
                  + p.partNumber()
                  + " is "
                  + partBytes
                  + " bytes (minimum "
                  + context.config.minPartBytes()
                  + ")");
        }
        chosen.add(r.part());
        plainChosen.add(plainSized(r.part(), partBytes));
        md5s.update(HexFormat.of().parseHex(r.part().etag()));
        size += partBytes;
      }
      String etag = HexFormat.of().formatHex(md5s.digest()) + "-" + chosen.size();
      // Checked right before the commit, as a PUT's condition is (see ObjectWrites#check); a
      // refused completion changes nothing, so the client may retry it or abort the upload.
      if (condition != ObjectStore.WriteCondition.NONE) {
        condition.check(resolver.newest(bucket, key).filter(v -> !v.deleteMarker()));
      }
      VersionMeta meta =
          VersionMeta.builder()
              .arrayId(context.arrayId)
              .bucket(bucket)
              .key(key)
              .versionId(ordering.versionId())
              .sizeBytes(size)
              .etag(etag)
              .contentType(upload.contentType())
              .userMetadata(upload.userMetadata())
              .checksums(objectChecksums.of(info(upload), plainChosen))
              .lastModifiedMillis(context.config.clock().millis())
              .geometry(context.recordedGeometry(upload.geometry()).toString())
              .multipart(true)
              .parts(chosen)
              .contentHeaders(upload.contentHeaders())
              .tags(upload.tags())
              .encryption(upload.encryption())
              .nullVersion(nullVersion)
              .lock(upload.lock())
              .build();
      context.codecOf(meta); // every part in the upload's layout, or the record is refused
      writer.commitUploadedParts(meta, ObjectWrites.recordOf(meta), ordering);
      // The upload is over: marked as given up before its records go, as an abort marks it, so
      // that a repository that misses their deletion cannot bring it back through heal (listed
      // again, and an abort of it would delete the data of the object just committed). The object
      // is committed whatever happens here, so a mark that fails is only logged.
      try {
        mark(upload, "complete upload " + uploadId);
      } catch (StoreException e) {
        LOG.warn("upload {} of {}/{} completed, but its mark failed: {}", uploadId, bucket, key, e);
      }
      Set<String> kept = new HashSet<>();
      for (PartMeta part : chosen) {
        kept.add(part.dataId());
      }
      remove(bucket, key, uploadId, uploaded.values(), kept);
      return meta;
    }
  }

  private static PartMeta plainSized(PartMeta part, long plainBytes) {
    return plainBytes == part.sizeBytes()
        ? part
        : new PartMeta(
            part.partNumber(),
            part.dataId(),
            plainBytes,
            part.etag(),
            part.pieceBytes(),
            part.slots(),
            part.checksums(),
            part.inline());
  }

  private static String stripQuotes(String etag) {
    String e = etag == null ? "" : etag.trim();
    if (e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"")) {
      e = e.substring(1, e.length() - 1);
    }
    return e;
  }

  /**
   * Aborts an upload as {@link #abandon} gives one up: its {@link AbandonedRecord} on a write
   * quorum (or {@code INSUFFICIENT_SHARDS}, having changed nothing), then its upload record
   * deleted, so that from then on it answers {@code NoSuchUpload}. Its parts (records and data)
   * stay until {@link #collectAbandoned} runs past the GC grace (heal, or the scrub's {@link
   * AbandonedUploads}): a completion that read the upload just before the abort may still commit
   * them, and deleting them at once lost the data of an object it was then answered 200 for. The
   * mark stays as long, so that a repository that missed the deletions cannot bring the upload
   * back.
   */
  public void abort(String bucket, String key, String uploadId) {
    UploadRecord upload = upload(bucket, key, uploadId);
    mark(upload, "abort upload " + uploadId);
    writer.deleteEverywhere(uploadRecordName(bucket, key, uploadId));
  }

  /**
   * The data ids of the parts that the versions of a key (and the removal records, which hold the
   * versions they remove) are made of; {@code INSUFFICIENT_SHARDS} when a record of the key cannot
   * be read, or fewer than a read quorum of repositories list the key.
   */
  private Set<String> dataOfVersions(String bucket, String key, String what) {
    Set<String> used = new HashSet<>();
    IndexMerge versions =
        new IndexMerge(
            context.array, Layout.indexKeyPrefix(bucket, context.nameKey(bucket, key)), "", 1000);
    for (IndexMerge.Entry version = versions.next(); version != null; version = versions.next()) {
      for (IndexMerge.Entry e : version.names()) { // its copies in other layouts too
        Optional<VersionMeta> meta = context.read(e, VersionMeta.class);
        if (meta.isEmpty()) {
          throw new StoreException(
              StoreException.Code.INSUFFICIENT_SHARDS, what + ": unreadable " + e.name());
        }
        meta.get().parts().forEach(part -> used.add(part.dataId()));
      }
    }
    context.requireReadQuorum(versions, what);
    return used;
  }

  /**
   * Whether an upload's {@link AbandonedRecord} {@code mark}, listed by {@code merge}, counts: by
   * the rule a version's removal record counts by ({@link VersionResolver#removalCounts}), that the
   * repositories listing it and those whose listing proves nothing number a write quorum. One on
   * fewer is what a failed abort or abandonment left, and the upload it names is still there.
   */
  public boolean markCounts(IndexMerge merge, IndexMerge.Entry mark) {
    return merge.index().mayCount(VersionResolver.possibleHolders(merge, mark));
  }

  /** Writes the {@link AbandonedRecord} of {@code upload} on a write quorum. */
  private void mark(UploadRecord upload, String what) {
    String name = uploadRecordName(upload.bucket(), upload.key(), upload.uploadId());
    writer.write(
        Layout.removalRecord(name),
        Layout.encode(
            new AbandonedRecord(
                upload.bucket(), upload.key(), upload.uploadId(), context.config.clock().millis())),
        what);
  }

  private void remove(
      String bucket, String key, String uploadId, Iterable<PartRecord> parts, Set<String> keep) {
    for (PartRecord r : parts) {
      if (!keep.contains(r.part().dataId())) {
        PartWriter.deleteShards(context.array, r.part().slots(), r.part().dataId());
      }
      writer.deleteEverywhere(
          Layout.partRecord(bucket, context.nameKey(bucket, key), uploadId, r.part().partNumber()));
    }
    writer.deleteEverywhere(uploadRecordName(bucket, key, uploadId));
  }

  /**
   * The time of an upload's newest activity: its start, or its newest part's upload, whichever is
   * later ({@code upload} is its record).
   */
  public long lastActivityMillis(UploadRecord upload) {
    long last = upload.initiatedMillis();
    for (PartRecord r : partRecords(upload.bucket(), upload.key(), upload.uploadId())) {
      last = Math.max(last, r.uploadedMillis());
    }
    return last;
  }

  /**
   * Gives an upload up: writes its {@link AbandonedRecord} on a write quorum, then deletes its
   * upload record, so that from then on its parts, its completion and its listing answer {@code
   * NoSuchUpload}. Its parts are left for {@link #collectAbandoned}: a completion that read the
   * upload record just before may still commit them.
   */
  public void abandon(UploadRecord upload) {
    mark(upload, "abandon upload " + upload.uploadId());
    writer.deleteEverywhere(uploadRecordName(upload.bucket(), upload.key(), upload.uploadId()));
  }

  /**
   * Deletes the parts of an aborted or abandoned upload (their records, and their data unless a
   * version of the key refers to it: a completion that raced the abandonment), then its {@link
   * AbandonedRecord}. Nothing is deleted when a version record of the key cannot be read. The mark
   * is kept, and this fails, unless every repository's listing then proves the upload's records
   * gone: deleted while a repository still held one, the mark would no longer stop heal from
   * copying that one back.
   *
   * @return the parts deleted
   */
  public int collectAbandoned(AbandonedRecord abandoned) {
    String bucket = abandoned.bucket();
    String key = abandoned.key();
    List<PartRecord> parts = partRecords(bucket, key, abandoned.uploadId());
    Set<String> used = dataOfVersions(bucket, key, "collect upload " + abandoned.uploadId());
    for (PartRecord r : parts) {
      if (!used.contains(r.part().dataId())) {
        PartWriter.deleteShards(context.array, r.part().slots(), r.part().dataId());
      }
      writer.deleteEverywhere(
          Layout.partRecord(
              bucket, context.nameKey(bucket, key), abandoned.uploadId(), r.part().partNumber()));
    }
    String record = uploadRecordName(bucket, key, abandoned.uploadId());
    // Once more, before the mark that hides it goes: heal may have copied it back from a
    // repository that was out when it was deleted.
    writer.deleteEverywhere(record);
    String mark = Layout.removalRecord(record);
    IndexMerge left = new IndexMerge(context.array, record, "", 2);
    String remaining = null;
    for (IndexMerge.Entry e = left.next(); e != null && remaining == null; e = left.next()) {
      remaining = e.name().equals(mark) ? null : e.name();
    }
    // Every listing must have answered. A slot adopted and not yet filled counts as answering: it
    // was empty when adopted, so what it lists of this upload is all it holds. (Waiting for it to
    // be filled kept heal "not done", and so the slot never confirmed as filled.)
    if (remaining != null || !left.failures().isEmpty()) {
      throw new StoreException(
          StoreException.Code.INSUFFICIENT_SHARDS,
          "collect upload "
              + abandoned.uploadId()
              + ": its mark is kept until every repository proves its records gone"
              + (remaining == null ? "" : " (" + remaining + " is still there)"),
          left.failures(),
          null);
    }
    writer.deleteEverywhere(mark);
    return parts.size();
  }

  /** Deletes an {@link AbandonedRecord} that does not count (a failed abort's) everywhere. */
  public void discardMark(String name) {
    writer.deleteEverywhere(name);
  }

  public List<ObjectStore.UploadInfo> list(String bucket, String prefix) {
    return openRecords(bucket, prefix).stream().map(MultipartUploads::info).toList();
  }

  /**
   * The records of the uploads of {@code bucket} under {@code prefix} (null: all) still open: not
   * completed, aborted or given up, in key order; as ListMultipartUploads lists them.
   */
  public List<UploadRecord> openRecords(String bucket, String prefix) {
    String p = prefix == null ? "" : prefix;
    IndexMerge merge = new IndexMerge(context.array, Layout.uploadPrefix(bucket) + p, "", 1000);
    List<UploadRecord> uploads = new ArrayList<>();
    List<IndexMerge.Entry> records = new ArrayList<>();
    Map<String, IndexMerge.Entry> marks = new HashMap<>();
    for (IndexMerge.Entry e = merge.next(); e != null; e = merge.next()) {
      if (Layout.isRemovalRecord(e.name())) {
        marks.put(e.name(), e); // the mark of an aborted or abandoned upload
      } else if (!Layout.isPartRecord(e.name())) {
        records.add(e);
      }
    }
    context.requireReadQuorum(merge, "list uploads");
    for (IndexMerge.Entry e : records) {
      IndexMerge.Entry mark = marks.get(Layout.removalRecord(e.name()));
      if (mark != null && markCounts(merge, mark)) {
        continue; // given up; kept or copied back by a repository that missed its deletion
      }
      context.read(e, UploadRecord.class).ifPresent(uploads::add);
    }
    return uploads;
  }
}
