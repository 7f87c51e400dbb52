package io.racs.repos.gcs;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of a {@code gcs} repository; immutable, built with {@link #builder(String,
 * GcsCredentials)}.
 *
 * @param bucket the bucket, which must exist unless {@code create} is set
 * @param endpoint the service's root URL, e.g. {@code http://127.0.0.1:4443} for fake-gcs-server or
 *     a private endpoint; empty for {@code https://storage.googleapis.com}
 * @param keyPrefix prepended, unescaped, to every object name, e.g. {@code racs/} to share a bucket
 * @param projectId the project that owns the bucket, used only to create it; empty for the service
 *     account file's project, or the environment's with application default credentials
 * @param credentials how requests are authenticated
 * @param create whether {@link GcsRepository#probe()} creates the bucket when it does not exist
 * @param connectTimeout the TCP connect timeout
 * @param readTimeout the longest wait for the next bytes of a response
 * @param maxAttempts attempts per request, including the first (transient failures of requests that
 *     are safe to repeat only, with exponential backoff)
 * @param retryDelay the first retry's delay; each further one doubles, up to {@code maxRetryDelay}
 * @param maxRetryDelay the longest delay between attempts
 * @param blockSizeBytes the largest upload sent as one request, and the chunk size of larger,
 *     resumable ones (a multiple of 256 KiB); an upload holds up to twice this in memory
 */
public record GcsOptions(
    String bucket,
    Optional<URI> endpoint,
    String keyPrefix,
    Optional<String> projectId,
    GcsCredentials credentials,
    boolean create,
    Duration connectTimeout,
    Duration readTimeout,
    int maxAttempts,
    Duration retryDelay,
    Duration maxRetryDelay,
    int blockSizeBytes) {
  /** The unit of resumable upload chunks. */
  public static final int CHUNK_UNIT_BYTES = 256 << 10;

  /** Checks the fields. */
  public GcsOptions {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(keyPrefix, "keyPrefix");
    Objects.requireNonNull(projectId, "projectId");
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(readTimeout, "readTimeout");
    Objects.requireNonNull(retryDelay, "retryDelay");
    Objects.requireNonNull(maxRetryDelay, "maxRetryDelay");
    // Google's rule, without the dotted names' per-component limit: 3 to 63 characters, or up to
    // 222 with dots, of lower-case letters, digits, '-', '_' and '.', starting and ending with a
    // letter or digit.
    if (!bucket.matches("[a-z0-9][a-z0-9_.-]{1,220}[a-z0-9]")
        || (bucket.length() > 63 && bucket.indexOf('.') < 0)) {
      throw new IllegalArgumentException(
          "bucket: "
              + bucket
              + " (expected: 3 to 63 lower-case letters, digits, '-' and '_', or up to 222 with"
              + " dots)");
    }
    if (credentials instanceof GcsCredentials.None && endpoint.isEmpty()) {
      throw new IllegalArgumentException(
          "credentials: none (expected: an endpoint, such as an emulator's, for unauthenticated"
              + " requests)");
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts: " + maxAttempts + " (expected: >= 1)");
    }
    if (blockSizeBytes < CHUNK_UNIT_BYTES
        || blockSizeBytes > 1 << 30
        || blockSizeBytes % CHUNK_UNIT_BYTES != 0) {
      throw new IllegalArgumentException(
          "blockSizeBytes: " + blockSizeBytes + " (expected: a multiple of 256KiB up to 1GiB)");
    }
    for (Duration d : new Duration[] {connectTimeout, readTimeout}) {
      if (d.isNegative() || d.isZero() || d.toMillis() > Integer.MAX_VALUE) {
        throw new IllegalArgumentException(
            "timeout: " + d + " (expected: from 1ms to " + Integer.MAX_VALUE + "ms)");
      }
    }
  }

  /** Options for {@code bucket} with {@code credentials} and defaults for the rest. */
  public static Builder builder(String bucket, GcsCredentials credentials) {
    return new Builder(bucket, credentials);
  }

  /** Builds {@link GcsOptions}. */
  public static final class Builder {
    private final String bucket;
    private final GcsCredentials credentials;
    private URI endpoint;
    private String keyPrefix = "";
    private String projectId;
    private boolean create;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration readTimeout = Duration.ofSeconds(30);
    private int maxAttempts = 3;
    private Duration retryDelay = Duration.ofMillis(100);
    private Duration maxRetryDelay = Duration.ofSeconds(5);
    private int blockSizeBytes = 8 << 20;

    private Builder(String bucket, GcsCredentials credentials) {
      this.bucket = bucket;
      this.credentials = credentials;
    }

    /** The service's root URL; see {@link GcsOptions#endpoint()}. */
    public Builder endpoint(URI endpoint) {
      this.endpoint = endpoint;
      return this;
    }

    /** The prefix of every object name; default none. */
    public Builder keyPrefix(String keyPrefix) {
      this.keyPrefix = keyPrefix;
      return this;
    }

    /** The project that owns the bucket; see {@link GcsOptions#projectId()}. */
    public Builder projectId(String projectId) {
      this.projectId = projectId;
      return this;
    }

    /** Whether {@link GcsRepository#probe()} creates a missing bucket; default false. */
    public Builder create(boolean create) {
      this.create = create;
      return this;
    }

    /** The TCP connect timeout; default 5 s. */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = connectTimeout;
      return this;
    }

    /** The longest wait for a response's next bytes; default 30 s. */
    public Builder readTimeout(Duration readTimeout) {
      this.readTimeout = readTimeout;
      return this;
    }

    /** Attempts per request, including the first; default 3. */
    public Builder maxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
      return this;
    }

    /** The first retry delay and the longest; default 100 ms and 5 s. */
    public Builder retryDelay(Duration first, Duration max) {
      this.retryDelay = first;
      this.maxRetryDelay = max;
      return this;
    }

    /** The single-request upload limit and resumable chunk size; default 8 MiB. */
    public Builder blockSizeBytes(int blockSizeBytes) {
      this.blockSizeBytes = blockSizeBytes;
      return this;
    }

    /** The options. */
    public GcsOptions build() {
      return new GcsOptions(
          bucket,
          Optional.ofNullable(endpoint),
          keyPrefix,
          Optional.ofNullable(projectId),
          credentials,
          create,
          connectTimeout,
          readTimeout,
          maxAttempts,
          retryDelay,
          maxRetryDelay,
          blockSizeBytes);
    }
  }
}
