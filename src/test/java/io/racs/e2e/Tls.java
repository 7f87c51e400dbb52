package io.racs.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throwaway self-signed certificate for 127.0.0.1, made with openssl, and a trust store for it.
 */
record Tls(Path cert, Path key) {
  static Tls create(Path dir) throws IOException, InterruptedException {
    Path cert = dir.resolve("cert.pem");
    Path key = dir.resolve("key.pem");
    Process p =
        new ProcessBuilder(
                List.of(
                    "openssl",
                    "req",
                    "-x509",
                    "-newkey",
                    "rsa:2048",
                    "-nodes",
                    "-keyout",
                    key.toString(),
                    "-out",
                    cert.toString(),
                    "-days",
                    "2",
                    "-subj",
                    "/CN=127.0.0.1",
                    "-addext",
                    "subjectAltName=IP:127.0.0.1"))
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("openssl failed: " + output);
    }
    return new Tls(cert, key);
  }

  /** The server section lines that enable TLS. */
  String serverYaml() {
    return "  tls: {cert: " + cert + ", key: " + key + "}\n";
  }

  TrustManager[] trustManagers() {
    try (InputStream in = Files.newInputStream(cert)) {
      Certificate certificate = CertificateFactory.getInstance("X.509").generateCertificate(in);
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      store.setCertificateEntry("racs", certificate);
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      return factory.getTrustManagers();
    } catch (Exception e) {
      throw new IllegalStateException("cannot trust " + cert, e);
    }
  }
}
