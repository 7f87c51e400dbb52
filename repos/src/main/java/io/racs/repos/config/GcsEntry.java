package io.racs.repos.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.repos.gcs.GcsCredentials;
import io.racs.repos.gcs.GcsOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** {@code type: gcs}: a bucket in Google Cloud Storage (or fake-gcs-server). */
record GcsEntry(
    String name,
    String type,
    JsonNode decorators,
    String bucket,
    String prefix,
    String projectId,
    String credentialsFile,
    String endpoint,
    Boolean create,
    String connectTimeout,
    String readTimeout,
    Long retries,
    String backoff,
    String backoffMax,
    String blockSize)
    implements BackendEntry {

  @Override
  public BackendConfig backend(ConfigSection entry, String type) {
    return new BackendConfig.Gcs(options(entry));
  }

  private GcsOptions options(ConfigSection entry) {
    GcsOptions.Builder b =
        GcsOptions.builder(entry.required("bucket", bucket()), credentials(entry));
    if (endpoint() != null) {
      b.endpoint(entry.url("endpoint", endpoint(), "http://127.0.0.1:4443"));
    }
    Optional.ofNullable(prefix()).ifPresent(b::keyPrefix);
    if (projectId() != null) {
      b.projectId(entry.required("projectId", projectId()));
    }
    b.create(create() != null && create());
    entry
        .duration("connectTimeout", connectTimeout(), DURATION_EXAMPLE)
        .ifPresent(b::connectTimeout);
    entry.duration("readTimeout", readTimeout(), DURATION_EXAMPLE).ifPresent(b::readTimeout);
    b.maxAttempts((int) entry.range("retries", retries(), 2, 0, 100) + 1);
    b.retryDelay(
        entry.duration("backoff", backoff(), DURATION_EXAMPLE).orElse(Duration.ofMillis(100)),
        entry.duration("backoffMax", backoffMax(), DURATION_EXAMPLE).orElse(Duration.ofSeconds(5)));
    entry
        .size(
            "blockSize",
            blockSize(),
            GcsOptions.CHUNK_UNIT_BYTES,
            1L << 30,
            "a multiple of 256KiB up to 1GiB")
        .ifPresent(size -> b.blockSizeBytes((int) size));
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw entry.error("", e.getMessage());
    }
  }

  /**
   * A key file when one is named; otherwise none for an endpoint (an emulator), and application
   * default credentials for GCS itself.
   */
  private GcsCredentials credentials(ConfigSection entry) {
    if (credentialsFile() != null) {
      return GcsCredentials.serviceAccountFile(
          Path.of(entry.required("credentialsFile", credentialsFile())));
    }
    return endpoint() != null ? GcsCredentials.none() : GcsCredentials.applicationDefault();
  }
}
