package io.racs.e2e;

import io.racs.testkit.SeededBytes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * What the AWS SDK for Java v2 tests share: the proxy pair over six MinIO servers (4x2), shared
 * with every client test class of the run (buckets prefixed {@code sdk-}), sync and async clients
 * of the HTTP or HTTPS proxy, seeded files and MD5 digests.
 *
 * <p>{@link #dir} is one static field for every subclass, set by JUnit in each class's beforeAll
 * and deleted after it: each subclass holds {@link #LOCK}, so that no two run at once (as in {@link
 * AwsCliSupport}).
 */
abstract class SdkV2Support {
  /** The resource lock every subclass takes, so that no two of them run at once. */
  static final String LOCK = "SdkV2Support.dir";

  @RegisterExtension static final ProxyPairExtension PROXIES = ProxyPairExtension.create();

  @TempDir static Path dir;

  static S3Client client(boolean secure, String secret) {
    ProxyProcess proxy = PROXIES.proxy(secure);
    Apache5HttpClient.Builder httpClient = Apache5HttpClient.builder();
    if (secure) {
      httpClient.tlsTrustManagersProvider(PROXIES.tls()::trustManagers);
    }
    return S3Client.builder()
        .endpointOverride(proxy.endpoint())
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(ProxyProcess.ACCESS_KEY, secret)))
        .httpClientBuilder(httpClient)
        .build();
  }

  static S3AsyncClient asyncClient(boolean secure) {
    ProxyProcess proxy = PROXIES.proxy(secure);
    NettyNioAsyncHttpClient.Builder httpClient = NettyNioAsyncHttpClient.builder();
    if (secure) {
      httpClient.tlsTrustManagersProvider(PROXIES.tls()::trustManagers);
    }
    return S3AsyncClient.builder()
        .endpointOverride(proxy.endpoint())
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .multipartEnabled(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(ProxyProcess.ACCESS_KEY, ProxyProcess.SECRET_KEY)))
        .httpClientBuilder(httpClient)
        .build();
  }

  static Path file(long seed, long size) throws IOException {
    Path file = dir.resolve("data-" + seed + "-" + size);
    try (OutputStream out = Files.newOutputStream(file)) {
      SeededBytes.stream(seed, size).transferTo(out);
    }
    return file;
  }

  static byte[] md5(InputStream in) throws Exception {
    MessageDigest md5 = MessageDigest.getInstance("MD5");
    byte[] buffer = new byte[1 << 16];
    for (int n; (n = in.read(buffer)) > 0; ) {
      md5.update(buffer, 0, n);
    }
    return md5.digest();
  }

  static byte[] md5(Path file) throws Exception {
    try (InputStream in = Files.newInputStream(file)) {
      return md5(in);
    }
  }
}
