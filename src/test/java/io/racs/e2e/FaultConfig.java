package io.racs.e2e;

import io.racs.repos.minio.MinioServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Proxy configurations for the fault suite: a 4x2 array whose slow-shard timeout (30 s) is three
 * times the clients' request timeout ({@link FaultLoad#CLIENT_TIMEOUT}) and far above the stall
 * grace (1 s, as shipped), so that a request that waits for a stalled repository until the
 * slow-shard timeout shows as a client timeout. The MinIO repositories' own read timeout is longer
 * still (60 s), so that it is the proxy's stall handling, not the HTTP client of a repository, that
 * gives up on a stalled server; they never retry, so a failure reaches the store at once.
 */
final class FaultConfig {
  static final String GEOMETRY = "4x2";
  static final int N = 6;
  static final int M = 2;

  private FaultConfig() {}

  /** Over MinIO servers, one bucket per server (created by the caller). */
  static String minio(List<MinioServer> servers, String bucket) {
    return minio(
        servers,
        servers.stream().map(MinioServer::endpoint).toList(),
        bucket,
        "connectTimeout: 1s\n    readTimeout: 60s\n    retries: 0");
  }

  /**
   * Over MinIO servers reached at {@code endpoints} (one per server, in order: the servers
   * themselves, or a fault proxy in front of each), each repository with {@code clientSettings}
   * (YAML lines of the repository entry, indented for it).
   */
  static String minio(
      List<MinioServer> servers, List<URI> endpoints, String bucket, String clientSettings) {
    StringBuilder yaml = header();
    for (int i = 0; i < servers.size(); i++) {
      MinioServer s = servers.get(i);
      yaml.append("  - name: minio-")
          .append(i)
          .append("\n    type: minio\n    endpoint: ")
          .append(endpoints.get(i))
          .append("\n    bucket: ")
          .append(bucket)
          .append("\n    credentials: {accessKey: ")
          .append(s.accessKey())
          .append(", secretKey: ")
          .append(s.secretKey())
          .append("}\n    ")
          .append(clientSettings)
          .append("\n");
    }
    return yaml.toString();
  }

  /** Over local directories, one per slot. */
  static String fs(List<Path> roots) {
    StringBuilder yaml = header();
    for (int i = 0; i < roots.size(); i++) {
      yaml.append("  - {name: fs-")
          .append(i)
          .append(", type: fs, path: ")
          .append(roots.get(i))
          .append("}\n");
    }
    return yaml.toString();
  }

  static StringBuilder header() {
    StringBuilder yaml = new StringBuilder();
    yaml.append("array:\n  geometry: ")
        .append(GEOMETRY)
        .append("\n  slowShardTimeout: 30s\n  stallGrace: 1s\n");
    yaml.append("server:\n  listen: 127.0.0.1:0\n  adminListen: 127.0.0.1:0\n");
    yaml.append("  credentials:\n    - {accessKey: ")
        .append(ProxyProcess.ACCESS_KEY)
        .append(", secretKey: ")
        .append(ProxyProcess.SECRET_KEY)
        .append("}\n");
    yaml.append("repositories:\n");
    return yaml;
  }

  /** Starts a proxy on {@code config} in {@code dir}, with {@link #proxyEnvironment}. */
  static ProxyProcess startProxy(Path dir, String config) throws IOException, InterruptedException {
    return ProxyProcess.start(dir, config, proxyEnvironment(dir));
  }

  /**
   * The environment for a fault-suite proxy: its log also names every request with its id, status
   * and time (the S3 connection's debug lines), so that a slow or failed request a test reports can
   * be found in the log the suite keeps. Writes the logging configuration into {@code dir}.
   */
  static Map<String, String> proxyEnvironment(Path dir) throws IOException {
    Path logback = dir.resolve("logback.xml");
    Files.writeString(
        logback,
        """
        <configuration>
          <appender name="STDERR" class="ch.qos.logback.core.ConsoleAppender">
            <target>System.err</target>
            <encoder>
              <pattern>%d{HH:mm:ss.SSS} %-5level [%X{requestId:-}] %logger{20} - %msg%n</pattern>
            </encoder>
          </appender>
          <logger name="io.netty" level="WARN"/>
          <logger name="software.amazon" level="WARN"/>
          <logger name="org.apache" level="WARN"/>
          <logger name="com.azure" level="OFF"/>
          <logger name="io.racs.proxy.s3.server.S3Connection" level="DEBUG"/>
          <logger name="io.racs.proxy.s3.bridge" level="DEBUG"/>
          <root level="INFO">
            <appender-ref ref="STDERR"/>
          </root>
        </configuration>
        """);
    return Map.of("RACS_JAVA_OPTS", "-Dlogback.configurationFile=" + logback);
  }
}
