package io.racs.e2e;

import io.racs.testkit.MinioExtension;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Two proxy processes over the same six MinIO servers (4x2), one on HTTP and one on HTTPS with a
 * throwaway certificate, each on its own bucket per server: the setup every client test uses.
 */
record ProxyPair(ProxyProcess http, ProxyProcess https, Tls tls) implements AutoCloseable {
  static ProxyPair start(MinioExtension minio, Path dir) throws Exception {
    for (int i = 0; i < minio.servers().size(); i++) {
      minio.client(i).createBucket(b -> b.bucket("racs-http"));
      minio.client(i).createBucket(b -> b.bucket("racs-https"));
    }
    Path httpDir = Files.createDirectories(dir.resolve("http"));
    ProxyProcess http =
        ProxyProcess.start(
            httpDir, ProxyProcess.minioConfig(minio.servers(), "racs-http", "4x2", null));
    Path httpsDir = Files.createDirectories(dir.resolve("https"));
    Tls tls = Tls.create(httpsDir);
    ProxyProcess https;
    try {
      https =
          ProxyProcess.start(
              httpsDir,
              ProxyProcess.minioConfig(minio.servers(), "racs-https", "4x2", tls.serverYaml()));
    } catch (Exception e) {
      http.close();
      throw e;
    }
    return new ProxyPair(http, https, tls);
  }

  @Override
  public void close() {
    http.close();
    https.close();
  }
}
