package io.racs.repos.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.repos.azure.AzureCredentials;
import io.racs.repos.azure.AzureOptions;
import java.time.Duration;
import java.util.Optional;

/** {@code type: azure}: a container in Azure Blob Storage (or Azurite). */
record AzureEntry(
    String name,
    String type,
    JsonNode decorators,
    String container,
    String prefix,
    String endpoint,
    String connectionString,
    String accountName,
    String accountKey,
    String sasToken,
    String serviceVersion,
    String connectTimeout,
    String tryTimeout,
    Long retries,
    String backoff,
    String backoffMax,
    String blockSize,
    Boolean create)
    implements BackendEntry {

  @Override
  public BackendConfig backend(ConfigSection entry, String type) {
    return new BackendConfig.Azure(options(entry));
  }

  private AzureOptions options(ConfigSection entry) {
    AzureOptions.Builder b =
        AzureOptions.builder(entry.required("container", container()), credentials(entry));
    if (endpoint() != null) {
      b.endpoint(entry.url("endpoint", endpoint(), "http://host:9000"));
    }
    Optional.ofNullable(prefix()).ifPresent(b::keyPrefix);
    Optional.ofNullable(serviceVersion()).ifPresent(b::serviceVersion);
    entry
        .duration("connectTimeout", connectTimeout(), DURATION_EXAMPLE)
        .ifPresent(b::connectTimeout);
    entry.duration("tryTimeout", tryTimeout(), DURATION_EXAMPLE).ifPresent(b::tryTimeout);
    b.maxTries((int) entry.range("retries", retries(), 2, 0, 100) + 1);
    b.retryDelay(
        entry.duration("backoff", backoff(), DURATION_EXAMPLE).orElse(Duration.ofMillis(100)),
        entry.duration("backoffMax", backoffMax(), DURATION_EXAMPLE).orElse(Duration.ofSeconds(5)));
    entry
        .size("blockSize", blockSize(), 64 << 10, 1L << 30, "a size from 64KiB to 1GiB")
        .ifPresent(size -> b.blockSizeBytes((int) size));
    b.createContainer(create() != null && create());
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw entry.error("", e.getMessage());
    }
  }

  private AzureCredentials credentials(ConfigSection entry) {
    int given =
        (connectionString() != null ? 1 : 0)
            + (sasToken() != null ? 1 : 0)
            + (accountName() != null || accountKey() != null ? 1 : 0);
    if (given != 1) {
      throw entry.error(
          "",
          "expected exactly one of: connectionString, sasToken, or accountName with accountKey");
    }
    if (connectionString() != null) {
      return AzureCredentials.connectionString(connectionString());
    }
    if (sasToken() != null) {
      return AzureCredentials.sasToken(sasToken());
    }
    return AzureCredentials.accountKey(
        entry.required("accountName", accountName()), entry.required("accountKey", accountKey()));
  }
}
