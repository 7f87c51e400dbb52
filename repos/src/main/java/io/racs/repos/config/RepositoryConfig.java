package io.racs.repos.config;

import java.util.List;
import java.util.Objects;

/**
 * One configured repository: its name, its backend and its decorators, applied in list order (the
 * first wraps the backend, the last is outermost, so {@code [latency, metered]} measures the
 * latency it adds).
 */
public record RepositoryConfig(
    String name, BackendConfig backend, List<DecoratorConfig> decorators) {
  /** Checks and copies the fields. */
  public RepositoryConfig {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name: \"" + name + "\" (expected: a non-blank name)");
    }
    Objects.requireNonNull(backend, "backend");
    decorators = List.copyOf(decorators);
  }

  /** Starts building a repository called {@code name} on {@code backend}. */
  public static Builder builder(String name, BackendConfig backend) {
    return new Builder(name, backend);
  }

  /** Builds a {@link RepositoryConfig}. */
  public static final class Builder {
    private final String name;
    private final BackendConfig backend;
    private final java.util.ArrayList<DecoratorConfig> decorators = new java.util.ArrayList<>();

    private Builder(String name, BackendConfig backend) {
      this.name = name;
      this.backend = backend;
    }

    /** Adds a decorator outside those added before. */
    public Builder decorator(DecoratorConfig decorator) {
      decorators.add(Objects.requireNonNull(decorator, "decorator"));
      return this;
    }

    /** Builds the configuration. */
    public RepositoryConfig build() {
      return new RepositoryConfig(name, backend, decorators);
    }
  }
}
