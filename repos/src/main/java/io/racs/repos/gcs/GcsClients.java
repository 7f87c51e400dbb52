package io.racs.repos.gcs;

import com.google.auth.Credentials;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.ServiceOptions;
import com.google.cloud.http.HttpTransportOptions;
import com.google.cloud.storage.BlobWriteSessionConfigs;
import com.google.cloud.storage.HttpStorageOptions;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;

/**
 * Builds the {@link Storage} client of a {@link GcsRepository} from its options, over the JSON API
 * on HTTP (the library's gRPC transport is not on the class path). This is the first I/O a
 * repository does: the key file is read here, and application default credentials are looked up.
 */
final class GcsClients {
  private GcsClients() {}

  static Storage create(String repository, GcsOptions options) {
    HttpStorageOptions.Builder builder =
        StorageOptions.http()
            .setCredentials(credentials(repository, options.credentials()))
            .setTransportOptions(
                HttpTransportOptions.newBuilder()
                    .setConnectTimeout((int) options.connectTimeout().toMillis())
                    .setReadTimeout((int) options.readTimeout().toMillis())
                    .build())
            .setRetrySettings(
                ServiceOptions.getDefaultRetrySettings().toBuilder()
                    .setMaxAttempts(options.maxAttempts())
                    .setInitialRetryDelayDuration(options.retryDelay())
                    .setRetryDelayMultiplier(2.0)
                    .setMaxRetryDelayDuration(options.maxRetryDelay())
                    .build())
            // Resumable uploads buffer one chunk; the default would be 16 MiB whatever blockSize.
            .setBlobWriteSessionConfig(
                BlobWriteSessionConfigs.getDefault().withChunkSize(options.blockSizeBytes()));
    options.endpoint().ifPresent(e -> builder.setHost(e.toString()));
    if (options.projectId().isPresent()) {
      builder.setProjectId(options.projectId().get());
    } else if (options.credentials() instanceof GcsCredentials.None) {
      // Without a project the library looks for one in the environment, down to asking a metadata
      // server; an emulator needs none, so none is looked for.
      builder.setProjectId("");
    }
    return builder.build().getService();
  }

  private static Credentials credentials(String repository, GcsCredentials credentials) {
    try {
      return switch (credentials) {
        case GcsCredentials.None none -> NoCredentials.getInstance();
        case GcsCredentials.ApplicationDefault adc -> GoogleCredentials.getApplicationDefault();
        case GcsCredentials.ServiceAccountFile file -> {
          // A service account key only: the general loader also accepts external account
          // configurations, which can run commands, and a key file should not.
          try (InputStream in = Files.newInputStream(file.file())) {
            yield ServiceAccountCredentials.fromStream(in);
          }
        }
      };
    } catch (IOException e) {
      throw new RepositoryException(
          Kind.ACCESS_DENIED,
          repository + ": cannot load credentials " + credentials + ": " + e.getMessage(),
          e);
    }
  }
}
