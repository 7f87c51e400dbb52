package io.racs.repos.gcs;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How a {@code gcs} repository authenticates: a service account's JSON key file, the environment's
 * application default credentials, or nothing at all (an emulator). {@link #toString()} never shows
 * a secret, so descriptions and logs may print it. Choosing one does no I/O: the key file is read,
 * and application default credentials are looked up, when the repository makes its first request.
 */
public sealed interface GcsCredentials {
  /** A service account's JSON key file, as the console or {@code gcloud} creates it. */
  static GcsCredentials serviceAccountFile(Path file) {
    return new ServiceAccountFile(file);
  }

  /**
   * Application default credentials: {@code GOOGLE_APPLICATION_CREDENTIALS}, {@code gcloud}'s own,
   * or the metadata server of the machine the proxy runs on in Google Cloud.
   */
  static GcsCredentials applicationDefault() {
    return ApplicationDefault.INSTANCE;
  }

  /** No credentials: unauthenticated requests, for an emulator such as fake-gcs-server. */
  static GcsCredentials none() {
    return None.INSTANCE;
  }

  /** A service account key file. */
  record ServiceAccountFile(Path file) implements GcsCredentials {
    /** Checks the path is present. */
    public ServiceAccountFile {
      Objects.requireNonNull(file, "file");
    }

    @Override
    public String toString() {
      return "serviceAccountFile(" + file + ")";
    }
  }

  /** Application default credentials. */
  enum ApplicationDefault implements GcsCredentials {
    /** The one value. */
    INSTANCE;

    @Override
    public String toString() {
      return "applicationDefault";
    }
  }

  /** No credentials. */
  enum None implements GcsCredentials {
    /** The one value. */
    INSTANCE;

    @Override
    public String toString() {
      return "none";
    }
  }
}
