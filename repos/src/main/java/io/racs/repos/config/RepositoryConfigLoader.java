package io.racs.repos.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.racs.repos.RepositoryException;
import io.racs.repos.decorator.LatencyRepository;
import io.racs.repos.s3.S3Credentials;
import io.racs.repos.s3.S3Options;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads the {@code repositories:} section of a RACS configuration file (YAML) into a {@link
 * RepositorySetConfig}; other top-level sections are kept, unread, in {@link
 * RepositorySetConfig#document()}. The one place that reads configuration files and resolves
 * environment references for repositories. The format, with every field:
 *
 * <pre>{@code
 * repositories:
 *   - name: local-a              # unique; required
 *     type: fs                   # fs | s3 | minio | memory; required
 *     path: /srv/racs/a          # fs: the directory, which must exist; required
 *     durable: true              # fs: fsync before acknowledging; default true
 *   - name: aws
 *     type: s3
 *     bucket: my-bucket          # required
 *     region: eu-west-1          # default us-east-1
 *     endpoint: https://...      # default AWS; required for minio
 *     prefix: racs/              # prefix of every stored name; default none
 *     pathStyle: false           # default false for s3, true for minio
 *     credentials:               # default: the SDK's default chain; or "env", "default",
 *       accessKey: AKIA...       #   {profile: name}, or static keys as here
 *       secretKey: ${env:RACS_S3_SECRET}
 *     connectTimeout: 5s         # durations: ns, us, ms, s, m, h
 *     readTimeout: 30s
 *     retries: 2                 # retries after the first attempt; default 2
 *     backoff: 100ms             # first retry delay, doubling up to backoffMax (default 5s)
 *     maxConnections: 64
 *     partSize: 8MiB             # sizes: B, KiB, MiB, GiB (or a plain number of bytes)
 *     keyEncoding: escaped       # escaped | raw
 *     decorators:                # first wraps the backend, last is outermost
 *       - latency: {delay: 10ms, jitter: 2ms, responseDelay: 10ms, responseJitter: 2ms, seed: 1}
 *       - faulty: {outage: false, corruptReads: false, failKeys: "regex", failCall: 7,
 *                  failRate: 0.01, kind: UNAVAILABLE, seed: 1}
 *       - metered
 * }</pre>
 *
 * <p>Any string value may contain {@code ${env:NAME}}, replaced by that environment variable, so
 * files need not hold secrets. Every problem is reported as one {@link ConfigException} line naming
 * the file, the repository and the field.
 */
public final class RepositoryConfigLoader {
  private static final Pattern ENV_REFERENCE =
      Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");
  private static final Set<String> COMMON = Set.of("name", "type", "decorators");
  private static final Map<String, Set<String>> TYPE_FIELDS =
      Map.of(
          "fs", Set.of("path", "durable"),
          "memory", Set.of(),
          "s3", s3Fields(),
          "minio", s3Fields());
  private static final List<String> TYPES = List.of("fs", "s3", "minio", "memory");
  private static final List<String> DECORATORS = List.of("latency", "faulty", "metered");

  private final Function<String, String> environment;

  private RepositoryConfigLoader(Function<String, String> environment) {
    this.environment = environment;
  }

  private static Set<String> s3Fields() {
    return Set.of(
        "bucket",
        "region",
        "endpoint",
        "prefix",
        "pathStyle",
        "credentials",
        "connectTimeout",
        "readTimeout",
        "retries",
        "backoff",
        "backoffMax",
        "maxConnections",
        "partSize",
        "keyEncoding");
  }

  /** A loader that resolves {@code ${env:...}} from the process environment. */
  public static RepositoryConfigLoader create() {
    return new RepositoryConfigLoader(System::getenv);
  }

  /** A loader that resolves {@code ${env:...}} through {@code environment} (for tests). */
  public static RepositoryConfigLoader withEnvironment(Function<String, String> environment) {
    return new RepositoryConfigLoader(environment);
  }

  /** Reads and checks {@code file}. */
  public RepositorySetConfig load(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new ConfigException(file + ": no such file", e);
    } catch (IOException e) {
      throw new ConfigException(file + ": cannot read: " + e.getMessage(), e);
    }
    return parse(text, file.toString());
  }

  /** Parses and checks YAML {@code text}; {@code source} names it in messages. */
  public RepositorySetConfig parse(String text, String source) {
    ObjectMapper mapper = new ObjectMapper(new YAMLFactory());
    mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    JsonNode document;
    try {
      document = mapper.readTree(text);
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNr() + ": ";
      throw new ConfigException(source + ": " + where + e.getOriginalMessage(), e);
    }
    if (document == null || document.isMissingNode() || document.isNull()) {
      throw new ConfigException(source + ": empty file (expected: a 'repositories:' section)");
    }
    if (!document.isObject()) {
      throw new ConfigException(source + ": expected a mapping of sections at the top");
    }
    JsonNode list = document.get("repositories");
    if (list == null || !list.isArray()) {
      throw new ConfigException(
          source
              + ": field 'repositories': missing or not a list (expected: a list of repositories)");
    }
    RepositorySetConfig.Builder set = RepositorySetConfig.builder(source).document(document);
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      RepositoryConfig repository = new Reader(source, i, list.get(i)).read();
      if (!names.add(repository.name())) {
        throw new ConfigException(
            source + ": repository '" + repository.name() + "': field 'name': duplicate name");
      }
      set.repository(repository);
    }
    return set.build();
  }

  /** Reads one repository entry, knowing where it is for messages. */
  private final class Reader {
    private final String source;
    private final JsonNode node;
    private String where;

    Reader(String source, int index, JsonNode node) {
      this.source = source;
      this.node = node;
      this.where = "repository #" + (index + 1);
    }

    RepositoryConfig read() {
      if (!node.isObject()) {
        throw error("", "expected a mapping with name and type");
      }
      String name = requiredText(node, "name");
      where = "repository '" + name + "'";
      String type = requiredText(node, "type");
      if (!TYPE_FIELDS.containsKey(type)) {
        throw error(
            "type",
            "unknown type '" + type + "' (expected one of: " + String.join(", ", TYPES) + ")");
      }
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String field = it.next();
        if (!COMMON.contains(field) && !TYPE_FIELDS.get(type).contains(field)) {
          List<String> known = new ArrayList<>(TYPE_FIELDS.get(type));
          known.addAll(COMMON);
          known.sort(null);
          throw error(
              field,
              "unknown field for type "
                  + type
                  + " (expected one of: "
                  + String.join(", ", known)
                  + ")");
        }
      }
      BackendConfig backend =
          switch (type) {
            case "fs" ->
                new BackendConfig.Fs(
                    Path.of(requiredText(node, "path")), bool(node, "durable", true));
            case "memory" -> new BackendConfig.Memory();
            default -> new BackendConfig.S3(type, s3Options(type));
          };
      RepositoryConfig.Builder repository = RepositoryConfig.builder(name, backend);
      JsonNode decorators = node.get("decorators");
      if (decorators != null && !decorators.isNull()) {
        if (!decorators.isArray()) {
          throw error("decorators", "expected a list such as [metered]");
        }
        for (int i = 0; i < decorators.size(); i++) {
          repository.decorator(decorator(decorators.get(i), "decorators[" + i + "]"));
        }
      }
      return repository.build();
    }

    private S3Options s3Options(String type) {
      boolean minio = type.equals("minio");
      S3Options.Builder b = S3Options.builder(requiredText(node, "bucket"));
      Optional<String> endpoint = optionalText(node, "endpoint");
      if (minio && endpoint.isEmpty()) {
        throw error("endpoint", "missing (expected: the MinIO URL, e.g. http://127.0.0.1:9000)");
      }
      if (endpoint.isPresent()) {
        try {
          URI uri = URI.create(endpoint.get());
          if (uri.getScheme() == null || uri.getHost() == null) {
            throw new IllegalArgumentException("no scheme or host");
          }
          b.endpoint(uri);
        } catch (IllegalArgumentException e) {
          throw error(
              "endpoint",
              "'" + endpoint.get() + "' is not a URL (expected: e.g. http://host:9000)");
        }
      }
      optionalText(node, "region").ifPresent(b::region);
      optionalText(node, "prefix").ifPresent(b::keyPrefix);
      b.pathStyle(bool(node, "pathStyle", minio));
      b.credentials(credentials(node.get("credentials")));
      duration(node, "connectTimeout").ifPresent(b::connectTimeout);
      duration(node, "readTimeout").ifPresent(b::readTimeout);
      b.maxAttempts((int) integer(node, "retries", 2, 0, 100) + 1);
      Duration backoff = duration(node, "backoff").orElse(Duration.ofMillis(100));
      Duration backoffMax = duration(node, "backoffMax").orElse(Duration.ofSeconds(5));
      b.backoff(backoff, backoffMax);
      b.maxConnections((int) integer(node, "maxConnections", 64, 1, 10_000));
      long partSize = size(node, "partSize", 8L << 20);
      if (partSize < S3Options.MIN_PART_SIZE_BYTES || partSize > 1L << 30) {
        throw error("partSize", partSize + " bytes (expected: 5MiB to 1GiB)");
      }
      b.partSizeBytes((int) partSize);
      String encoding = optionalText(node, "keyEncoding").orElse("escaped");
      switch (encoding) {
        case "escaped" -> b.keyEncoding(S3Options.KeyEncoding.ESCAPED);
        case "raw" -> b.keyEncoding(S3Options.KeyEncoding.RAW);
        default -> throw error("keyEncoding", "'" + encoding + "' (expected: escaped or raw)");
      }
      try {
        return b.build();
      } catch (IllegalArgumentException e) {
        throw error("", e.getMessage());
      }
    }

    private S3Credentials credentials(JsonNode value) {
      if (value == null || value.isNull()) {
        return S3Credentials.defaultChain();
      }
      if (value.isTextual()) {
        return switch (value.asText()) {
          case "env", "environment" -> S3Credentials.environment();
          case "default" -> S3Credentials.defaultChain();
          default ->
              throw error(
                  "credentials",
                  "'"
                      + value.asText()
                      + "' (expected: env, default, {profile: name} or {accessKey, secretKey})");
        };
      }
      if (!value.isObject()) {
        throw error(
            "credentials", "expected env, default, {profile: name} or {accessKey, secretKey}");
      }
      for (Iterator<String> it = value.fieldNames(); it.hasNext(); ) {
        String field = it.next();
        if (!Set.of("profile", "accessKey", "secretKey").contains(field)) {
          throw error(
              "credentials." + field,
              "unknown field (expected one of: accessKey, profile, secretKey)");
        }
      }
      if (value.has("profile")) {
        return S3Credentials.profile(text(value.get("profile"), "credentials.profile"));
      }
      String accessKey = requiredText(value, "accessKey", "credentials.accessKey");
      String secretKey = requiredText(value, "secretKey", "credentials.secretKey");
      return S3Credentials.of(accessKey, secretKey);
    }

    private DecoratorConfig decorator(JsonNode value, String field) {
      String kind;
      JsonNode options;
      if (value.isTextual()) {
        kind = value.asText();
        options = null;
      } else if (value.isObject() && value.size() == 1) {
        Map.Entry<String, JsonNode> entry = value.properties().iterator().next();
        kind = entry.getKey();
        options = entry.getValue().isNull() ? null : entry.getValue();
      } else {
        throw error(field, "expected a decorator name or {name: {options}}");
      }
      if (!DECORATORS.contains(kind)) {
        throw error(
            field,
            "unknown decorator '"
                + kind
                + "' (expected one of: "
                + String.join(", ", DECORATORS)
                + ")");
      }
      JsonNode o =
          options == null
              ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
              : options;
      if (!o.isObject()) {
        throw error(field, "options of " + kind + " must be a mapping");
      }
      Set<String> allowed =
          switch (kind) {
            case "latency" -> Set.of("delay", "jitter", "responseDelay", "responseJitter", "seed");
            case "faulty" ->
                Set.of(
                    "outage", "corruptReads", "failKeys", "failCall", "failRate", "kind", "seed");
            default -> Set.of();
          };
      for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
        String option = it.next();
        if (!allowed.contains(option)) {
          throw error(
              field + "." + kind + "." + option,
              "unknown option"
                  + (allowed.isEmpty()
                      ? " (" + kind + " takes none)"
                      : " (expected one of: "
                          + String.join(", ", new java.util.TreeSet<>(allowed))
                          + ")"));
        }
      }
      String prefix = field + "." + kind + ".";
      return switch (kind) {
        case "latency" ->
            new DecoratorConfig.Latency(
                new LatencyRepository.Delay(
                    duration(o, "delay", prefix).orElse(Duration.ZERO),
                    duration(o, "jitter", prefix).orElse(Duration.ZERO)),
                new LatencyRepository.Delay(
                    duration(o, "responseDelay", prefix).orElse(Duration.ZERO),
                    duration(o, "responseJitter", prefix).orElse(Duration.ZERO)),
                integer(o, "seed", 1, Long.MIN_VALUE, Long.MAX_VALUE, prefix));
        case "faulty" -> faulty(o, prefix);
        default -> new DecoratorConfig.Metered();
      };
    }

    private DecoratorConfig faulty(JsonNode o, String prefix) {
      Optional<Pattern> failKeys = Optional.empty();
      Optional<String> regex = optionalText(o, "failKeys", prefix);
      if (regex.isPresent()) {
        try {
          failKeys = Optional.of(Pattern.compile(regex.get()));
        } catch (PatternSyntaxException e) {
          throw error(prefix + "failKeys", "not a regular expression: " + e.getDescription());
        }
      }
      OptionalLong failCall =
          o.has("failCall")
              ? OptionalLong.of(integer(o, "failCall", 1, 1, Long.MAX_VALUE, prefix))
              : OptionalLong.empty();
      double failRate = 0;
      if (o.has("failRate")) {
        String text = text(o.get("failRate"), prefix + "failRate");
        try {
          failRate = Double.parseDouble(text);
        } catch (NumberFormatException e) {
          failRate = -1;
        }
        if (!(failRate >= 0 && failRate <= 1)) {
          throw error(prefix + "failRate", "'" + text + "' (expected: a number from 0 to 1)");
        }
      }
      String kindName = optionalText(o, "kind", prefix).orElse("UNAVAILABLE");
      RepositoryException.Kind kind;
      try {
        kind = RepositoryException.Kind.valueOf(kindName.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw error(
            prefix + "kind",
            "'"
                + kindName
                + "' (expected one of: "
                + java.util.Arrays.toString(RepositoryException.Kind.values())
                + ")");
      }
      return new DecoratorConfig.Faulty(
          bool(o, "outage", false, prefix),
          bool(o, "corruptReads", false, prefix),
          failKeys,
          failCall,
          failRate,
          kind,
          integer(o, "seed", 1, Long.MIN_VALUE, Long.MAX_VALUE, prefix));
    }

    // ---- scalar fields -----------------------------------------------------------------------

    private String requiredText(JsonNode parent, String field) {
      return requiredText(parent, field, field);
    }

    private String requiredText(JsonNode parent, String field, String label) {
      JsonNode value = parent.get(field);
      if (value == null || value.isNull()) {
        throw error(label, "missing");
      }
      String text = text(value, label);
      if (text.isBlank()) {
        throw error(label, "empty");
      }
      return text;
    }

    private Optional<String> optionalText(JsonNode parent, String field) {
      return optionalText(parent, field, "");
    }

    private Optional<String> optionalText(JsonNode parent, String field, String prefix) {
      JsonNode value = parent.get(field);
      return value == null || value.isNull()
          ? Optional.empty()
          : Optional.of(text(value, prefix + field));
    }

    /** A scalar as text, with environment references resolved. */
    private String text(JsonNode value, String label) {
      if (!value.isValueNode()) {
        throw error(label, "expected a single value");
      }
      String raw = value.asText();
      Matcher m = ENV_REFERENCE.matcher(raw);
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        String resolved = environment.apply(m.group(1));
        if (resolved == null) {
          throw error(label, "environment variable " + m.group(1) + " is not set");
        }
        m.appendReplacement(out, Matcher.quoteReplacement(resolved));
      }
      m.appendTail(out);
      return out.toString();
    }

    private boolean bool(JsonNode parent, String field, boolean fallback) {
      return bool(parent, field, fallback, "");
    }

    private boolean bool(JsonNode parent, String field, boolean fallback, String prefix) {
      Optional<String> text = optionalText(parent, field, prefix);
      if (text.isEmpty()) {
        return fallback;
      }
      return switch (text.get()) {
        case "true" -> true;
        case "false" -> false;
        default -> throw error(prefix + field, "expected true or false, got '" + text.get() + "'");
      };
    }

    private long integer(JsonNode parent, String field, long fallback, long min, long max) {
      return integer(parent, field, fallback, min, max, "");
    }

    private long integer(
        JsonNode parent, String field, long fallback, long min, long max, String prefix) {
      Optional<String> text = optionalText(parent, field, prefix);
      if (text.isEmpty()) {
        return fallback;
      }
      long value;
      try {
        value = Long.parseLong(text.get().trim());
      } catch (NumberFormatException e) {
        throw error(prefix + field, "expected a whole number, got '" + text.get() + "'");
      }
      if (value < min || value > max) {
        throw error(prefix + field, value + " (expected: " + min + " to " + max + ")");
      }
      return value;
    }

    private Optional<Duration> duration(JsonNode parent, String field) {
      return duration(parent, field, "");
    }

    private Optional<Duration> duration(JsonNode parent, String field, String prefix) {
      Optional<String> text = optionalText(parent, field, prefix);
      if (text.isEmpty()) {
        return Optional.empty();
      }
      Optional<Duration> parsed = Units.duration(text.get());
      if (parsed.isEmpty()) {
        throw error(
            prefix + field, "expected a duration such as 10ms or 2s, got '" + text.get() + "'");
      }
      return parsed;
    }

    private long size(JsonNode parent, String field, long fallback) {
      Optional<String> text = optionalText(parent, field);
      if (text.isEmpty()) {
        return fallback;
      }
      OptionalLong parsed = Units.size(text.get());
      if (parsed.isEmpty()) {
        throw error(field, "expected a size such as 8MiB, got '" + text.get() + "'");
      }
      return parsed.getAsLong();
    }

    private ConfigException error(String field, String problem) {
      return new ConfigException(
          source
              + ": "
              + where
              + (field.isEmpty() ? "" : ": field '" + field + "'")
              + ": "
              + problem);
    }
  }
}
