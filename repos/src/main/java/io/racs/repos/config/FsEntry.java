package io.racs.repos.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;

/** {@code type: fs}: a directory, which must exist; {@code durable} syncs before acknowledging. */
record FsEntry(String name, String type, JsonNode decorators, String path, Boolean durable)
    implements BackendEntry {
  @Override
  public BackendConfig backend(ConfigSection entry, String type) {
    return new BackendConfig.Fs(
        Path.of(entry.required("path", path)), !Boolean.FALSE.equals(durable));
  }
}
