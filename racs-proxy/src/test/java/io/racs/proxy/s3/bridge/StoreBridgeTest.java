package io.racs.proxy.s3.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.racs.proxy.codec.Geometry;
import io.racs.proxy.s3.bridge.ChunkedStream.Chunk;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.StoreConfig;
import io.racs.proxy.store.StoreException;
import io.racs.repos.Repository;
import io.racs.repos.memory.MemoryRepository;
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
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves that the bridge is the one translation from a failure to the S3 error a client receives:
 * S3 errors pass through, every store code maps to its S3 code (with the store's message only where
 * it names nothing internal), overload is a retryable 503, and anything else hides behind {@code
 * InternalError}; that a request body the S3 layer refuses while the store reads it keeps its S3
 * error, small (inline) or striped, whole object or part, with nothing stored; and that the S3 view
 * the bridge builds from the store's records keeps what handlers answer with (part ranges,
 * composite checksums, bodies handed out without a copy).
 */
class StoreBridgeTest {
  private static final int MIB = 1 << 20;
  private static final String BUCKET = "bucket";
  private static final PutOptions NO_OPTIONS = new PutOptions(null, Map.of(), Map::of, Map.of());

  private final ErasureStore store = openStore();
  private final StoreBridge bridge = new StoreBridge(store);

  private static ErasureStore openStore() {
    Geometry geometry = Geometry.parse("4x2");
    List<Repository> repositories = new ArrayList<>();
    for (int i = 0; i < geometry.totalShards(); i++) {
      repositories.add(MemoryRepository.create("mem" + i));
    }
    ErasureStore store =
        ErasureStore.open(StoreConfig.builder(geometry).minPartBytes(1).build(), repositories);
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
    String uploadId = bridge.createMultipartUpload(BUCKET, "k", NO_OPTIONS);
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
                    Map::of));
    assertThat(e.code()).isEqualTo(S3ErrorCode.X_AMZ_CONTENT_SHA256_MISMATCH);
    assertThat(bridge.listParts(BUCKET, "k", uploadId)).isEmpty();
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
  void translate_whenStoreExceptionCarriesAnS3Error_answersByTheStoreCode() {
    // Body refusals are recognised by the bridge on the way back, not dug out of the store's
    // exceptions: a store failure is translated by its own code.
    IOException body = refused(S3ErrorCode.BAD_DIGEST);
    S3Exception e =
        StoreBridge.translate(
            new StoreException(StoreException.Code.INCOMPLETE_BODY, "request body failed", body),
            "/b/k");
    assertThat(e.code()).isEqualTo(S3ErrorCode.INCOMPLETE_BODY);
  }

  @Test
  void translate_whenFailures_mapsThemOnce() {
    S3Exception s3 = S3Exception.of(S3ErrorCode.NO_SUCH_BUCKET);
    assertThat(StoreBridge.translate(new CompletionException(s3))).isSameAs(s3);
    assertThat(StoreBridge.translate(new IllegalStateException("bug")).code())
        .isEqualTo(S3ErrorCode.INTERNAL_ERROR);
    assertThat(StoreBridge.translate(new IllegalStateException("bug")).getMessage())
        .doesNotContain("bug");
    assertThat(StoreBridge.translate(new RejectedExecutionException()).code())
        .isEqualTo(S3ErrorCode.SLOW_DOWN);
    assertThat(StoreBridge.translate(new RuntimeException(), "/b").resource()).isEqualTo("/b");
  }

  @Test
  void translate_whenStoreFails_answersTheS3CodeAndNamesTheResource() {
    S3Exception missing =
        StoreBridge.translate(
            new StoreException(StoreException.Code.NO_SUCH_KEY, "no key k"), "/b/k");
    assertThat(missing.code()).isEqualTo(S3ErrorCode.NO_SUCH_KEY);
    assertThat(missing.getMessage()).isEqualTo("no key k");
    assertThat(missing.resource()).isEqualTo("/b/k");
    assertThat(
            StoreBridge.translate(
                    new StoreException(StoreException.Code.BUCKET_ALREADY_EXISTS, "exists"), "/b")
                .code())
        .isEqualTo(S3ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU);
  }

  /** Today's answer for each store code; a new code must be given one here. */
  private static final Map<StoreException.Code, S3ErrorCode> EXPECTED =
      Map.ofEntries(
          Map.entry(StoreException.Code.NO_SUCH_BUCKET, S3ErrorCode.NO_SUCH_BUCKET),
          Map.entry(
              StoreException.Code.BUCKET_ALREADY_EXISTS, S3ErrorCode.BUCKET_ALREADY_OWNED_BY_YOU),
          Map.entry(StoreException.Code.BUCKET_NOT_EMPTY, S3ErrorCode.BUCKET_NOT_EMPTY),
          Map.entry(StoreException.Code.NO_SUCH_KEY, S3ErrorCode.NO_SUCH_KEY),
          Map.entry(StoreException.Code.NO_SUCH_VERSION, S3ErrorCode.NO_SUCH_VERSION),
          Map.entry(StoreException.Code.NO_SUCH_UPLOAD, S3ErrorCode.NO_SUCH_UPLOAD),
          Map.entry(StoreException.Code.INVALID_PART, S3ErrorCode.INVALID_PART),
          Map.entry(StoreException.Code.INVALID_PART_ORDER, S3ErrorCode.INVALID_PART_ORDER),
          Map.entry(StoreException.Code.ENTITY_TOO_SMALL, S3ErrorCode.ENTITY_TOO_SMALL),
          Map.entry(StoreException.Code.INVALID_RANGE, S3ErrorCode.INVALID_RANGE),
          Map.entry(StoreException.Code.BAD_DIGEST, S3ErrorCode.BAD_DIGEST),
          Map.entry(StoreException.Code.INVALID_ARGUMENT, S3ErrorCode.INVALID_ARGUMENT),
          Map.entry(StoreException.Code.INSUFFICIENT_SHARDS, S3ErrorCode.SERVICE_UNAVAILABLE),
          Map.entry(StoreException.Code.INSUFFICIENT_STORAGE, S3ErrorCode.X_MINIO_STORAGE_FULL),
          Map.entry(StoreException.Code.INCOMPLETE_BODY, S3ErrorCode.INCOMPLETE_BODY),
          Map.entry(StoreException.Code.COORDINATION_UNAVAILABLE, S3ErrorCode.SERVICE_UNAVAILABLE),
          Map.entry(StoreException.Code.INCONSISTENT, S3ErrorCode.INTERNAL_ERROR),
          Map.entry(StoreException.Code.ENCRYPTION_NOT_CONFIGURED, S3ErrorCode.NOT_IMPLEMENTED),
          Map.entry(StoreException.Code.CUSTOMER_KEY_REQUIRED, S3ErrorCode.INVALID_REQUEST),
          Map.entry(StoreException.Code.CUSTOMER_KEY_MISMATCH, S3ErrorCode.ACCESS_DENIED),
          Map.entry(StoreException.Code.ENCRYPTION_MISMATCH, S3ErrorCode.INVALID_REQUEST));

  @ParameterizedTest
  @EnumSource(StoreException.Code.class)
  void translate_whenStoreCode_answersItsS3CodeWithTheStoresMessageOnlyIfHarmless(
      StoreException.Code code) {
    S3Exception e = StoreBridge.translate(new StoreException(code, "store says"), "/b/k");
    S3ErrorCode expected = EXPECTED.get(code);
    assertThat(e.code()).isEqualTo(expected);
    assertThat(e.resource()).isEqualTo("/b/k");
    assertThat(e.getMessage())
        .isEqualTo(
            code == StoreException.Code.INSUFFICIENT_SHARDS
                ? StoreBridge.QUORUM_LOST
                : code == StoreException.Code.COORDINATION_UNAVAILABLE
                    ? StoreBridge.COORDINATION_LOST
                    // A 501 says what is not configured; other 5xx hide the store's words.
                    : expected.httpStatus() >= 500 && expected != S3ErrorCode.NOT_IMPLEMENTED
                        ? expected.defaultMessage()
                        : "store says");
  }

  @Test
  void translate_whenQuorumLostOrFull_hidesTheRepositoriesBehindTheDefaultMessage() {
    StoreException lost =
        new StoreException(
            StoreException.Code.INSUFFICIENT_SHARDS,
            "2 of 6 answered",
            List.of(new StoreException.ShardFailure(3, "secret-repo", "refused")),
            null);
    S3Exception unavailable = StoreBridge.translate(lost, "/b/k");
    assertThat(unavailable.code()).isEqualTo(S3ErrorCode.SERVICE_UNAVAILABLE);
    assertThat(unavailable.httpStatus()).isEqualTo(503);
    assertThat(unavailable.getMessage())
        .isEqualTo(StoreBridge.QUORUM_LOST)
        .doesNotContain("secret-repo")
        .doesNotContain("reduce your request rate");
    S3Exception full =
        StoreBridge.translate(
            new StoreException(StoreException.Code.INSUFFICIENT_STORAGE, "slot 2 full"), "/b/k");
    assertThat(full.code()).isEqualTo(S3ErrorCode.X_MINIO_STORAGE_FULL);
    assertThat(full.getMessage()).doesNotContain("slot");
  }

  @Test
  void completeMultipartUpload_whenTwoParts_viewsPartsChecksumsAndReadsAPart() throws IOException {
    Random random = new Random(TestSeed.get());
    byte[] first = new byte[3000 + random.nextInt(3000)];
    byte[] second = new byte[1 + random.nextInt(3000)];
    random.nextBytes(first);
    random.nextBytes(second);
    String uploadId = bridge.createMultipartUpload(BUCKET, "k", NO_OPTIONS);
    UploadedPart one =
        bridge.uploadPart(
            BUCKET,
            "k",
            uploadId,
            1,
            new ByteArrayInputStream(first),
            first.length,
            () -> Map.of("CRC32", "one"));
    UploadedPart two =
        bridge.uploadPart(
            BUCKET,
            "k",
            uploadId,
            2,
            new ByteArrayInputStream(second),
            second.length,
            () -> Map.of("CRC32", "two"));
    assertThat(bridge.listParts(BUCKET, "k", uploadId)).containsExactly(one, two);
    AtomicReference<List<PartChecksums>> seen = new AtomicReference<>();
    ObjectVersion completed =
        bridge.completeMultipartUpload(
            BUCKET,
            "k",
            uploadId,
            List.of(new CompletedPart(1, one.etag()), new CompletedPart(2, two.etag())),
            checksums -> {
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
    try (ObjectReader reader = bridge.read(head, first.length, second.length)) {
      assertThat(reader.rangeLength()).isEqualTo(second.length);
      assertThat(reader.body().readAllBytes()).isEqualTo(second);
    }
  }

  @Test
  void get_whenStoreHandsOutChunks_bodyIsAChunkedStreamOfTheBytes() throws IOException {
    byte[] data = new byte[3 * MIB + 17];
    new Random(TestSeed.get()).nextBytes(data);
    bridge.put(
        BUCKET,
        "k",
        new ByteArrayInputStream(data),
        data.length,
        new PutOptions("text/plain", Map.of("a", "b"), Map::of, Map.of("Cache-Control", "no")),
        WriteCondition.NONE);
    try (ObjectReader reader = bridge.get(BUCKET, "k", 0, -1, 0)) {
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
