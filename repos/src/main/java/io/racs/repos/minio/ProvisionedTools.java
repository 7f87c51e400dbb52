package io.racs.repos.minio;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Locates the external tools that {@code scripts/provision.sh} ({@code ./racs provision}) installs:
 * the MinIO server binary that {@code racs demo --minio} and the integration tests run ({@link
 * #minio()}), and by their variable names in its {@code env} file the client tools the tests drive
 * ({@code RACS_PYTHON}, {@code RACS_AWS_CLI}, {@code RACS_RCLONE}, {@code RACS_MC}, {@code
 * RACS_S5CMD}, {@code RACS_FIO}, and the emulators' {@code RACS_AZURITE_BLOB}, {@code
 * RACS_FAKE_GCS}, {@code RACS_TOXIPROXY}).
 *
 * <p>Each tool is looked up, in order, as a system property ({@code racs.minio.bin}), an
 * environment variable ({@code RACS_MINIO_BIN}) and finally the {@code env} file the provisioning
 * script writes into the cache directory ({@code $RACS_CACHE_DIR}, else {@code
 * $XDG_CACHE_HOME/racs}, else {@code ~/.cache/racs}). A tool that cannot be found is an error
 * naming the command that installs it: tests never skip silently because a tool is missing.
 */
public final class ProvisionedTools {
  private ProvisionedTools() {}

  /** The cache directory the provisioning script installs into and this class reads. */
  public static Path cacheDir() {
    String explicit = System.getenv("RACS_CACHE_DIR");
    if (explicit != null && !explicit.isBlank()) {
      return Path.of(explicit);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && !xdg.isBlank()) {
      return Path.of(xdg, "racs");
    }
    return Path.of(System.getProperty("user.home"), ".cache", "racs");
  }

  /** The MinIO server binary. */
  public static Path minio() {
    return require("RACS_MINIO_BIN");
  }

  /**
   * Returns the tool named by {@code variable}, or throws naming how to install it.
   *
   * @throws IllegalStateException when the tool is not provisioned
   */
  public static Path require(String variable) {
    return require(variable, find(variable));
  }

  /**
   * Returns the file (a library, not a program) named by {@code variable}, or throws naming how to
   * install it.
   *
   * @throws IllegalStateException when the file is not provisioned
   */
  public static Path requireFile(String variable) {
    return require(variable, configured(variable).filter(Files::isReadable));
  }

  private static Path require(String variable, Optional<Path> found) {
    return found.orElseThrow(
        () ->
            new IllegalStateException(
                variable
                    + " is not provisioned (looked in the system property "
                    + propertyName(variable)
                    + ", the environment and "
                    + envFile()
                    + "): run ./racs provision"));
  }

  /** Returns the tool named by {@code variable} if it is provisioned and executable. */
  public static Optional<Path> find(String variable) {
    return configured(variable).filter(Files::isExecutable);
  }

  private static Optional<Path> configured(String variable) {
    String value = System.getProperty(propertyName(variable));
    if (value == null || value.isBlank()) {
      value = System.getenv(variable);
    }
    if (value == null || value.isBlank()) {
      value = readEnvFile().get(variable);
    }
    if (value == null || value.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(Path.of(value));
  }

  private static String propertyName(String variable) {
    // RACS_MINIO_BIN -> racs.minio.bin
    return variable.toLowerCase(java.util.Locale.ROOT).replace('_', '.');
  }

  private static Path envFile() {
    return cacheDir().resolve("env");
  }

  private static Map<String, String> readEnvFile() {
    Path file = envFile();
    Map<String, String> values = new HashMap<>();
    if (!Files.isRegularFile(file)) {
      return values;
    }
    try {
      for (String line : Files.readAllLines(file)) {
        int eq = line.indexOf('=');
        if (eq > 0 && !line.startsWith("#")) {
          values.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return values;
  }
}
