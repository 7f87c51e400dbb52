package io.racs.testkit;

import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.BlobServiceVersion;
import io.racs.repos.emulator.AzuriteServer;
import io.racs.repos.process.ServerProcess;
import java.io.IOException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs a real Azurite blob service ({@link AzuriteServer}, as {@code
 * scripts/provision.sh} installs it) on a free port of 127.0.0.1 for a test class, with its own
 * temporary directory, and kills it after the last test.
 *
 * <pre>{@code
 * @RegisterExtension static final AzuriteExtension AZURITE = new AzuriteExtension();
 * }</pre>
 */
public final class AzuriteExtension implements BeforeAllCallback, AfterAllCallback {
  /** The storage service version Azurite 3.35 speaks. */
  public static final String SERVICE_VERSION = AzuriteServer.SERVICE_VERSION;

  /** Azurite's well-known development account. */
  public static final String ACCOUNT_NAME = AzuriteServer.ACCOUNT_NAME;

  /** The development account's well-known key (public, in Azure's own documentation). */
  public static final String ACCOUNT_KEY = AzuriteServer.ACCOUNT_KEY;

  private final EmulatorLifecycle<AzuriteServer> lifecycle =
      new EmulatorLifecycle<>("azurite", AzuriteServer::create, AzuriteServer::process);
  private BlobServiceClient service;

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    lifecycle.start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    lifecycle.stop();
  }

  /** The running server's process: to kill, stop, restart or stall it. */
  public ServerProcess process() {
    return lifecycle.server().process();
  }

  /** The blob service URL, with the account in the path as Azurite expects. */
  public String endpoint() {
    return lifecycle.server().endpoint().toString();
  }

  /** A connection string for the development account on this server. */
  public String connectionString() {
    return lifecycle.server().connectionString();
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
    return lifecycle.server().process().logTail();
  }
}
