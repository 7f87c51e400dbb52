package io.racs.proxy.store.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.racs.proxy.store.bucket.BucketDocuments;
import io.racs.proxy.store.commit.VersionResolver;
import io.racs.proxy.store.heal.AbandonedUploads;
import io.racs.proxy.store.heal.HealLease;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Predicate;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * Where things live on a repository, and how records are written there. Every name is a plain
 * repository key:
 *
 * <ul>
 *   <li>{@code racs/identity}: the identity marker (array id, slot, geometry).
 *   <li>{@code b/<bucket>\0<version>}: bucket records; the newest decides (created or deleted).
 *   <li>{@code c/<bucket>\0<version>}, {@code g/<bucket>\0<version>}, {@code
 *       l/<bucket>\0<version>}: the CORS, tagging and lifecycle configuration records of a bucket
 *       (see {@link BucketDocuments}); the newest of each decides (a configuration, or none), and
 *       only for the bucket created when it was written.
 *   <li>{@code p/<bucket>\0<version>}: the bucket policy, as the other configuration records.
 *   <li>{@code o/<bucket>\0<version>}: the object lock configuration of a bucket, as the other
 *       configuration records; {@code k/<bucket>/<key>\0/<recordId>}: lock records, a retention or
 *       legal hold set on a version after it was written ({@code commit.LockRecords}).
 *   <li>{@code i/<bucket>/<key>\0/<version>}: index entries, one per committed object version,
 *       holding its {@link VersionMeta}. Newest versions sort first (see {@link VersionId}), and a
 *       listing of {@code i/<bucket>/} visits keys in S3 (UTF-8 binary) order ({@code \0} sorts
 *       before any character that could continue the key). The {@code /} after {@code \0} gives
 *       each key's versions a directory of their own on an {@code fs} repository, so finding a
 *       key's newest version reads that small directory, not one that holds every key of the
 *       bucket. A key whose entry name would pass the repository's 1024-byte limit is stored under
 *       its first bytes, {@code \u0001} and a hash; such keys (over ~950 bytes) list in order
 *       except among themselves when they share those first bytes.
 *   <li>{@code i/<bucket>/<key>\0/<version>-gone}: the removal record of one version (a DELETE with
 *       its {@code versionId}), committed on a write quorum before the removal is acknowledged; see
 *       {@link VersionResolver} and {@link #removalRecord}.
 *   <li>{@code u/<bucket>/<key>\0/<uploadId>}: multipart upload records; {@code
 *       u/<bucket>/<key>\0/<uploadId>/p<00001>} their parts; {@code
 *       u/<bucket>/<key>\0/<uploadId>-gone} the mark of an upload aborted by its client or given up
 *       by {@link AbandonedUploads}, kept until its parts are collected and every repository has
 *       proved its records gone.
 *   <li>{@code racs/array/<version>}: array records ({@link ArrayRecord}): the layouts and the
 *       reshape in progress; the newest on a write quorum decides.
 *   <li>{@code racs/users/<user>\0<version>}: user records ({@code store.users.UserRecords}): a
 *       user's access key, its stored secret and its identity policies; the newest record of a user
 *       on a write quorum decides (the user as it is, or removed).
 *   <li>{@code racs/reshape/<generation>/<id>}: the checkpoints of a reshape's mover ({@link
 *       #moveCheckpoint}): where its sweep stands, newest first.
 *   <li>{@code racs/lease/<token>-<millis>-<ttlMillis>-<n>}: heal lease records ({@link
 *       HealLease}).
 *   <li>{@code v/<first 10 digits of dataId>/<dataId>-s<i>}: shard {@code i} of a run of data: for
 *       each stripe, the piece followed by its CRC32C (4 bytes, big-endian). Data ids are version
 *       ids, so the directory level groups the shards written in one ~17-second span: a PUT does
 *       not create (and sync) a directory of its own, and no directory grows without bound.
 * </ul>
 *
 * <p>Records are JSON followed by a line {@code #crc32c=<hex>} over the JSON, so a damaged record
 * reads as missing on that repository and heal restores it from another. The index record of an
 * inline version (see {@link PartMeta#inline}) starts with {@code #inline=<length>\n} and that many
 * bytes: the repository's shard of the object, in the shard-object format (piece, then its CRC32C),
 * so the record differs from repository to repository while its JSON does not.
 */
public final class Layout {
  public static final String IDENTITY = "racs/identity";

  /** Where the array records live ({@link #arrayRecord}). */
  public static final String ARRAY_RECORDS = "racs/array/";

  /** Where the user records live ({@link #userRecord}). */
  public static final String USER_RECORDS = "racs/users/";

  // Written by the health check to see whether a repository whose writes failed takes them again.
  public static final String HEALTH = "racs/health";
  public static final int CRC_BYTES = 4;
  public static final char SEPARATOR = '\0';

  /** What ends a key in index and upload names: the separator, then a directory level. */
  public static final String KEY_END = SEPARATOR + "/";

  /**
   * What ends the name of a version's removal record (see {@link #removalRecord}): shorter than the
   * part number that ends the longest name {@link #nameKey} makes room for, so that a removal
   * record fits wherever its version's entry does.
   */
  static final String REMOVAL_SUFFIX = "-gone";

  /** What marks a version's copy in another layout ({@link #copyEntry}), before its generation. */
  static final String COPY_MARK = "-a";

  // The end of a copy's name: the mark, four digits, right after a version id (never in a key).
  private static final java.util.regex.Pattern COPY_NAME =
      java.util.regex.Pattern.compile("[0-9a-f]-a[0-9]{4}$");

  private static final int MAX_NAME_BYTES = 1024;
  private static final String CRC_LINE = "\n#crc32c=";
  private static final String INLINE_HEADER = "#inline=";
  private static final int SHARD_GROUP_DIGITS = 10;

  static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private Layout() {}

  public static String bucketPrefix() {
    return "b/";
  }

  public static String bucketRecord(String bucket, String versionId) {
    return "b/" + bucket + SEPARATOR + versionId;
  }

  /** The prefix under which all index entries of {@code bucket} live. */
  public static String indexPrefix(String bucket) {
    return "i/" + bucket + "/";
  }

  /**
   * The prefix of the index entries of exactly one key (all its versions), given the key's {@link
   * #nameKey name form}.
   */
  public static String indexKeyPrefix(String bucket, String nameKey) {
    return indexPrefix(bucket) + nameKey + KEY_END;
  }

  public static String indexEntry(String bucket, String nameKey, String versionId) {
    return indexKeyPrefix(bucket, nameKey) + versionId;
  }

  /** Where a reshape's mover keeps its checkpoints ({@link #moveCheckpoint}). */
  public static final String MOVE_CHECKPOINTS = "racs/reshape/";

  /**
   * The name of a checkpoint of the mover into layout {@code generation}: {@code
   * racs/reshape/<generation, four digits>/<id>}, a new name each time (newest first).
   */
  public static String moveCheckpoint(int generation, String id) {
    return moveCheckpoints(generation) + id;
  }

  /** The prefix of the checkpoints of the mover into layout {@code generation}. */
  public static String moveCheckpoints(int generation) {
    return MOVE_CHECKPOINTS + String.format(Locale.ROOT, "%04d", generation) + "/";
  }

  /** The name of the array record {@code versionId} (newest first, as index entries sort). */
  public static String arrayRecord(String versionId) {
    return ARRAY_RECORDS + versionId;
  }

  /**
   * The name of a record of user {@code user} (newest first, as index entries sort): {@code
   * racs/users/<user>\0<versionId>}. A user name never holds {@code \0}, so a user's records list
   * together, before those of any user whose name it is a prefix of.
   */
  public static String userRecord(String user, String versionId) {
    return USER_RECORDS + user + SEPARATOR + versionId;
  }

  /**
   * The removal record of one version of a key: the version's entry name followed by {@link
   * #REMOVAL_SUFFIX}, so that it lists right after the entry it removes (an id is a fixed 32 hex
   * digits, so nothing else sorts between them). It holds the removed version's {@link
   * VersionMeta}, so its data can be found and deleted even after its entry is gone.
   */
  public static String removalRecord(String versionEntry) {
    return versionEntry + REMOVAL_SUFFIX;
  }

  /** True for the name of a version's removal record ({@link #removalRecord}). */
  public static boolean isRemovalRecord(String name) {
    return name.endsWith(REMOVAL_SUFFIX);
  }

  /** The entry a removal record removes. */
  public static String removedEntry(String removalRecord) {
    return removalRecord.substring(0, removalRecord.length() - REMOVAL_SUFFIX.length());
  }

  /**
   * The name of the copy of a version that a reshape's mover writes in layout {@code generation}
   * (docs/reshape.md §3): the version's entry name followed by {@link #COPY_MARK} and the
   * generation in four digits. It sorts right after the entry and before the version's removal
   * record ({@code -a} before {@code -g}), and fits wherever the entry does: it is shorter than the
   * part number {@link #nameKey} makes room for. Records are never overwritten, so a copy is a name
   * of its own.
   *
   * @throws IllegalArgumentException when {@code generation} is not from 1 to 9999, or {@code
   *     versionEntry} is a copy or a removal record
   */
  public static String copyEntry(String versionEntry, int generation) {
    if (generation < 1 || generation > 9999) {
      throw new IllegalArgumentException("generation: " + generation + " (expected: 1 to 9999)");
    }
    if (isCopy(versionEntry) || isRemovalRecord(versionEntry)) {
      throw new IllegalArgumentException(
          "versionEntry: " + versionEntry + " (expected: a version's own entry)");
    }
    return versionEntry + COPY_MARK + String.format(Locale.ROOT, "%04d", generation);
  }

  /** True for the name of a version's copy ({@link #copyEntry}). */
  public static boolean isCopy(String name) {
    return COPY_NAME.matcher(name).find();
  }

  /** The entry of the version a copy ({@link #copyEntry}) is of. */
  public static String copiedEntry(String copy) {
    return copy.substring(0, copy.length() - COPY_MARK.length() - 4);
  }

  /** The layout generation a copy ({@link #copyEntry}) is in. */
  public static int copyGeneration(String copy) {
    return Integer.parseInt(copy.substring(copy.length() - 4));
  }

  public static String uploadPrefix(String bucket) {
    return "u/" + bucket + "/";
  }

  public static String uploadRecord(String bucket, String nameKey, String uploadId) {
    return uploadPrefix(bucket) + nameKey + KEY_END + uploadId;
  }

  /** True for a part record's name, false for an upload record's. */
  public static boolean isPartRecord(String name) {
    return name.indexOf('/', name.lastIndexOf(SEPARATOR) + KEY_END.length()) >= 0;
  }

  public static String partRecord(String bucket, String nameKey, String uploadId, int partNumber) {
    return uploadRecord(bucket, nameKey, uploadId)
        + String.format(Locale.ROOT, "/p%05d", partNumber);
  }

  public static String dataPrefix() {
    return "v/";
  }

  public static String shard(String dataId, int index) {
    return "v/"
        + dataId.substring(0, Math.min(SHARD_GROUP_DIGITS, dataId.length()))
        + "/"
        + dataId
        + "-s"
        + index;
  }

  /** The data id of a shard's name, or "" when the name is not a shard's. */
  public static String dataIdOfShard(String name) {
    int slash = name.lastIndexOf('/');
    int end = name.lastIndexOf("-s");
    return name.startsWith("v/") && end > slash ? name.substring(slash + 1, end) : "";
  }

  /**
   * The form of {@code key} used inside entry names: the key itself when the longest name built
   * from it (a part record) is accepted by every repository ({@code accepts}) and the key does not
   * end as a hashed form does ({@link #HASHED_FORM}); otherwise the longest prefix of the key for
   * which that holds, followed by {@code \u0001} and 32 hex digits of the key's SHA-256.
   * Repositories differ in how much room a key takes (an {@code s3} repository escapes some
   * characters), hence the predicate.
   */
  public static String nameKey(String bucket, String key, Predicate<String> accepts) {
    if (!HASHED_FORM.matcher(key).find() && accepts.test(longestName(bucket, key))) {
      return key;
    }
    String hash = "\u0001" + sha256Hex(key).substring(0, 32);
    int[] codePoints = key.codePoints().toArray();
    int low = 0;
    int high = codePoints.length;
    while (low < high) {
      int mid = (low + high + 1) >>> 1;
      String candidate = new String(codePoints, 0, mid) + hash;
      if (accepts.test(longestName(bucket, candidate))) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return new String(codePoints, 0, low) + hash;
  }

  /**
   * What ends the name form of a key stored under its hash. A key that itself ends so (any
   * character may be in a key) is stored under its hash too, however short, so that no key's name
   * form is another key's: two keys sharing one name would share their versions, and a write of one
   * would supersede (and collect) the other's.
   */
  private static final java.util.regex.Pattern HASHED_FORM =
      java.util.regex.Pattern.compile("\u0001[0-9a-f]{32}$");

  private static String longestName(String bucket, String nameKey) {
    return partRecord(bucket, nameKey, "f".repeat(VersionId.LENGTH), 10_000);
  }

  /** The default limit check: 1024 bytes of UTF-8, as S3 keys. */
  public static boolean fitsKeyLimit(String name) {
    return utf8Length(name) <= MAX_NAME_BYTES;
  }

  /**
   * The version id at the end of an index entry or bucket record name (for a removal record, the id
   * of the version it removes; for a copy, of the version it is a copy of).
   */
  public static String versionOf(String name) {
    if (isRemovalRecord(name)) {
      name = removedEntry(name);
    } else if (isCopy(name)) {
      name = copiedEntry(name);
    }
    int start = name.lastIndexOf(SEPARATOR) + 1;
    if (start < name.length() && name.charAt(start) == '/') {
      start++; // an index entry: KEY_END
    }
    return name.substring(start);
  }

  /** The repository slot of shard {@code i} for {@code key}: a rotation so load spreads. */
  public static int rotation(String bucket, String key, int totalShards) {
    CRC32 crc = new CRC32();
    crc.update((bucket + "/" + key).getBytes(StandardCharsets.UTF_8));
    return (int) (crc.getValue() % totalShards);
  }

  private static boolean startsWith(byte[] bytes, String ascii) {
    if (bytes.length < ascii.length()) {
      return false;
    }
    for (int i = 0; i < ascii.length(); i++) {
      if (bytes[i] != ascii.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  public static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  static String sha256Hex(String s) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(sha.digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Serialises a record with its CRC line. */
  public static byte[] encode(Object record) {
    try {
      String json = JSON.writeValueAsString(record);
      CRC32C crc = new CRC32C();
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      crc.update(bytes);
      return (json + CRC_LINE + String.format(Locale.ROOT, "%08x", crc.getValue()))
          .getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + record.getClass().getSimpleName(), e);
    }
  }

  /** Serialises an inline version's record on one repository: its shard, then the record. */
  public static byte[] encodeInline(Object record, byte[] shard) {
    byte[] header = (INLINE_HEADER + shard.length + "\n").getBytes(StandardCharsets.US_ASCII);
    byte[] body = encode(record);
    byte[] stored = new byte[header.length + shard.length + body.length];
    System.arraycopy(header, 0, stored, 0, header.length);
    System.arraycopy(shard, 0, stored, header.length, shard.length);
    System.arraycopy(body, 0, stored, header.length + shard.length, body.length);
    return stored;
  }

  /** Where the shard of {@code shardBytes} starts in an inline record. */
  public static int inlineOffset(long shardBytes) {
    return (INLINE_HEADER + shardBytes + "\n").length();
  }

  /**
   * The shard length an inline record declares, or empty when {@code stored} is not an inline
   * record (or its header is damaged, or declares more bytes than there are).
   */
  public static OptionalInt inlineLength(byte[] stored) {
    if (!startsWith(stored, INLINE_HEADER)) {
      return OptionalInt.empty();
    }
    int newline = INLINE_HEADER.length();
    while (newline < stored.length && newline < 32 && stored[newline] != '\n') {
      newline++;
    }
    int length;
    try {
      length =
          Integer.parseInt(
              new String(
                  stored,
                  INLINE_HEADER.length(),
                  newline - INLINE_HEADER.length(),
                  StandardCharsets.US_ASCII));
    } catch (NumberFormatException e) {
      return OptionalInt.empty();
    }
    if (length < 0 || (long) newline + 1 + length > stored.length) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(length);
  }

  /** Parses a record, or empty when it is damaged (bad CRC, bad JSON). */
  public static <T> Optional<T> decode(byte[] stored, Class<T> type) {
    int start = 0;
    if (startsWith(stored, INLINE_HEADER)) {
      OptionalInt length = inlineLength(stored);
      if (length.isEmpty()) {
        return Optional.empty();
      }
      start = inlineOffset(length.getAsInt()) + length.getAsInt();
    }
    String text = new String(stored, start, stored.length - start, StandardCharsets.UTF_8);
    int at = text.lastIndexOf(CRC_LINE);
    if (at < 0) {
      return Optional.empty();
    }
    String json = text.substring(0, at);
    CRC32C crc = new CRC32C();
    crc.update(json.getBytes(StandardCharsets.UTF_8));
    String expected = String.format(Locale.ROOT, "%08x", crc.getValue());
    if (!expected.equals(text.substring(at + CRC_LINE.length()).trim())) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readValue(json, type));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
