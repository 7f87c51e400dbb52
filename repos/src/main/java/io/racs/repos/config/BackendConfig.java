package io.racs.repos.config;

import io.racs.repos.azure.AzureOptions;
import io.racs.repos.gcs.GcsOptions;
import io.racs.repos.s3.S3Options;
import io.racs.repos.sftp.SftpOptions;
import java.nio.file.Path;
import java.util.Objects;

/** The backend of one configured repository: what the {@code type} field and its options say. */
public sealed interface BackendConfig {
  /**
   * The configured type: {@code fs}, {@code s3}, {@code minio}, {@code azure}, {@code gcs}, {@code
   * sftp} or {@code memory}.
   */
  String type();

  /** {@code type: fs}: a local directory. */
  record Fs(Path path, boolean durable) implements BackendConfig {
    /** Checks the path. */
    public Fs {
      Objects.requireNonNull(path, "path");
    }

    @Override
    public String type() {
      return "fs";
    }
  }

  /** {@code type: s3} or {@code type: minio} (path-style by default). */
  record S3(String type, S3Options options) implements BackendConfig {
    /** Checks the fields. */
    public S3 {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(options, "options");
    }
  }

  /** {@code type: azure}: a container in Azure Blob Storage (or Azurite). */
  record Azure(AzureOptions options) implements BackendConfig {
    /** Checks the options. */
    public Azure {
      Objects.requireNonNull(options, "options");
    }

    @Override
    public String type() {
      return "azure";
    }
  }

  /** {@code type: gcs}: a bucket in Google Cloud Storage (or fake-gcs-server). */
  record Gcs(GcsOptions options) implements BackendConfig {
    /** Checks the options. */
    public Gcs {
      Objects.requireNonNull(options, "options");
    }

    @Override
    public String type() {
      return "gcs";
    }
  }

  /** {@code type: sftp}: a directory on an SSH server, over SFTP. */
  record Sftp(SftpOptions options) implements BackendConfig {
    /** Checks the options. */
    public Sftp {
      Objects.requireNonNull(options, "options");
    }

    @Override
    public String type() {
      return "sftp";
    }
  }

  /** {@code type: memory}: an in-heap repository. */
  record Memory() implements BackendConfig {
    @Override
    public String type() {
      return "memory";
    }
  }
}
