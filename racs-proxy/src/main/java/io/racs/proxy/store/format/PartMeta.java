package io.racs.proxy.store.format;

import java.util.List;
import java.util.Map;

/**
 * One erasure-coded run of bytes: a whole single-PUT object, or one part of a multipart object. Its
 * shards live under {@code Layout.shard(dataId, i)}; shard {@code i} is on the repository in slot
 * {@code slots[i]}, a layout recorded when the data was written and never recomputed. An inline
 * part (a small single-PUT object, one stripe) has no shard objects: shard {@code i} is stored
 * inside the version's index record on slot {@code slots[i]} (see {@link Layout#encodeInline}).
 *
 * @param partNumber 1 for a single PUT; the S3 part number for multipart parts
 * @param dataId the id the shard objects are stored under
 * @param sizeBytes data bytes in this part
 * @param etag the part's MD5, hex, unquoted
 * @param pieceBytes bytes per shard piece in a full stripe (a stripe holds k pieces of data)
 * @param slots shard index to repository slot
 * @param checksums client checksums of the part (algorithm name to base64 value)
 * @param inline whether the shards live in the version's records rather than in shard objects
 */
public record PartMeta(
    int partNumber,
    String dataId,
    long sizeBytes,
    String etag,
    int pieceBytes,
    List<Integer> slots,
    Map<String, String> checksums,
    boolean inline) {
  /** Copies the collections. */
  public PartMeta {
    slots = List.copyOf(slots);
    checksums = checksums == null ? Map.of() : Map.copyOf(checksums);
  }

  /** This part with the client checksums it was stored with. */
  public PartMeta withChecksums(Map<String, String> checksums) {
    return new PartMeta(partNumber, dataId, sizeBytes, etag, pieceBytes, slots, checksums, inline);
  }

  /** This part with another ETag (an encrypted part's is its plaintext's MD5). */
  public PartMeta withEtag(String etag) {
    return new PartMeta(partNumber, dataId, sizeBytes, etag, pieceBytes, slots, checksums, inline);
  }

  /** Data bytes per full stripe. */
  public long stripeBytes(int dataShards) {
    return (long) pieceBytes * dataShards;
  }

  /** Number of stripes. */
  public long stripes(int dataShards) {
    long stripe = stripeBytes(dataShards);
    return (sizeBytes + stripe - 1) / stripe;
  }

  /** Piece bytes of stripe {@code s} (the last one may be shorter). */
  public int pieceBytes(int dataShards, long s) {
    long start = s * stripeBytes(dataShards);
    long left = Math.min(stripeBytes(dataShards), sizeBytes - start);
    return (int) ((left + dataShards - 1) / dataShards);
  }

  /** Where stripe {@code s} starts in a shard object (pieces carry a 4-byte CRC32C). */
  public long shardOffset(long s) {
    return s * (pieceBytes + (long) Layout.CRC_BYTES);
  }

  /** Total bytes of each shard object. */
  public long shardObjectBytes(int dataShards) {
    long stripes = stripes(dataShards);
    if (stripes == 0) {
      return 0;
    }
    return shardOffset(stripes - 1) + pieceBytes(dataShards, stripes - 1) + Layout.CRC_BYTES;
  }
}
