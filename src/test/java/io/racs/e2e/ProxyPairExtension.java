package io.racs.e2e;

import io.racs.testkit.MinioExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
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
 * <p>The servers and the proxies start before the first test of the first class that registers the
 * extension, and every such class of the test run (one Failsafe JVM) shares them: starting six
 * servers and two proxy JVMs for each class cost about 15 s a class on a loaded two-core machine.
 * They stop when the run ends, with JUnit's root store; the proxies' configurations and logs live
 * in a temporary directory of their own, deleted then. Because the proxies outlive a class, each
 * class creates only buckets named with its own prefix ({@code cli-}, {@code sdk-}, {@code boto3-},
 * {@code mc-}, ...), so classes never see each other's objects, whatever order they run in. Between
 * tests the servers behave as {@link MinioExtension}'s do (any stopped one is restarted); a class
 * that needs another topology or injects faults starts its own servers instead.
 */
final class ProxyPairExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback {
  private static final int SERVERS = 6;
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(ProxyPairExtension.class);

  private volatile Pair pair;

  private ProxyPairExtension() {}

  /** Six MinIO servers and a proxy pair over them, shared by every class of the run. */
  static ProxyPairExtension create() {
    return new ProxyPairExtension();
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    pair =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(Pair.class, key -> Pair.start(), Pair.class);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    started(pair).minio.beforeEach(context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    started(pair).minio.afterEach(context);
  }

  /** The HTTP proxy. */
  ProxyProcess http() {
    return started(pair).http;
  }

  /** The HTTPS proxy, serving {@link #tls()}'s certificate. */
  ProxyProcess https() {
    return started(pair).https;
  }

  /** The HTTPS proxy when {@code secure}, else the HTTP one. */
  ProxyProcess proxy(boolean secure) {
    return secure ? https() : http();
  }

  /** The HTTPS proxy's certificate and a trust store for it. */
  Tls tls() {
    return started(pair).tls;
  }

  private static <T> T started(T part) {
    if (part == null) {
      throw new IllegalStateException(
          "the proxy pair starts with the first test class that registers it");
    }
    return part;
  }

  /**
   * The servers and the proxies, in JUnit's root store: closed once, when the whole run ends (the
   * store closes the {@link AutoCloseable} values it holds).
   */
  private static final class Pair implements AutoCloseable {
    private final MinioExtension minio = MinioExtension.servers(SERVERS);
    private Path dir;
    private ProxyProcess http;
    private ProxyProcess https;
    private Tls tls;

    /** Starts the servers and the proxies; stops whatever started if a step fails. */
    static Pair start() {
      Pair pair = new Pair();
      try {
        pair.startParts();
        return pair;
      } catch (Exception e) {
        try {
          pair.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        throw new IllegalStateException("cannot start the proxy pair: " + e, e);
      }
    }

    private void startParts() throws IOException, InterruptedException {
      minio.start();
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

    /** Stops whatever started, proxies first. */
    @Override
    public void close() {
      try {
        if (https != null) {
          https.close();
        }
        if (http != null) {
          http.close();
        }
      } finally {
        minio.close();
        if (dir != null) {
          deleteTree(dir);
        }
      }
    }
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
