package io.racs.repos.emulator;

import io.racs.repos.minio.ProvisionedTools;
import io.racs.repos.process.ServerProcess;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real Azurite blob service (the Azure Storage emulator, {@code azurite-blob} as {@code
 * scripts/provision.sh} installs it from npm) on 127.0.0.1, keeping its data under its home
 * directory across restarts.
 *
 * <p>Azurite runs in strict mode (no {@code --loose}, no {@code --skipApiVersionCheck}): clients
 * must speak {@link #SERVICE_VERSION}, the newest version it knows, and unsupported headers fail
 * instead of being ignored. It is weaker than Azure in ways a test over it cannot show: no
 * throttling (503 ServerBusy), no geo-replication lag, and listing has no {@code startFrom}. It
 * also keeps its containers' and blobs' index in memory (LokiJS) and saves it every few seconds and
 * on a graceful stop: a SIGKILL loses what it acknowledged since, containers included, which Azure
 * never does. Tests that take it away as an outage stop it ({@link ServerProcess#stop()}).
 */
public final class AzuriteServer implements AutoCloseable {
  /** The storage service version Azurite 3.35 speaks. */
  public static final String SERVICE_VERSION = "2025-11-05";

  /** Azurite's well-known development account. */
  public static final String ACCOUNT_NAME = "devstoreaccount1";

  /** The development account's well-known key (public, in Azure's own documentation). */
  public static final String ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private final ServerProcess process;

  private AzuriteServer(Path home, Path binary) {
    this.process =
        new ServerProcess(
            "azurite",
            home,
            port ->
                List.of(
                    binary.toString(),
                    "--blobHost",
                    "127.0.0.1",
                    "--blobPort",
                    Integer.toString(port),
                    "--location",
                    home.resolve("data").toString(),
                    "--disableTelemetry"),
            READY_TIMEOUT);
  }

  /** A server living under {@code home}, run from the provisioned {@code azurite-blob}. */
  public static AzuriteServer create(Path home) {
    return new AzuriteServer(home, ProvisionedTools.require("RACS_AZURITE_BLOB"));
  }

  /** The process: start, stop, kill, its PIDs and log. */
  public ServerProcess process() {
    return process;
  }

  /** The blob service URL, with the account in the path as Azurite expects. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + process.port() + "/" + ACCOUNT_NAME);
  }

  /** A connection string for the development account on this server. */
  public String connectionString() {
    return "DefaultEndpointsProtocol=http;AccountName="
        + ACCOUNT_NAME
        + ";AccountKey="
        + ACCOUNT_KEY
        + ";BlobEndpoint="
        + endpoint()
        + ";";
  }

  @Override
  public void close() {
    process.close();
  }
}
