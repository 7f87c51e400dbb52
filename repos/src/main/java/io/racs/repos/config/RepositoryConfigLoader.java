package io.racs.repos.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.repos.RepositoryException;
import io.racs.repos.azure.AzureCredentials;
import io.racs.repos.azure.AzureOptions;
import io.racs.repos.decorator.LatencyRepository;
import io.racs.repos.s3.S3Credentials;
import io.racs.repos.s3.S3Options;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
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
 *     type: fs                   # fs | s3 | minio | azure | memory; required
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
 *   - name: az
 *     type: azure
 *     container: racs            # required
 *     prefix: racs/              # prefix of every blob name; default none
 *     connectionString: ${env:AZURE_CONN}   # exactly one of: connectionString, sasToken, or
 *     accountName: acct          #   accountName with accountKey
 *     accountKey: ${env:AZURE_KEY}
 *     sasToken: ${env:AZURE_SAS} # needs endpoint
 *     endpoint: https://...      # default https://ACCOUNT.blob.core.windows.net (or the
 *                                #   connection string's); Azurite, sovereign clouds
 *     serviceVersion: 2025-11-05 # default the SDK's newest
 *     connectTimeout: 5s
 *     tryTimeout: 60s            # the longest one attempt may take
 *     retries: 2
 *     backoff: 100ms             # doubling up to backoffMax (default 5s)
 *     blockSize: 8MiB            # the largest single Put Blob, and the block size beyond
 *     decorators:                # first wraps the backend, last is outermost
 *       - latency: {delay: 10ms, jitter: 2ms, responseDelay: 10ms, responseJitter: 2ms, seed: 1,
 *                   lateRate: 0.02, lateDelay: 200ms}
 *       - faulty: {outage: false, corruptReads: false, failKeys: "regex", failCall: 7,
 *                  failRate: 0.01, kind: UNAVAILABLE, seed: 1}
 *       - metered
 * }</pre>
 *
 * <p>Each entry is bound to the record of its type by {@link ConfigSection}, whose rules hold for
 * every section of the file: any value may contain {@code ${env:NAME}}, replaced by that
 * environment variable, so files need not hold secrets; a value means what it says as written
 * ({@code prefix: off} is the text {@code off}); every problem is reported as one {@link
 * ConfigException} line naming the file, the repository and the field.
 */
public final class RepositoryConfigLoader {
  private static final List<String> TYPES = List.of("fs", "s3", "minio", "azure", "memory");
  private static final List<String> DECORATORS = List.of("latency", "faulty", "metered");
  private static final String DURATION_EXAMPLE = "10ms or 2s";

  private final Function<String, String> environment;

  private RepositoryConfigLoader(Function<String, String> environment) {
    this.environment = environment;
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

  /**
   * Parses and checks YAML {@code text}; {@code source} names it in messages. The other sections of
   * the returned set resolve {@code ${env:...}} as this loader does.
   */
  public RepositorySetConfig parse(String text, String source) {
    JsonNode document = ConfigSection.readYaml(text, source);
    if (document == null || document.isNull()) {
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
    RepositorySetConfig.Builder set =
        RepositorySetConfig.builder(source).document(document).environment(environment);
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      RepositoryConfig repository =
          repository(new ConfigSection(source, "repository #" + (i + 1), list.get(i), environment));
      if (!names.add(repository.name())) {
        throw new ConfigException(
            source + ": repository '" + repository.name() + "': field 'name': duplicate name");
      }
      set.repository(repository);
    }
    return set.build();
  }

  /** The fields of a repository entry, one record per type. */
  private sealed interface Entry {
    JsonNode decorators();
  }

  private record FsEntry(
      String name, String type, JsonNode decorators, String path, Boolean durable)
      implements Entry {}

  private record MemoryEntry(String name, String type, JsonNode decorators) implements Entry {}

  private record S3Entry(
      String name,
      String type,
      JsonNode decorators,
      String bucket,
      String region,
      String endpoint,
      String prefix,
      Boolean pathStyle,
      JsonNode credentials,
      String connectTimeout,
      String readTimeout,
      Long retries,
      String backoff,
      String backoffMax,
      Long maxConnections,
      String partSize,
      String keyEncoding)
      implements Entry {}

  private record AzureEntry(
      String name,
      String type,
      JsonNode decorators,
      String container,
      String prefix,
      String endpoint,
      String connectionString,
      String accountName,
      String accountKey,
      String sasToken,
      String serviceVersion,
      String connectTimeout,
      String tryTimeout,
      Long retries,
      String backoff,
      String backoffMax,
      String blockSize)
      implements Entry {}

  private record Keys(String profile, String accessKey, String secretKey) {}

  private record LatencyOptions(
      String delay,
      String jitter,
      String responseDelay,
      String responseJitter,
      Long seed,
      String lateRate,
      String lateDelay) {}

  private record FaultyOptions(
      Boolean outage,
      Boolean corruptReads,
      String failKeys,
      Long failCall,
      String failRate,
      String kind,
      Long seed) {}

  private record MeteredOptions() {}

  /** Reads one repository entry, named by its position until its name is known. */
  private static RepositoryConfig repository(ConfigSection numbered) {
    if (numbered.node() == null || !numbered.node().isObject()) {
      throw numbered.error("", "expected a mapping with name and type");
    }
    String name = numbered.required("name", numbered.bind("name", String.class));
    ConfigSection entry = numbered.named("repository '" + name + "'");
    String type = entry.required("type", entry.bind("type", String.class));
    Class<? extends Entry> shape =
        switch (type) {
          case "fs" -> FsEntry.class;
          case "memory" -> MemoryEntry.class;
          case "s3", "minio" -> S3Entry.class;
          case "azure" -> AzureEntry.class;
          default ->
              throw entry.error(
                  "type",
                  "unknown type '"
                      + type
                      + "' (expected one of: "
                      + String.join(", ", TYPES)
                      + ")");
        };
    Entry fields = entry.bind("", entry.node(), shape, "field for type " + type);
    BackendConfig backend =
        switch (fields) {
          case FsEntry fs ->
              new BackendConfig.Fs(
                  Path.of(entry.required("path", fs.path())), !Boolean.FALSE.equals(fs.durable()));
          case MemoryEntry memory -> new BackendConfig.Memory();
          case S3Entry s3 -> new BackendConfig.S3(type, s3Options(entry, type, s3));
          case AzureEntry azure -> new BackendConfig.Azure(azureOptions(entry, azure));
        };
    RepositoryConfig.Builder repository = RepositoryConfig.builder(name, backend);
    JsonNode decorators = fields.decorators();
    if (decorators != null && !decorators.isNull()) {
      if (!decorators.isArray()) {
        throw entry.error("decorators", "expected a list such as [metered]");
      }
      for (int i = 0; i < decorators.size(); i++) {
        repository.decorator(decorator(entry, decorators.get(i), "decorators[" + i + "]"));
      }
    }
    return repository.build();
  }

  private static S3Options s3Options(ConfigSection entry, String type, S3Entry s3) {
    boolean minio = type.equals("minio");
    S3Options.Builder b = S3Options.builder(entry.required("bucket", s3.bucket()));
    if (minio && s3.endpoint() == null) {
      throw entry.error(
          "endpoint", "missing (expected: the MinIO URL, e.g. http://127.0.0.1:9000)");
    }
    if (s3.endpoint() != null) {
      b.endpoint(endpoint(entry, s3.endpoint()));
    }
    Optional.ofNullable(s3.region()).ifPresent(b::region);
    Optional.ofNullable(s3.prefix()).ifPresent(b::keyPrefix);
    b.pathStyle(s3.pathStyle() == null ? minio : s3.pathStyle());
    b.credentials(credentials(entry, s3.credentials()));
    entry
        .duration("connectTimeout", s3.connectTimeout(), DURATION_EXAMPLE)
        .ifPresent(b::connectTimeout);
    entry.duration("readTimeout", s3.readTimeout(), DURATION_EXAMPLE).ifPresent(b::readTimeout);
    b.maxAttempts((int) entry.range("retries", s3.retries(), 2, 0, 100) + 1);
    b.backoff(
        entry.duration("backoff", s3.backoff(), DURATION_EXAMPLE).orElse(Duration.ofMillis(100)),
        entry
            .duration("backoffMax", s3.backoffMax(), DURATION_EXAMPLE)
            .orElse(Duration.ofSeconds(5)));
    b.maxConnections((int) entry.range("maxConnections", s3.maxConnections(), 64, 1, 10_000));
    long partSize =
        entry
            .size("partSize", s3.partSize(), 0, Long.MAX_VALUE, "a size such as 8MiB")
            .orElse(8L << 20);
    if (partSize < S3Options.MIN_PART_SIZE_BYTES || partSize > 1L << 30) {
      throw entry.error("partSize", partSize + " bytes (expected: 5MiB to 1GiB)");
    }
    b.partSizeBytes((int) partSize);
    String encoding = s3.keyEncoding() == null ? "escaped" : s3.keyEncoding();
    switch (encoding) {
      case "escaped" -> b.keyEncoding(S3Options.KeyEncoding.ESCAPED);
      case "raw" -> b.keyEncoding(S3Options.KeyEncoding.RAW);
      default -> throw entry.error("keyEncoding", "'" + encoding + "' (expected: escaped or raw)");
    }
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw entry.error("", e.getMessage());
    }
  }

  private static AzureOptions azureOptions(ConfigSection entry, AzureEntry az) {
    AzureOptions.Builder b =
        AzureOptions.builder(
            entry.required("container", az.container()), azureCredentials(entry, az));
    if (az.endpoint() != null) {
      b.endpoint(endpoint(entry, az.endpoint()));
    }
    Optional.ofNullable(az.prefix()).ifPresent(b::keyPrefix);
    Optional.ofNullable(az.serviceVersion()).ifPresent(b::serviceVersion);
    entry
        .duration("connectTimeout", az.connectTimeout(), DURATION_EXAMPLE)
        .ifPresent(b::connectTimeout);
    entry.duration("tryTimeout", az.tryTimeout(), DURATION_EXAMPLE).ifPresent(b::tryTimeout);
    b.maxTries((int) entry.range("retries", az.retries(), 2, 0, 100) + 1);
    b.retryDelay(
        entry.duration("backoff", az.backoff(), DURATION_EXAMPLE).orElse(Duration.ofMillis(100)),
        entry
            .duration("backoffMax", az.backoffMax(), DURATION_EXAMPLE)
            .orElse(Duration.ofSeconds(5)));
    entry
        .size("blockSize", az.blockSize(), 64 << 10, 1L << 30, "a size from 64KiB to 1GiB")
        .ifPresent(size -> b.blockSizeBytes((int) size));
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw entry.error("", e.getMessage());
    }
  }

  private static AzureCredentials azureCredentials(ConfigSection entry, AzureEntry az) {
    int given =
        (az.connectionString() != null ? 1 : 0)
            + (az.sasToken() != null ? 1 : 0)
            + (az.accountName() != null || az.accountKey() != null ? 1 : 0);
    if (given != 1) {
      throw entry.error(
          "",
          "expected exactly one of: connectionString, sasToken, or accountName with accountKey");
    }
    if (az.connectionString() != null) {
      return AzureCredentials.connectionString(az.connectionString());
    }
    if (az.sasToken() != null) {
      return AzureCredentials.sasToken(az.sasToken());
    }
    return AzureCredentials.accountKey(
        entry.required("accountName", az.accountName()),
        entry.required("accountKey", az.accountKey()));
  }

  private static URI endpoint(ConfigSection entry, String text) {
    try {
      URI uri = URI.create(text);
      if (uri.getScheme() != null && uri.getHost() != null) {
        return uri;
      }
    } catch (IllegalArgumentException e) {
      // Reported below, as a URL without a scheme or host is.
    }
    throw entry.error("endpoint", "'" + text + "' is not a URL (expected: e.g. http://host:9000)");
  }

  private static S3Credentials credentials(ConfigSection entry, JsonNode value) {
    if (value == null || value.isNull()) {
      return S3Credentials.defaultChain();
    }
    if (value.isTextual()) {
      String text = entry.bind("credentials", value, String.class, "field");
      return switch (text) {
        case "env", "environment" -> S3Credentials.environment();
        case "default" -> S3Credentials.defaultChain();
        default ->
            throw entry.error(
                "credentials",
                "'"
                    + text
                    + "' (expected: env, default, {profile: name} or {accessKey, secretKey})");
      };
    }
    if (!value.isObject()) {
      throw entry.error(
          "credentials", "expected env, default, {profile: name} or {accessKey, secretKey}");
    }
    Keys keys = entry.bind("credentials", value, Keys.class, "field");
    if (keys.profile() != null) {
      return S3Credentials.profile(keys.profile());
    }
    return S3Credentials.of(
        entry.required("credentials.accessKey", keys.accessKey()),
        entry.required("credentials.secretKey", keys.secretKey()));
  }

  private static DecoratorConfig decorator(ConfigSection entry, JsonNode value, String field) {
    String kind;
    JsonNode options;
    if (value.isTextual()) {
      kind = value.asText();
      options = null;
    } else if (value.isObject() && value.size() == 1) {
      Map.Entry<String, JsonNode> only = value.properties().iterator().next();
      kind = only.getKey();
      options = only.getValue();
    } else {
      throw entry.error(field, "expected a decorator name or {name: {options}}");
    }
    String at = field + "." + kind;
    return switch (kind) {
      case "latency" -> {
        LatencyOptions o = entry.bind(at, options, LatencyOptions.class, "option");
        yield new DecoratorConfig.Latency(
            new LatencyRepository.Delay(
                delay(entry, at + ".delay", o.delay()), delay(entry, at + ".jitter", o.jitter())),
            new LatencyRepository.Delay(
                delay(entry, at + ".responseDelay", o.responseDelay()),
                delay(entry, at + ".responseJitter", o.responseJitter())),
            new LatencyRepository.Late(
                rate(entry, at + ".lateRate", o.lateRate()),
                delay(entry, at + ".lateDelay", o.lateDelay())),
            o.seed() == null ? 1 : o.seed());
      }
      case "faulty" -> faulty(entry, at, entry.bind(at, options, FaultyOptions.class, "option"));
      case "metered" -> {
        if (options != null && options.isObject() && !options.isEmpty()) {
          throw entry.error(
              at + "." + options.fieldNames().next(), "unknown option (metered takes none)");
        }
        entry.bind(at, options, MeteredOptions.class, "option");
        yield new DecoratorConfig.Metered();
      }
      default ->
          throw entry.error(
              field,
              "unknown decorator '"
                  + kind
                  + "' (expected one of: "
                  + String.join(", ", DECORATORS)
                  + ")");
    };
  }

  private static double rate(ConfigSection entry, String field, String text) {
    if (text == null) {
      return 0;
    }
    double rate;
    try {
      rate = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      rate = -1;
    }
    if (!(rate >= 0 && rate <= 1)) {
      throw entry.error(field, "'" + text + "' (expected: a number from 0 to 1)");
    }
    return rate;
  }

  private static Duration delay(ConfigSection entry, String field, String text) {
    return entry.duration(field, text, DURATION_EXAMPLE).orElse(Duration.ZERO);
  }

  private static DecoratorConfig faulty(ConfigSection entry, String at, FaultyOptions o) {
    Optional<Pattern> failKeys = Optional.empty();
    if (o.failKeys() != null) {
      try {
        failKeys = Optional.of(Pattern.compile(o.failKeys()));
      } catch (PatternSyntaxException e) {
        throw entry.error(at + ".failKeys", "not a regular expression: " + e.getDescription());
      }
    }
    OptionalLong failCall =
        o.failCall() == null
            ? OptionalLong.empty()
            : OptionalLong.of(entry.range(at + ".failCall", o.failCall(), 1, 1, Long.MAX_VALUE));
    double failRate = 0;
    if (o.failRate() != null) {
      try {
        failRate = Double.parseDouble(o.failRate());
      } catch (NumberFormatException e) {
        failRate = -1;
      }
      if (!(failRate >= 0 && failRate <= 1)) {
        throw entry.error(
            at + ".failRate", "'" + o.failRate() + "' (expected: a number from 0 to 1)");
      }
    }
    String kindName = o.kind() == null ? "UNAVAILABLE" : o.kind();
    RepositoryException.Kind kind;
    try {
      kind = RepositoryException.Kind.valueOf(kindName.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw entry.error(
          at + ".kind",
          "'"
              + kindName
              + "' (expected one of: "
              + Arrays.toString(RepositoryException.Kind.values())
              + ")");
    }
    return new DecoratorConfig.Faulty(
        Boolean.TRUE.equals(o.outage()),
        Boolean.TRUE.equals(o.corruptReads()),
        failKeys,
        failCall,
        failRate,
        kind,
        o.seed() == null ? 1 : o.seed());
  }
}
