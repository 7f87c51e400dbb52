package io.racs.proxy.cli;

import io.racs.proxy.admin.RepositoryMetrics;
import io.racs.proxy.codec.Geometry;
import io.racs.proxy.config.ArrayConfig;
import io.racs.proxy.config.EncryptionConfig;
import io.racs.proxy.runtime.CoordinationConfig;
import io.racs.proxy.runtime.RacsServer;
import io.racs.proxy.runtime.ServerConfig;
import io.racs.proxy.runtime.startup.ArrayOpening;
import io.racs.proxy.s3.server.AccessLog;
import io.racs.proxy.store.ErasureStore;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.repos.Repository;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositorySetConfig;
import io.racs.repos.fs.FsRepository;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code racs server}: serves S3 over an erasure-coded array. With {@code --config} the array,
 * repositories and server settings come from the file; with nothing it serves on 127.0.0.1:9000
 * from {@code ./racs-data} with six local-directory repositories in 4x2, generating credentials on
 * first start (saved in the data directory) and printing them with a ready {@code aws} command. It
 * refuses a non-loopback address with generated credentials unless {@code --allow-remote}. It runs
 * until stopped (Ctrl-C or SIGTERM), then drains requests in flight.
 *
 * <p>It prints "ready" once it serves. When too few repositories answer at start-up for the array
 * to open, it listens all the same, prints "not ready: ..." and answers 503 while it keeps trying
 * ({@link ArrayOpening}), up to {@code server.startupWait} (no limit by default), and prints
 * "ready" once the array opens; a mistake no wait mends (a repository of another array, a geometry
 * its markers contradict) still exits at once.
 */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Serve S3 over an erasure-coded array of repositories.")
public final class ServerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "RACS configuration: repositories, array, server")
  Path config;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "without --config: where the local repositories live (default: ./racs-data)")
  Path dataDir = Path.of("racs-data");

  @Option(
      names = "--geometry",
      paramLabel = "DxP",
      description = "without --config: data x parity shards (default: 4x2)")
  String geometry = "4x2";

  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      description = "S3 address (default: 127.0.0.1:9000)")
  String listen;

  @Option(
      names = "--admin-listen",
      paramLabel = "HOST:PORT",
      description = "health and metrics address, or 'off' (default: 127.0.0.1:9001)")
  String adminListen;

  @Option(
      names = "--access-key",
      paramLabel = "KEY",
      description = "access key (with --secret-key) instead of generated credentials")
  String accessKey;

  @Option(
      names = "--secret-key",
      paramLabel = "SECRET",
      description = "secret key for --access-key")
  String secretKey;

  @Option(
      names = "--access-log",
      paramLabel = "FILE",
      description =
          "one line per request (time, client, method, bucket/key, status, bytes in and out, ms,"
              + " request id), appended to FILE, or 'off' (default: access.log in the data"
              + " directory, or racs-access.log beside --config)")
  String accessLog;

  @Option(
      names = "--allow-remote",
      description = "allow a non-loopback address with generated credentials")
  boolean allowRemote;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if ((accessKey == null) != (secretKey == null)) {
      throw new IllegalArgumentException("--access-key and --secret-key: give both or neither");
    }
    Path accessLogFile = accessLogFile();
    StoreConfig storeConfig;
    List<Repository> repositories;
    ServerConfig server;
    EncryptionConfig encryption = EncryptionConfig.NONE;
    CoordinationConfig coordination = null;
    String where;
    boolean generated = false;
    if (config != null) {
      RepositorySetConfig file = RepositoryConfigLoader.create().load(config);
      ArrayConfig array = ArrayConfig.from(file);
      server = ServerConfig.from(file);
      encryption = EncryptionConfig.from(file);
      coordination = CoordinationConfig.from(file).orElse(null);
      // Every repository is metered, so /metrics shows which provider is slow or failing.
      storeConfig = array.store();
      repositories = RepositoryMetrics.metered(array.openRepositories());
      where =
          array.store().geometry()
              + " over "
              + array.slots().size()
              + " repositories from "
              + config;
    } else {
      Geometry g = Geometry.parse(geometry);
      Files.createDirectories(dataDir);
      List<Repository> local = new ArrayList<>();
      for (int i = 0; i < g.totalShards(); i++) {
        Path root = Files.createDirectories(dataDir.resolve("repo-" + i));
        local.add(FsRepository.builder(root).name("repo-" + i).build());
      }
      storeConfig = StoreConfig.builder(g).build();
      repositories = RepositoryMetrics.metered(local);
      server = ServerConfig.defaults();
      where = g + " over " + g.totalShards() + " fs repositories in " + dataDir.toAbsolutePath();
      if (accessKey == null) {
        Map<String, String> saved = credentials(dataDir.resolve("credentials"));
        generated = true;
        server = server.with(server.listen(), saved);
      }
    }
    Map<String, String> credentials = new LinkedHashMap<>(server.credentials());
    if (accessKey != null) {
      credentials.put(accessKey, secretKey);
    }
    server = server.with(listen != null ? listen : server.listen(), credentials);
    if (adminListen != null) {
      server = server.withAdmin(adminListen.equals(ServerConfig.OFF) ? null : adminListen);
    }
    InetSocketAddress address = ServerConfig.address(server.listen(), "--listen");
    if (generated && !allowRemote && !loopback(address.getHostString())) {
      repositories.forEach(Repository::close);
      throw new IllegalArgumentException(
          "--listen: "
              + server.listen()
              + " is not a loopback address and the credentials were generated"
              + " (expected: --access-key/--secret-key, or --allow-remote)");
    }
    AccessLog log;
    try {
      log = accessLogFile == null ? AccessLog.off() : AccessLog.toFile(accessLogFile);
    } catch (IOException e) {
      repositories.forEach(Repository::close);
      throw new IllegalArgumentException(
          "--access-log: " + accessLogFile + ": cannot append to it (" + e.getMessage() + ")", e);
    }
    // A mistake no wait mends (a foreign repository, a geometry the markers contradict) throws
    // here, before the proxy listens; too few repositories answering makes it wait (startupWait).
    ArrayOpening opening;
    try {
      opening =
          ArrayOpening.begin(
              storeConfig,
              repositories,
              ArrayOpening.Settings.of(
                  server.waitsForArray() ? server.startupWait() : Duration.ZERO));
    } catch (RuntimeException e) {
      log.close();
      throw e;
    }
    RacsServer running;
    try {
      running = RacsServer.start(opening, server, encryption, log, coordination);
    } catch (RuntimeException | IOException | InterruptedException e) {
      log.close();
      opening.close();
      opening.store().ifPresent(ErasureStore::close);
      throw e;
    }
    String scheme = server.tlsCert() != null ? "https" : "http";
    String endpoint = scheme + "://" + address.getHostString() + ":" + running.port();
    out.printf("RACS serving S3 at %s (%s)%n", endpoint, where);
    if (running.adminPort() > 0) {
      out.printf(
          "admin: http://%s:%d/health/ready and /metrics%n",
          ServerConfig.address(server.adminListen(), "admin").getHostString(), running.adminPort());
      out.printf(
          "console: http://%s:%d/console/ (sign in with a key of server.credentials)%n",
          ServerConfig.address(server.adminListen(), "admin").getHostString(), running.adminPort());
    }
    out.printf(
        "access log: %s%n",
        accessLogFile == null ? "off" : accessLogFile.toAbsolutePath().normalize());
    if (generated) {
      Map.Entry<String, String> key = credentials.entrySet().iterator().next();
      out.printf(
          "access key: %s%nsecret key: %s   (saved in %s)%n",
          key.getKey(), key.getValue(), dataDir.resolve("credentials").toAbsolutePath());
      out.printf(
          "try: AWS_ACCESS_KEY_ID=%s AWS_SECRET_ACCESS_KEY=%s aws --endpoint-url %s s3 ls%n",
          key.getKey(), key.getValue(), endpoint);
    }
    if (!running.open()) {
      out.printf(
          "not ready: the array is not open yet (%s); answering 503 and trying again%s%n",
          opening.status().reason(),
          server.startupWait() == null ? "" : " for up to " + server.startupWait());
    }
    out.flush();
    CompletableFuture<Void> stopped = new CompletableFuture<>();
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  running.close();
                  stopped.complete(null);
                },
                "racs-shutdown"));
    running
        .serving()
        .whenComplete(
            (served, failure) -> {
              if (failure == null) {
                out.println("ready");
                out.flush();
              } else {
                stopped.completeExceptionally(failure);
              }
            });
    try {
      stopped.get();
    } catch (ExecutionException e) {
      // The wait for the array ended without it (startupWait passed, or a repository turned out
      // to be another array's): exit as a start-up that failed at once does.
      running.close();
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
    return ExitCodes.OK;
  }

  /** The access log file: --access-log, else beside the data (or the configuration); null: off. */
  private Path accessLogFile() {
    if (accessLog != null) {
      if (accessLog.isBlank()) {
        throw new IllegalArgumentException(
            "--access-log: '' (expected: a file, or 'off' for no access log)");
      }
      return accessLog.equals("off") ? null : Path.of(accessLog);
    }
    if (config != null) {
      Path parent = config.toAbsolutePath().getParent();
      return parent == null ? Path.of("racs-access.log") : parent.resolve("racs-access.log");
    }
    return dataDir.resolve("access.log");
  }

  private static boolean loopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** Reads the saved credentials, generating and saving them (mode 0600) on first start. */
  static Map<String, String> credentials(Path file) throws IOException {
    Properties properties = new Properties();
    if (Files.isRegularFile(file)) {
      try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        properties.load(in);
      }
    } else {
      SecureRandom random = new SecureRandom();
      properties.setProperty(
          "accessKey", "racs-" + token(random, 12, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"));
      properties.setProperty(
          "secretKey",
          token(random, 40, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"));
      Path temp =
          Files.createTempFile(
              file.getParent(),
              ".credentials",
              ".tmp",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      try (var w = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
        properties.store(w, "RACS credentials, generated on first start. Keep this file private.");
      }
      Files.move(temp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
    String access = properties.getProperty("accessKey");
    String secret = properties.getProperty("secretKey");
    if (access == null || secret == null) {
      throw new IllegalArgumentException(file + ": expected accessKey and secretKey");
    }
    return Map.of(access, secret);
  }

  private static String token(SecureRandom random, int length, String alphabet) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < length; i++) {
      b.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return b.toString();
  }
}
