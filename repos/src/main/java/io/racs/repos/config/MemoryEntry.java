package io.racs.repos.config;

import com.fasterxml.jackson.databind.JsonNode;

/** {@code type: memory}: a repository in this process's heap, for tests and demos. */
record MemoryEntry(String name, String type, JsonNode decorators) implements BackendEntry {
  @Override
  public BackendConfig backend(ConfigSection entry, String type) {
    return new BackendConfig.Memory();
  }
}
