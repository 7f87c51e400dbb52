package io.racs.repos.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * A repository set: the {@code repositories:} section of a RACS configuration file, in file order
 * (order matters to the proxy, which maps repositories to slots), plus the whole document, so that
 * the proxy and the benchmark can read their own sections ({@code geometry:}, {@code listen:}, ...)
 * from the same file. Immutable; {@link #toString()} holds no secrets.
 */
public final class RepositorySetConfig {
  private final String source;
  private final List<RepositoryConfig> repositories;
  private final JsonNode document;
  private final Function<String, String> environment;

  private RepositorySetConfig(Builder builder) {
    this.source = builder.source;
    this.repositories = List.copyOf(builder.repositories);
    this.document = builder.document.deepCopy();
    this.environment = builder.environment;
    Set<String> names = new HashSet<>();
    for (RepositoryConfig repository : repositories) {
      if (!names.add(repository.name())) {
        throw new ConfigException(
            source + ": repository '" + repository.name() + "': field 'name': duplicate name");
      }
    }
  }

  /** Starts building a set read from {@code source} (a file name, for messages). */
  public static Builder builder(String source) {
    return new Builder(source);
  }

  /** Where the configuration came from, for messages. */
  public String source() {
    return source;
  }

  /** The repositories, in file order. */
  public List<RepositoryConfig> repositories() {
    return repositories;
  }

  /** The repository called {@code name}. */
  public Optional<RepositoryConfig> repository(String name) {
    return repositories.stream().filter(r -> r.name().equals(name)).findFirst();
  }

  /**
   * The whole parsed document, other sections included, before environment references are resolved
   * (so it never holds secrets from the environment). Scalars are text, as written in the file. A
   * copy: changing it changes nothing here.
   */
  public JsonNode document() {
    return document.deepCopy();
  }

  /** The top-level section {@code name} of the document, if present. */
  public Optional<JsonNode> section(String name) {
    JsonNode node = document.get(name);
    return node == null ? Optional.empty() : Optional.of(node.deepCopy());
  }

  /**
   * The top-level section {@code name} (its node null when absent), to bind to a record; its
   * environment references resolve as the repositories' do.
   */
  public ConfigSection configSection(String name) {
    return new ConfigSection(source, name, section(name).orElse(null), environment);
  }

  @Override
  public String toString() {
    return "RepositorySetConfig[source=" + source + ", repositories=" + repositories + "]";
  }

  /** Builds a {@link RepositorySetConfig}. */
  public static final class Builder {
    private final String source;
    private final List<RepositoryConfig> repositories = new ArrayList<>();
    private JsonNode document = JsonNodeFactory.instance.objectNode();
    private Function<String, String> environment = System::getenv;

    private Builder(String source) {
      this.source = Objects.requireNonNull(source, "source");
    }

    /** Adds a repository after those added before. */
    public Builder repository(RepositoryConfig repository) {
      repositories.add(Objects.requireNonNull(repository, "repository"));
      return this;
    }

    /** The whole document the set was read from; defaults to an empty object. */
    public Builder document(JsonNode document) {
      this.document = Objects.requireNonNull(document, "document");
      return this;
    }

    /**
     * Where {@code ${env:NAME}} references in the document's other sections resolve; defaults to
     * the process environment.
     */
    public Builder environment(Function<String, String> environment) {
      this.environment = Objects.requireNonNull(environment, "environment");
      return this;
    }

    /**
     * Builds the set.
     *
     * @throws ConfigException when two repositories share a name
     */
    public RepositorySetConfig build() {
      return new RepositorySetConfig(this);
    }
  }
}
