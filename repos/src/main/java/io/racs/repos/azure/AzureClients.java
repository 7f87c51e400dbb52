package io.racs.repos.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.BlobServiceVersion;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import java.util.Arrays;

/** Builds the container client of an {@link AzureRepository} from its options; no I/O. */
final class AzureClients {
  private AzureClients() {}

  static BlobContainerClient create(AzureOptions options) {
    // The JDK's own HttpClient: the SDK's default transport is Netty (with reactor-netty), which
    // would put a second Netty next to the proxy's.
    HttpClient http =
        new JdkHttpClientBuilder().connectionTimeout(options.connectTimeout()).build();
    BlobContainerClientBuilder builder =
        new BlobContainerClientBuilder()
            .httpClient(http)
            .retryOptions(
                new RequestRetryOptions(
                    RetryPolicyType.EXPONENTIAL,
                    options.maxTries(),
                    options.tryTimeout(),
                    options.retryDelay(),
                    options.maxRetryDelay(),
                    null));
    switch (options.credentials()) {
      case AzureCredentials.ConnectionString c -> builder.connectionString(c.connectionString());
      case AzureCredentials.AccountKey k -> {
        builder.credential(new StorageSharedKeyCredential(k.accountName(), k.accountKey()));
        if (options.endpoint().isEmpty()) {
          builder.endpoint("https://" + k.accountName() + ".blob.core.windows.net");
        }
      }
      case AzureCredentials.SasToken s -> builder.sasToken(s.token());
    }
    // After the connection string, whose endpoint this overrides (an emulator, a sovereign cloud).
    options.endpoint().ifPresent(e -> builder.endpoint(e.toString()));
    options.serviceVersion().ifPresent(v -> builder.serviceVersion(serviceVersion(v)));
    return builder.containerName(options.container()).buildClient();
  }

  /** The SDK's constant for a version such as {@code 2025-11-05}. */
  static BlobServiceVersion serviceVersion(String version) {
    return Arrays.stream(BlobServiceVersion.values())
        .filter(v -> v.getVersion().equals(version))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "serviceVersion: "
                        + version
                        + " (expected one of: "
                        + Arrays.stream(BlobServiceVersion.values())
                            .map(BlobServiceVersion::getVersion)
                            .toList()
                        + ")"));
  }
}
