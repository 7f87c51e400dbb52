package io.racs.proxy.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.repos.config.ConfigException;
import io.racs.repos.config.RepositorySetConfig;
import io.racs.repos.config.Units;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code server:} section of a RACS configuration file: how {@code racs server} listens and
 * whom it lets in. Credentials may (and should) come from {@code ${env:NAME}} references.
 *
 * <pre>{@code
 * server:
 *   listen: 127.0.0.1:9000      # a non-loopback address must be asked for explicitly
 *   adminListen: 127.0.0.1:9001 # /health/live, /health/ready, /metrics (Prometheus)
 *   region: us-east-1
 *   baseDomain: s3.example.test # enables virtual-host style requests
 *   credentials:
 *     - {accessKey: admin, secretKey: ${env:RACS_SECRET}}
 *   tls: {cert: /etc/racs/cert.pem, key: /etc/racs/key.pem}
 *   maxHeaderSize: 16KiB
 *   idleTimeout: 60s
 *   drainTimeout: 30s
 *   scrubInterval: 24h          # background heal (0s: off)
 * }</pre>
 *
 * @param listen host:port for S3
 * @param adminListen host:port for health and metrics, or null for none
 * @param region the region clients sign for
 * @param baseDomain virtual-host base domain, or null
 * @param credentials access key to secret key
 * @param tlsCert PEM certificate chain, or null for plain HTTP
 * @param tlsKey PEM private key, or null
 * @param maxHeaderBytes largest request head accepted
 * @param idleTimeout idle connections close after this
 * @param drainTimeout shutdown waits this long for requests in flight
 * @param scrubInterval background heal interval; zero for off
 */
public record ServerConfig(
    String listen,
    String adminListen,
    String region,
    String baseDomain,
    Map<String, String> credentials,
    Path tlsCert,
    Path tlsKey,
    int maxHeaderBytes,
    Duration idleTimeout,
    Duration drainTimeout,
    Duration scrubInterval) {
  private static final Set<String> FIELDS =
      Set.of(
          "listen",
          "adminListen",
          "region",
          "baseDomain",
          "credentials",
          "tls",
          "maxHeaderSize",
          "idleTimeout",
          "drainTimeout",
          "scrubInterval");

  /** The defaults: loopback, no credentials yet. */
  public static ServerConfig defaults() {
    return new ServerConfig(
        "127.0.0.1:9000",
        "127.0.0.1:9001",
        "us-east-1",
        null,
        Map.of(),
        null,
        null,
        16 * 1024,
        Duration.ofSeconds(60),
        Duration.ofSeconds(30),
        Duration.ZERO);
  }

  /** Reads the section (absent: the defaults) from a loaded file. */
  public static ServerConfig from(RepositorySetConfig file) {
    ServerConfig d = defaults();
    Optional<JsonNode> section = file.section("server");
    if (section.isEmpty()) {
      return d;
    }
    JsonNode s = section.get();
    for (Iterator<String> names = s.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!FIELDS.contains(name)) {
        throw error(file, name, "unknown field (expected one of " + new TreeSet<>(FIELDS) + ")");
      }
    }
    Map<String, String> credentials = new LinkedHashMap<>();
    JsonNode list = s.get("credentials");
    if (list != null) {
      if (!list.isArray()) {
        throw error(file, "credentials", "expected a list of {accessKey, secretKey}");
      }
      for (JsonNode c : list) {
        String access = env(file, "credentials", c.path("accessKey").asText(""));
        String secret = env(file, "credentials", c.path("secretKey").asText(""));
        if (access.isEmpty() || secret.isEmpty()) {
          throw error(file, "credentials", "each entry needs accessKey and secretKey");
        }
        if (credentials.put(access, secret) != null) {
          throw error(file, "credentials", "access key '" + access + "' listed twice");
        }
      }
    }
    Path cert = null;
    Path key = null;
    JsonNode tls = s.get("tls");
    if (tls != null) {
      cert = Path.of(tls.path("cert").asText(""));
      key = Path.of(tls.path("key").asText(""));
      if (cert.toString().isEmpty() || key.toString().isEmpty()) {
        throw error(file, "tls", "expected {cert: FILE, key: FILE}");
      }
    }
    return new ServerConfig(
        text(s, "listen").orElse(d.listen()),
        text(s, "adminListen").orElse(d.adminListen()),
        text(s, "region").orElse(d.region()),
        text(s, "baseDomain").orElse(null),
        credentials,
        cert,
        key,
        (int) size(file, s, "maxHeaderSize", d.maxHeaderBytes()),
        duration(file, s, "idleTimeout", d.idleTimeout()),
        duration(file, s, "drainTimeout", d.drainTimeout()),
        duration(file, s, "scrubInterval", d.scrubInterval()));
  }

  /** A copy with other fields. */
  public ServerConfig with(String listen, Map<String, String> credentials) {
    return new ServerConfig(
        listen,
        adminListen,
        region,
        baseDomain,
        credentials,
        tlsCert,
        tlsKey,
        maxHeaderBytes,
        idleTimeout,
        drainTimeout,
        scrubInterval);
  }

  /** A copy with another admin address (null: none). */
  public ServerConfig withAdmin(String adminListen) {
    return new ServerConfig(
        listen,
        adminListen,
        region,
        baseDomain,
        credentials,
        tlsCert,
        tlsKey,
        maxHeaderBytes,
        idleTimeout,
        drainTimeout,
        scrubInterval);
  }

  private static final java.util.regex.Pattern ENV =
      java.util.regex.Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

  /** Resolves {@code ${env:NAME}} references, as the repositories section does. */
  private static String env(RepositorySetConfig file, String field, String value) {
    java.util.regex.Matcher m = ENV.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String resolved = System.getenv(m.group(1));
      if (resolved == null) {
        throw error(file, field, "environment variable " + m.group(1) + " is not set");
      }
      m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(resolved));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static Optional<String> text(JsonNode s, String field) {
    JsonNode node = s.get(field);
    return node == null || node.isNull() ? Optional.empty() : Optional.of(node.asText());
  }

  private static long size(RepositorySetConfig file, JsonNode s, String field, long fallback) {
    Optional<String> text = text(s, field);
    if (text.isEmpty()) {
      return fallback;
    }
    OptionalLong value = Units.size(text.get());
    if (value.isEmpty() || value.getAsLong() < 1024 || value.getAsLong() > (1 << 20)) {
      throw error(file, field, "expected a size from 1KiB to 1MiB, got '" + text.get() + "'");
    }
    return value.getAsLong();
  }

  private static Duration duration(
      RepositorySetConfig file, JsonNode s, String field, Duration fallback) {
    Optional<String> text = text(s, field);
    if (text.isEmpty()) {
      return fallback;
    }
    return Units.duration(text.get())
        .orElseThrow(
            () -> error(file, field, "expected a duration such as 30s, got '" + text.get() + "'"));
  }

  private static ConfigException error(RepositorySetConfig file, String field, String problem) {
    return new ConfigException(file.source() + ": server: field '" + field + "': " + problem);
  }

  /** Host and port of a {@code host:port} text. */
  public static java.net.InetSocketAddress address(String hostPort, String what) {
    int colon = hostPort.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException(what + ": " + hostPort + " (expected: host:port)");
    }
    try {
      String host = hostPort.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      return java.net.InetSocketAddress.createUnresolved(
          host, Integer.parseInt(hostPort.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(what + ": " + hostPort + " (expected: host:port)", e);
    }
  }

  @Override
  public String toString() {
    return "ServerConfig[listen="
        + listen
        + ", region="
        + region
        + ", credentials="
        + credentials.keySet()
        + " (secrets hidden)]";
  }
}
