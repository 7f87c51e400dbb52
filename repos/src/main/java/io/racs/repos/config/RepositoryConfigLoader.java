package io.racs.repos.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads the {@code repositories:} section of a RACS configuration file (YAML) into a {@link
 * RepositorySetConfig}; other top-level sections are kept, unread, in {@link
 * RepositorySetConfig#document()}. The one place that reads configuration files and resolves
 * environment references for repositories. The format, with every field:
 *
 * <pre>{@code
 * repositories:
 *   - name: local-a              # unique; required
 *     type: fs                   # fs | s3 | minio | azure | gcs | sftp | memory; required
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
 *     checksums: when_supported  # when_required: no x-amz-checksum-* headers (GCS, old B2),
 *                                #   Content-MD5 instead
 *     create: false              # true: create a missing bucket at start-up
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
 *     create: false              # true: create a missing container at start-up
 *   - name: gc
 *     type: gcs
 *     bucket: racs               # required
 *     prefix: racs/              # prefix of every object name; default none
 *     projectId: my-project      # owner of a bucket that create makes; default the key file's
 *                                #   project, or the environment's
 *     credentialsFile: /etc/racs/sa.json  # a service account key; default application default
 *                                #   credentials, or none when endpoint is set (an emulator)
 *     endpoint: http://127.0.0.1:4443     # default https://storage.googleapis.com
 *     create: false              # create the bucket at the first request if it is missing
 *     connectTimeout: 5s
 *     readTimeout: 30s           # the longest wait for a response's next bytes
 *     retries: 2                 # of requests safe to repeat
 *     backoff: 100ms             # doubling up to backoffMax (default 5s)
 *     blockSize: 8MiB            # the largest single-request upload, and the resumable chunk
 *                                #   beyond (a multiple of 256KiB)
 *   - name: nas
 *     type: sftp
 *     host: nas.lan              # required; as known_hosts names it
 *     port: 22                   # default 22
 *     user: racs                 # required
 *     path: /srv/racs            # the directory, which must exist; absolute or relative to the
 *                                #   login directory; required
 *     privateKeyFile: ~/.ssh/id_ed25519   # at least one of privateKeyFile and password
 *     privateKeyPassphrase: ${env:RACS_KEY_PASS}   # when the key is encrypted
 *     password: ${env:RACS_SFTP_PASSWORD}
 *     knownHostsFile: ~/.ssh/known_hosts   # default ~/.ssh/known_hosts; the host key must be in it
 *     trustOnFirstUse: false     # accept (and record) an unlisted host's key; a changed key is
 *                                #   refused either way; default false
 *     connectTimeout: 10s        # connect, key exchange and authentication; default 10s
 *     requestTimeout: 30s        # the answer to any one SFTP request; default 30s
 *     sessions: 1                # SSH connections; default 1
 *     channels: 4                # SFTP channels over them, shared by all calls; default 4
 *     durable: true              # fsync@openssh.com before the rename, where offered; default true
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
  /** The entry record of each type, in the order messages list them. */
  private static final Map<String, Class<? extends BackendEntry>> TYPES = types();

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

  /** Reads one repository entry, named by its position until its name is known. */
  private static RepositoryConfig repository(ConfigSection numbered) {
    if (numbered.node() == null || !numbered.node().isObject()) {
      throw numbered.error("", "expected a mapping with name and type");
    }
    String name = numbered.required("name", numbered.bind("name", String.class));
    ConfigSection entry = numbered.named("repository '" + name + "'");
    String type = entry.required("type", entry.bind("type", String.class));
    Class<? extends BackendEntry> shape = TYPES.get(type);
    if (shape == null) {
      throw entry.error(
          "type",
          "unknown type '"
              + type
              + "' (expected one of: "
              + String.join(", ", TYPES.keySet())
              + ")");
    }
    BackendEntry fields = entry.bind("", entry.node(), shape, "field for type " + type);
    BackendConfig backend = fields.backend(entry, type);
    RepositoryConfig.Builder repository = RepositoryConfig.builder(name, backend);
    JsonNode decorators = fields.decorators();
    if (decorators != null && !decorators.isNull()) {
      if (!decorators.isArray()) {
        throw entry.error("decorators", "expected a list such as [metered]");
      }
      for (int i = 0; i < decorators.size(); i++) {
        repository.decorator(
            DecoratorEntries.decorator(entry, decorators.get(i), "decorators[" + i + "]"));
      }
    }
    return repository.build();
  }

  private static Map<String, Class<? extends BackendEntry>> types() {
    Map<String, Class<? extends BackendEntry>> types = new LinkedHashMap<>();
    types.put("fs", FsEntry.class);
    types.put("s3", S3Entry.class);
    types.put("minio", S3Entry.class);
    types.put("azure", AzureEntry.class);
    types.put("gcs", GcsEntry.class);
    types.put("sftp", SftpEntry.class);
    types.put("memory", MemoryEntry.class);
    return Collections.unmodifiableMap(types);
  }
}
