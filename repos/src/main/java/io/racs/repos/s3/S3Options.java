package io.racs.repos.s3;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of an {@code s3} repository; immutable, built with {@link #builder(String)}. The
 * defaults suit AWS S3; for MinIO set an endpoint and {@code pathStyle(true)}.
 *
 * @param bucket the bucket, which must exist unless {@code createBucket}
 * @param endpoint the S3 endpoint, or empty for AWS S3 in {@code region}
 * @param region the signing region
 * @param keyPrefix prepended to every stored name, e.g. {@code racs/} to share a bucket
 * @param credentials where the keys come from
 * @param pathStyle path-style addressing ({@code http://host/bucket/key}), which MinIO needs
 * @param connectTimeout the TCP connect timeout
 * @param readTimeout the socket read timeout: the longest silence while waiting for bytes
 * @param maxAttempts attempts per request, including the first (retries are transient failures
 *     only, with exponential backoff and jitter)
 * @param backoffBase the first retry's backoff; each further one doubles, up to {@code backoffMax}
 * @param backoffMax the longest backoff
 * @param maxConnections the HTTP connection pool size
 * @param partSizeBytes the multipart part size, and the largest single PUT; at least 5 MiB, and
 *     also the one buffer an upload holds in memory
 * @param keyEncoding how keys become stored names
 * @param checksums when the SDK adds flexible checksums to requests and checks them on responses
 * @param createBucket whether a missing bucket is created by the repository's first call, instead
 *     of every call failing {@code UNAVAILABLE}
 * @param expectContinueBytes the smallest body a PUT sends only after the store answered {@code 100
 *     Continue} to its headers ({@code Expect: 100-continue}): a large shard is then not sent to a
 *     store that refuses it (403, 503, a full disk) or does not answer; a smaller body goes with
 *     its headers, saving the round trip; {@link #EXPECT_CONTINUE_NEVER} for none
 */
public record S3Options(
    String bucket,
    Optional<URI> endpoint,
    String region,
    String keyPrefix,
    S3Credentials credentials,
    boolean pathStyle,
    Duration connectTimeout,
    Duration readTimeout,
    int maxAttempts,
    Duration backoffBase,
    Duration backoffMax,
    int maxConnections,
    int partSizeBytes,
    KeyEncoding keyEncoding,
    Checksums checksums,
    boolean createBucket,
    long expectContinueBytes) {
  /** S3's smallest part size (except the last part). */
  public static final int MIN_PART_SIZE_BYTES = 5 * 1024 * 1024;

  /** {@link #expectContinueBytes} for a repository whose PUTs never wait for 100 Continue. */
  public static final long EXPECT_CONTINUE_NEVER = Long.MAX_VALUE;

  /** {@link #expectContinueBytes}'s default: 1 MiB. */
  public static final long DEFAULT_EXPECT_CONTINUE_BYTES = 1L << 20;

  /** S3's largest key, in bytes, including the prefix. */
  public static final int MAX_STORED_KEY_BYTES = 1024;

  /** How keys become stored names. */
  public enum KeyEncoding {
    /**
     * Through {@link io.racs.repos.KeyCodec} (the default): every key works on MinIO and AWS alike,
     * ordinary keys stay readable, and keys whose escaped form exceeds 1024 bytes are refused.
     */
    ESCAPED,
    /**
     * Verbatim: names in the bucket are the keys themselves. Suits AWS S3 and existing data; MinIO
     * refuses or mangles {@code ..}, {@code //}, a leading {@code /} and segments over 255 bytes.
     */
    RAW
  }

  /**
   * When requests carry the SDK's flexible checksums ({@code x-amz-checksum-*} headers or trailers,
   * {@code x-amz-sdk-checksum-algorithm}) and responses are checked against them.
   */
  public enum Checksums {
    /**
     * Whenever the operation supports one (the default, the SDK's own): every PutObject and
     * UploadPart carries a CRC32, sent as a trailer of an aws-chunked body, and multipart uploads
     * are created with the CRC32 algorithm.
     */
    WHEN_SUPPORTED,
    /**
     * Only where the operation requires one (none of the calls a repository makes): for stores that
     * refuse or mishandle the headers (GCS's interoperability API, older Backblaze B2, some
     * on-premises stores). Bodies then carry a {@code Content-MD5} instead, which every S3 store
     * checks, so a body damaged on the way is still refused.
     */
    WHEN_REQUIRED
  }

  /** Checks the settings. */
  public S3Options {
    if (bucket == null || bucket.isEmpty()) {
      throw new IllegalArgumentException("bucket: empty (expected: a bucket name)");
    }
    Objects.requireNonNull(endpoint, "endpoint");
    if (region == null || region.isEmpty()) {
      throw new IllegalArgumentException("region: empty (expected: e.g. us-east-1)");
    }
    Objects.requireNonNull(keyPrefix, "keyPrefix");
    if (keyPrefix.getBytes(StandardCharsets.UTF_8).length >= MAX_STORED_KEY_BYTES) {
      throw new IllegalArgumentException(
          "keyPrefix: " + keyPrefix.length() + " chars (expected: well under 1024 bytes)");
    }
    Objects.requireNonNull(credentials, "credentials");
    requirePositive(connectTimeout, "connectTimeout");
    requirePositive(readTimeout, "readTimeout");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts: " + maxAttempts + " (expected: >= 1)");
    }
    requirePositive(backoffBase, "backoffBase");
    requirePositive(backoffMax, "backoffMax");
    if (maxConnections < 1) {
      throw new IllegalArgumentException("maxConnections: " + maxConnections + " (expected: >= 1)");
    }
    if (partSizeBytes < MIN_PART_SIZE_BYTES) {
      throw new IllegalArgumentException(
          "partSizeBytes: " + partSizeBytes + " (expected: >= " + MIN_PART_SIZE_BYTES + ")");
    }
    Objects.requireNonNull(keyEncoding, "keyEncoding");
    Objects.requireNonNull(checksums, "checksums");
    if (expectContinueBytes < 0) {
      throw new IllegalArgumentException(
          "expectContinueBytes: " + expectContinueBytes + " (expected: >= 0)");
    }
  }

  private static void requirePositive(Duration duration, String name) {
    if (duration == null || duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + ": " + duration + " (expected: > 0)");
    }
  }

  /** Starts building options for {@code bucket}. */
  public static Builder builder(String bucket) {
    return new Builder(bucket);
  }

  /** A builder initialised from these options. */
  public Builder toBuilder() {
    Builder b = new Builder(bucket);
    b.endpoint = endpoint.orElse(null);
    b.region = region;
    b.keyPrefix = keyPrefix;
    b.credentials = credentials;
    b.pathStyle = pathStyle;
    b.connectTimeout = connectTimeout;
    b.readTimeout = readTimeout;
    b.maxAttempts = maxAttempts;
    b.backoffBase = backoffBase;
    b.backoffMax = backoffMax;
    b.maxConnections = maxConnections;
    b.partSizeBytes = partSizeBytes;
    b.keyEncoding = keyEncoding;
    b.checksums = checksums;
    b.createBucket = createBucket;
    b.expectContinueBytes = expectContinueBytes;
    return b;
  }

  /** Builds {@link S3Options}; every setting has a default except the bucket. */
  public static final class Builder {
    private final String bucket;
    private URI endpoint;
    private String region = "us-east-1";
    private String keyPrefix = "";
    private S3Credentials credentials = S3Credentials.defaultChain();
    private boolean pathStyle;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration readTimeout = Duration.ofSeconds(30);
    private int maxAttempts = 3;
    private Duration backoffBase = Duration.ofMillis(100);
    private Duration backoffMax = Duration.ofSeconds(5);
    private int maxConnections = 64;
    private int partSizeBytes = 8 * 1024 * 1024;
    private KeyEncoding keyEncoding = KeyEncoding.ESCAPED;
    private Checksums checksums = Checksums.WHEN_SUPPORTED;
    private boolean createBucket;
    private long expectContinueBytes = DEFAULT_EXPECT_CONTINUE_BYTES;

    private Builder(String bucket) {
      this.bucket = bucket;
    }

    /** The endpoint, e.g. {@code http://127.0.0.1:9000}; null for AWS. */
    public Builder endpoint(URI endpoint) {
      this.endpoint = endpoint;
      return this;
    }

    /** The signing region; default {@code us-east-1}. */
    public Builder region(String region) {
      this.region = region;
      return this;
    }

    /** A prefix for every stored name; default none. */
    public Builder keyPrefix(String keyPrefix) {
      this.keyPrefix = keyPrefix;
      return this;
    }

    /** The credentials; default the SDK's default chain. */
    public Builder credentials(S3Credentials credentials) {
      this.credentials = credentials;
      return this;
    }

    /** Path-style addressing; default false (virtual-host style). */
    public Builder pathStyle(boolean pathStyle) {
      this.pathStyle = pathStyle;
      return this;
    }

    /** The connect timeout; default 5 s. */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = connectTimeout;
      return this;
    }

    /** The read timeout; default 30 s. */
    public Builder readTimeout(Duration readTimeout) {
      this.readTimeout = readTimeout;
      return this;
    }

    /** Attempts per request including the first; default 3. */
    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    /** Backoff between attempts; default 100 ms doubling up to 5 s. */
    public Builder backoff(Duration base, Duration max) {
      this.backoffBase = base;
      this.backoffMax = max;
      return this;
    }

    /** The connection pool size; default 64. */
    public Builder maxConnections(int maxConnections) {
      this.maxConnections = maxConnections;
      return this;
    }

    /** The part size; default 8 MiB, at least 5 MiB. */
    public Builder partSizeBytes(int partSizeBytes) {
      this.partSizeBytes = partSizeBytes;
      return this;
    }

    /** How keys become stored names; default {@link KeyEncoding#ESCAPED}. */
    public Builder keyEncoding(KeyEncoding keyEncoding) {
      this.keyEncoding = keyEncoding;
      return this;
    }

    /** When requests carry flexible checksums; default {@link Checksums#WHEN_SUPPORTED}. */
    public Builder checksums(Checksums checksums) {
      this.checksums = checksums;
      return this;
    }

    /** Whether the first call creates a missing bucket; default false. */
    public Builder createBucket(boolean createBucket) {
      this.createBucket = createBucket;
      return this;
    }

    /**
     * The smallest PUT body sent with {@code Expect: 100-continue}; default 1 MiB, {@link
     * #EXPECT_CONTINUE_NEVER} for none.
     */
    public Builder expectContinueBytes(long expectContinueBytes) {
      this.expectContinueBytes = expectContinueBytes;
      return this;
    }

    /** Checks and builds the options. */
    public S3Options build() {
      return new S3Options(
          bucket,
          Optional.ofNullable(endpoint),
          region,
          keyPrefix,
          credentials,
          pathStyle,
          connectTimeout,
          readTimeout,
          maxAttempts,
          backoffBase,
          backoffMax,
          maxConnections,
          partSizeBytes,
          keyEncoding,
          checksums,
          createBucket,
          expectContinueBytes);
    }
  }
}
