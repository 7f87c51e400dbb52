package io.racs.repos.config;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The fields of one repository entry of one type, as {@link ConfigSection} binds them: one record
 * per backend type, each in its own file, each turning its fields into that type's {@link
 * BackendConfig}. {@link RepositoryConfigLoader} picks the record by the entry's {@code type} and
 * reads the decorators common to all.
 */
sealed interface BackendEntry
    permits FsEntry, MemoryEntry, S3Entry, AzureEntry, GcsEntry, SftpEntry {
  /** An example duration for messages about a malformed one. */
  String DURATION_EXAMPLE = "10ms or 2s";

  /** The entry's {@code decorators:} list, or null. */
  JsonNode decorators();

  /**
   * The backend these fields describe, checked; {@code type} is the entry's type as written (one
   * record may serve several, as {@link S3Entry} serves {@code s3} and {@code minio}).
   *
   * @throws ConfigException naming the field that is wrong
   */
  BackendConfig backend(ConfigSection entry, String type);
}
