package io.racs.proxy.s3.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.racs.proxy.s3.bridge.ChunkedStream.Chunk;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.testing.TestArray;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves that a request body the S3 layer refuses while the store reads it keeps its S3 error
 * through the bridge, small (inline) or striped, whole object or part, with nothing stored; that
 * bucket documents are kept by kind; and that the S3 view the bridge builds from the store's
 * records keeps what handlers answer with (part ranges, composite checksums, bodies handed out
 * without a copy). The translation of failures is {@code StoreErrorsTest}'s.
 */
class StoreBridgeTest {
  private static final int MIB = 1 << 20;
  private static final String BUCKET = "bucket";
  private static final PutOptions NO_OPTIONS = new PutOptions(null, Map.of(), Map::of, Map.of());

  private final ErasureStore store = openStore();
  private final StoreBridge bridge = new StoreBridge(store);

  private static ErasureStore openStore() {
    ErasureStore store = TestArray.builder("4x2").minPartBytes(1).open().store();
    store.createBucket(BUCKET);
    return store;
  }

  @AfterEach
  void close() {
    store.close();
  }

  /** A body that yields {@code goodBytes} zero bytes, then fails with {@code failure}. */
  private static InputStream failingAfter(long goodBytes, IOException failure) {
    return new InputStream() {
      private long left = goodBytes;

      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : 0;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (left == 0) {
          throw failure;
        }
        int n = (int) Math.min(len, left);
        left -= n;
        return n;
      }
    };
  }

  private static IOException refused(S3ErrorCode code) {
    S3Exception refusal = S3Exception.of(code, "refused by the S3 layer");
    return new IOException(refusal.getMessage(), refusal);
  }

  @ParameterizedTest(name = "{0} bytes before the refusal")
  @ValueSource(longs = {1024, 3L * MIB})
  void put_whenBodyRefusedMidway_answersTheBodysErrorAndStoresNothing(long goodBytes) {
    S3Exception e =
        catchThrowableOfType(
            S3Exception.class,
            () ->
                bridge.put(
                    BUCKET,
                    "k",
                    failingAfter(goodBytes, refused(S3ErrorCode.BAD_DIGEST)),
                    goodBytes * 2,
                    NO_OPTIONS,
                    WriteCondition.NONE));
    assertThat(e.code()).isEqualTo(S3ErrorCode.BAD_DIGEST);
    assertThat(e.getMessage()).isEqualTo("refused by the S3 layer");
    assertThat(e.resource()).isEqualTo("/bucket/k");
    assertThat(catchThrowableOfType(S3Exception.class, () -> bridge.head(BUCKET, "k")).code())
        .isEqualTo(S3ErrorCode.NO_SUCH_KEY);
  }

  @Test
  void uploadPart_whenBodyRefusedMidway_answersTheBodysError() {
    String uploadId = bridge.createMultipartUpload(BUCKET, "k", NO_OPTIONS, null, null);
    S3Exception e =
        catchThrowableOfType(
            S3Exception.class,
            () ->
                bridge.uploadPart(
                    BUCKET,
                    "k",
                    uploadId,
                    1,
                    failingAfter(2L * MIB, refused(S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH)),
                    -1,
                    Map::of,
                    null,
                    upload -> {}));
    assertThat(e.code()).isEqualTo(S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH);
    assertThat(bridge.parts(BUCKET, "k", uploadId).parts()).isEmpty();
  }

  @Test
  void put_whenBodyFailsWithoutAnS3Error_answersTheStoresIncompleteBody() {
    S3Exception e =
        catchThrowableOfType(
            S3Exception.class,
            () ->
                bridge.put(
                    BUCKET,
                    "k",
                    failingAfter(2L * MIB, new IOException("connection reset")),
                    4L * MIB,
                    NO_OPTIONS,
                    WriteCondition.NONE));
    assertThat(e.code()).isEqualTo(S3ErrorCode.INCOMPLETE_BODY);
    assertThat(e.resource()).isEqualTo("/bucket/k");
  }

  @Test
  void bucketDocument_whenEachKindPut_readsBackItsOwnAndDeletesOnlyIt() {
    for (BucketDocument kind : BucketDocument.values()) {
      bridge.putBucketDocument(BUCKET, kind, "<" + kind + "/>");
    }
    for (BucketDocument kind : BucketDocument.values()) {
      assertThat(bridge.bucketDocument(BUCKET, kind)).hasValue("<" + kind + "/>");
    }
    assertThat(bridge.bucketEncryptionRecently(BUCKET)).hasValue("<ENCRYPTION/>");

    bridge.deleteBucketDocument(BUCKET, BucketDocument.LIFECYCLE);
    for (BucketDocument kind : BucketDocument.values()) {
      assertThat(bridge.bucketDocument(BUCKET, kind))
          .isEqualTo(
              kind == BucketDocument.LIFECYCLE ? Optional.empty() : Optional.of("<" + kind + "/>"));
    }
    S3Exception missing =
        catchThrowableOfType(
            S3Exception.class, () -> bridge.bucketDocument("nobucket", BucketDocument.CORS));
    assertThat(missing.code()).isEqualTo(S3ErrorCode.NO_SUCH_BUCKET);
    assertThat(missing.resource()).isEqualTo("/nobucket");
  }

  @Test
  void completeMultipartUpload_whenTwoParts_viewsPartsChecksumsAndReadsAPart() throws IOException {
    Random random = new Random(TestSeed.get());
    byte[] first = SeededBytes.bytes(random.nextLong(), 3000 + random.nextInt(3000));
    byte[] second = SeededBytes.bytes(random.nextLong(), 1 + random.nextInt(3000));
    String uploadId = bridge.createMultipartUpload(BUCKET, "k", NO_OPTIONS, "CRC32", "COMPOSITE");
    List<MultipartUpload> checked = new ArrayList<>();
    UploadedPart one =
        bridge.uploadPart(
            BUCKET,
            "k",
            uploadId,
            1,
            new ByteArrayInputStream(first),
            first.length,
            () -> Map.of("CRC32", "one"),
            null,
            checked::add);
    UploadedPart two =
        bridge.uploadPart(
            BUCKET,
            "k",
            uploadId,
            2,
            new ByteArrayInputStream(second),
            second.length,
            () -> Map.of("CRC32", "two"),
            null,
            checked::add);
    assertThat(checked)
        .extracting(MultipartUpload::checksumAlgorithm, MultipartUpload::checksumType)
        .containsOnly(org.assertj.core.groups.Tuple.tuple("CRC32", "COMPOSITE"));
    PartListing listing = bridge.parts(BUCKET, "k", uploadId);
    assertThat(listing.parts()).containsExactly(one, two);
    assertThat(listing.upload().checksumAlgorithm()).isEqualTo("CRC32");
    AtomicReference<List<PartChecksums>> seen = new AtomicReference<>();
    ObjectVersion completed =
        bridge.completeMultipartUpload(
            BUCKET,
            "k",
            uploadId,
            List.of(new CompletedPart(1, one.etag()), new CompletedPart(2, two.etag())),
            (upload, checksums) -> {
              assertThat(upload.checksumType()).isEqualTo("COMPOSITE");
              seen.set(checksums);
              return Map.of("CRC32", "composite-2");
            },
            WriteCondition.NONE);

    assertThat(seen.get())
        .containsExactly(
            new PartChecksums(first.length, Map.of("CRC32", "one")),
            new PartChecksums(second.length, Map.of("CRC32", "two")));
    ObjectVersion head = bridge.head(BUCKET, "k");
    assertThat(head.etag()).isEqualTo(completed.etag()).endsWith("-2");
    assertThat(head.checksums()).isEqualTo(Map.of("CRC32", "composite-2"));
    assertThat(head.multipart()).isTrue();
    assertThat(head.sizeBytes()).isEqualTo(first.length + second.length);
    assertThat(head.partCount()).isEqualTo(2);
    assertThat(head.partRange(1))
        .hasValueSatisfying(r -> assertThat(r).containsExactly(0, first.length));
    assertThat(head.partRange(2))
        .hasValueSatisfying(r -> assertThat(r).containsExactly(first.length, second.length));
    assertThat(head.partRange(3)).isEqualTo(Optional.empty());
    try (ObjectReader reader = bridge.read(head, first.length, second.length, null)) {
      assertThat(reader.rangeLength()).isEqualTo(second.length);
      assertThat(reader.body().readAllBytes()).isEqualTo(second);
    }
  }

  @Test
  void get_whenStoreHandsOutChunks_bodyIsAChunkedStreamOfTheBytes() throws IOException {
    byte[] data = SeededBytes.bytes(TestSeed.get(), 3 * MIB + 17);
    bridge.put(
        BUCKET,
        "k",
        new ByteArrayInputStream(data),
        data.length,
        new PutOptions("text/plain", Map.of("a", "b"), Map::of, Map.of("Cache-Control", "no")),
        WriteCondition.NONE);
    try (ObjectReader reader = bridge.get(BUCKET, "k", 0, -1, 0, null)) {
      assertThat(reader.version().contentType()).isEqualTo("text/plain");
      assertThat(reader.version().userMetadata()).isEqualTo(Map.of("a", "b"));
      assertThat(reader.version().contentHeaders()).isEqualTo(Map.of("Cache-Control", "no"));
      assertThat(reader.version().partCount()).isEqualTo(1);
      assertThat(reader.body()).isInstanceOf(ChunkedStream.class);
      ChunkedStream chunks = (ChunkedStream) reader.body();
      ByteArrayOutputStream read = new ByteArrayOutputStream();
      for (Chunk c = chunks.nextChunk(); c != null; c = chunks.nextChunk()) {
        read.write(c.array(), c.offset(), c.length());
      }
      assertThat(read.toByteArray()).isEqualTo(data);
    }
  }
}
