package io.racs.repos.azure;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of an {@code azure} repository; immutable, built with {@link #builder(String,
 * AzureCredentials)}.
 *
 * @param container the blob container, which must exist unless {@code createContainer}
 * @param endpoint the blob service URL, e.g. {@code http://127.0.0.1:10000/devstoreaccount1} for
 *     Azurite or a sovereign cloud's endpoint; empty for {@code
 *     https://ACCOUNT.blob.core.windows.net} (or the connection string's own endpoint)
 * @param keyPrefix prepended, unescaped, to every blob name, e.g. {@code racs/} to share a
 *     container
 * @param credentials how requests are authenticated
 * @param serviceVersion the storage service version the client speaks (such as {@code 2025-11-05},
 *     what Azurite 3.35 knows); empty for the SDK's newest
 * @param connectTimeout the TCP connect timeout
 * @param tryTimeout the longest one attempt of a request may take
 * @param maxTries attempts per request, including the first (transient failures only, with
 *     exponential backoff)
 * @param retryDelay the first retry's delay; each further one doubles, up to {@code maxRetryDelay}
 * @param maxRetryDelay the longest delay between attempts
 * @param blockSizeBytes the largest single Put Blob, and the block size of larger uploads; also the
 *     buffer an upload holds in memory
 * @param createContainer whether a missing container is created by the repository's first call,
 *     instead of every call failing {@code UNAVAILABLE}
 */
public record AzureOptions(
    String container,
    Optional<URI> endpoint,
    String keyPrefix,
    AzureCredentials credentials,
    Optional<String> serviceVersion,
    Duration connectTimeout,
    Duration tryTimeout,
    int maxTries,
    Duration retryDelay,
    Duration maxRetryDelay,
    int blockSizeBytes,
    boolean createContainer) {
  /** Checks the fields. */
  public AzureOptions {
    Objects.requireNonNull(container, "container");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(keyPrefix, "keyPrefix");
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(serviceVersion, "serviceVersion");
    if (!container.matches("\\$root|[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,62}")) {
      throw new IllegalArgumentException(
          "container: " + container + " (expected: 3 to 63 lower-case letters, digits and dashes)");
    }
    if (endpoint.isEmpty() && credentials instanceof AzureCredentials.SasToken) {
      throw new IllegalArgumentException(
          "endpoint: none (expected: the blob service URL, which a SAS token does not name)");
    }
    if (maxTries < 1) {
      throw new IllegalArgumentException("maxTries: " + maxTries + " (expected: >= 1)");
    }
    if (blockSizeBytes < 1 << 16 || blockSizeBytes > 1 << 30) {
      throw new IllegalArgumentException(
          "blockSizeBytes: " + blockSizeBytes + " (expected: 64KiB to 1GiB)");
    }
  }

  /** Options for {@code container} with {@code credentials} and defaults for the rest. */
  public static Builder builder(String container, AzureCredentials credentials) {
    return new Builder(container, credentials);
  }

  /** Builds {@link AzureOptions}. */
  public static final class Builder {
    private final String container;
    private final AzureCredentials credentials;
    private URI endpoint;
    private String keyPrefix = "";
    private String serviceVersion;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration tryTimeout = Duration.ofSeconds(60);
    private int maxTries = 3;
    private Duration retryDelay = Duration.ofMillis(100);
    private Duration maxRetryDelay = Duration.ofSeconds(5);
    private int blockSizeBytes = 8 << 20;
    private boolean createContainer;

    private Builder(String container, AzureCredentials credentials) {
      this.container = container;
      this.credentials = credentials;
    }

    /** The blob service URL; see {@link AzureOptions#endpoint()}. */
    public Builder endpoint(URI endpoint) {
      this.endpoint = endpoint;
      return this;
    }

    /** The prefix of every blob name; default none. */
    public Builder keyPrefix(String keyPrefix) {
      this.keyPrefix = keyPrefix;
      return this;
    }

    /** The service version, such as {@code 2025-11-05}; default the SDK's newest. */
    public Builder serviceVersion(String serviceVersion) {
      this.serviceVersion = serviceVersion;
      return this;
    }

    /** The TCP connect timeout; default 5 s. */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = connectTimeout;
      return this;
    }

    /** The longest one attempt may take; default 60 s. */
    public Builder tryTimeout(Duration tryTimeout) {
      this.tryTimeout = tryTimeout;
      return this;
    }

    /** Attempts per request, including the first; default 3. */
    public Builder maxTries(int maxTries) {
      this.maxTries = maxTries;
      return this;
    }

    /** The first retry delay and the longest; default 100 ms and 5 s. */
    public Builder retryDelay(Duration first, Duration max) {
      this.retryDelay = first;
      this.maxRetryDelay = max;
      return this;
    }

    /** The single-upload limit and block size; default 8 MiB. */
    public Builder blockSizeBytes(int blockSizeBytes) {
      this.blockSizeBytes = blockSizeBytes;
      return this;
    }

    /** Whether the first call creates a missing container; default false. */
    public Builder createContainer(boolean createContainer) {
      this.createContainer = createContainer;
      return this;
    }

    /** The options. */
    public AzureOptions build() {
      return new AzureOptions(
          container,
          Optional.ofNullable(endpoint),
          keyPrefix,
          credentials,
          Optional.ofNullable(serviceVersion),
          connectTimeout,
          tryTimeout,
          maxTries,
          retryDelay,
          maxRetryDelay,
          blockSizeBytes,
          createContainer);
    }
  }
}
