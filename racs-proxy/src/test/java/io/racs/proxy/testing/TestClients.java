package io.racs.proxy.testing;

import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** AWS SDK v2 clients for proxies that tests start on 127.0.0.1. */
public final class TestClients {
  private TestClients() {}

  /**
   * A path-style client of the proxy on {@code port} that never retries, so that a test sees every
   * answer the proxy gave (a 503 included).
   */
  public static S3Client s3(int port, String accessKey, String secretKey) {
    return S3Client.builder()
        .endpointOverride(URI.create("http://127.0.0.1:" + port))
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
        .overrideConfiguration(o -> o.retryStrategy(b -> b.maxAttempts(1)))
        .build();
  }

  /** The S3 error code {@code call} failed with, or {@code "none"} when it succeeded. */
  public static String errorCode(Runnable call) {
    try {
      call.run();
      return "none";
    } catch (S3Exception e) {
      return e.awsErrorDetails().errorCode();
    }
  }
}
