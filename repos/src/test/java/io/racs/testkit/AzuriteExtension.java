package io.racs.testkit;

import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.BlobServiceVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs a real Azurite blob service (the Azure Storage emulator, as {@code
 * scripts/provision.sh} installs it) on a free port of 127.0.0.1 for a test class, with its own
 * temporary directory, and kills it by PID after the last test.
 *
 * <pre>{@code
 * @RegisterExtension static final AzuriteExtension AZURITE = new AzuriteExtension();
 * }</pre>
 *
 * <p>Azurite keeps its data in that directory and runs in strict mode (no {@code --loose}, no
 * {@code --skipApiVersionCheck}): clients must speak {@link #SERVICE_VERSION}, the newest version
 * it knows, and unsupported headers fail instead of being ignored.
 */
public final class AzuriteExtension implements BeforeAllCallback, AfterAllCallback {
  /** The storage service version Azurite 3.35 speaks. */
  public static final String SERVICE_VERSION = "2025-11-05";

  /** Azurite's well-known development account. */
  public static final String ACCOUNT_NAME = "devstoreaccount1";

  /** The development account's well-known key (public, in Azure's own documentation). */
  public static final String ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private ServerProcess process;
  private Path root;
  private int port;
  private BlobServiceClient service;

  @Override
  public synchronized void beforeAll(ExtensionContext context) throws IOException {
    if (process != null) {
      return;
    }
    root = Files.createTempDirectory("racs-azurite-");
    port = ServerProcess.freePort();
    process =
        ServerProcess.start(
            "Azurite",
            List.of(
                TestTools.azuriteBlob().toString(),
                "--blobHost",
                "127.0.0.1",
                "--blobPort",
                Integer.toString(port),
                "--location",
                root.resolve("data").toString(),
                "--disableTelemetry"),
            root.resolve("azurite.log"));
    process.awaitListening(port, READY_TIMEOUT);
  }

  @Override
  public synchronized void afterAll(ExtensionContext context) {
    if (process == null) {
      return;
    }
    process.stop();
    process = null;
    ServerProcess.deleteTree(root);
  }

  /** The blob service URL, with the account in the path as Azurite expects. */
  public String endpoint() {
    return "http://127.0.0.1:" + port + "/" + ACCOUNT_NAME;
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

  /** A service client for setting up and inspecting containers, over the JDK HttpClient. */
  public synchronized BlobServiceClient service() {
    if (service == null) {
      service =
          new BlobServiceClientBuilder()
              .connectionString(connectionString())
              .httpClient(new JdkHttpClientBuilder().build())
              .serviceVersion(BlobServiceVersion.valueOf("V" + SERVICE_VERSION.replace('-', '_')))
              .buildClient();
    }
    return service;
  }

  /** The last part of Azurite's own log, for failure messages. */
  public String log() {
    return process.logTail();
  }
}
