package io.racs.e2e;

import io.racs.testkit.MinioExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The setup every client test uses, as a JUnit 5 extension: six real MinIO servers and two proxy
 * processes over them (4x2), one on HTTP and one on HTTPS with a throwaway certificate, each on its
 * own bucket per server. Register it on a static field:
 *
 * <pre>{@code
 * @RegisterExtension static final ProxyPairExtension PROXIES = ProxyPairExtension.create();
 * }</pre>
 *
 * <p>The servers and the proxies start before the first test of the class and stop after the last;
 * the proxies' configurations and logs live in a temporary directory of their own, deleted then.
 * Between tests the servers behave as {@link MinioExtension}'s do (any stopped one is restarted).
 */
final class ProxyPairExtension
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {
  private static final int SERVERS = 6;

  private final MinioExtension minio = MinioExtension.servers(SERVERS);
  private Path dir;
  private ProxyProcess http;
  private ProxyProcess https;
  private Tls tls;

  private ProxyPairExtension() {}

  /** Six MinIO servers and a proxy pair over them, started with the test class. */
  static ProxyPairExtension create() {
    return new ProxyPairExtension();
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    minio.beforeAll(context);
    for (int i = 0; i < SERVERS; i++) {
      minio.client(i).createBucket(b -> b.bucket("racs-http"));
      minio.client(i).createBucket(b -> b.bucket("racs-https"));
    }
    dir = Files.createTempDirectory("racs-e2e-proxies-");
    Path httpDir = Files.createDirectories(dir.resolve("http"));
    http =
        ProxyProcess.start(
            httpDir, ProxyProcess.minioConfig(minio.servers(), "racs-http", "4x2", null));
    Path httpsDir = Files.createDirectories(dir.resolve("https"));
    tls = Tls.create(httpsDir);
    https =
        ProxyProcess.start(
            httpsDir,
            ProxyProcess.minioConfig(minio.servers(), "racs-https", "4x2", tls.serverYaml()));
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    minio.beforeEach(context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    minio.afterEach(context);
  }

  /** Stops whatever started, proxies first, even when {@link #beforeAll} failed half-way. */
  @Override
  public void afterAll(ExtensionContext context) {
    try {
      if (https != null) {
        https.close();
      }
      if (http != null) {
        http.close();
      }
    } finally {
      http = null;
      https = null;
      tls = null;
      minio.afterAll(context);
      if (dir != null) {
        deleteTree(dir);
        dir = null;
      }
    }
  }

  /** The HTTP proxy. */
  ProxyProcess http() {
    return started(http);
  }

  /** The HTTPS proxy, serving {@link #tls()}'s certificate. */
  ProxyProcess https() {
    return started(https);
  }

  /** The HTTPS proxy when {@code secure}, else the HTTP one. */
  ProxyProcess proxy(boolean secure) {
    return secure ? https() : http();
  }

  /** The HTTPS proxy's certificate and a trust store for it. */
  Tls tls() {
    return started(tls);
  }

  private static <T> T started(T part) {
    if (part == null) {
      throw new IllegalStateException("the proxy pair runs only while its test class does");
    }
    return part;
  }

  private static void deleteTree(Path root) {
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                throws IOException {
              Files.delete(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
              Files.delete(d);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
    }
  }
}
