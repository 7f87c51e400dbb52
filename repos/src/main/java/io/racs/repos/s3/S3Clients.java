package io.racs.repos.s3;

import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** Builds the SDK client of an {@link S3Repository} from its {@link S3Options}. */
final class S3Clients {
  private S3Clients() {}

  /**
   * A client on the Apache 5 HTTP client, retrying as the options say, adding and checking flexible
   * checksums as {@link S3Options#checksums()} says, and asking for {@code 100 Continue} on PUTs of
   * at least {@link S3Options#expectContinueBytes()} ({@link ExpectContinue}); does no I/O.
   */
  static S3Client create(S3Options options) {
    S3ClientBuilder builder =
        S3Client.builder()
            .region(Region.of(options.region()))
            .forcePathStyle(options.pathStyle())
            .credentialsProvider(options.credentials().provider())
            .requestChecksumCalculation(
                switch (options.checksums()) {
                  case WHEN_SUPPORTED -> RequestChecksumCalculation.WHEN_SUPPORTED;
                  case WHEN_REQUIRED -> RequestChecksumCalculation.WHEN_REQUIRED;
                })
            .responseChecksumValidation(
                switch (options.checksums()) {
                  case WHEN_SUPPORTED -> ResponseChecksumValidation.WHEN_SUPPORTED;
                  case WHEN_REQUIRED -> ResponseChecksumValidation.WHEN_REQUIRED;
                })
            .httpClientBuilder(
                Apache5HttpClient.builder()
                    .connectionTimeout(options.connectTimeout())
                    .socketTimeout(options.readTimeout())
                    .maxConnections(options.maxConnections()))
            .overrideConfiguration(
                o ->
                    o.addExecutionInterceptor(new ExpectContinue(options.expectContinueBytes()))
                        .retryStrategy(
                            AwsRetryStrategy.standardRetryStrategy().toBuilder()
                                .maxAttempts(options.maxAttempts())
                                .backoffStrategy(
                                    BackoffStrategy.exponentialDelay(
                                        options.backoffBase(), options.backoffMax()))
                                .throttlingBackoffStrategy(
                                    BackoffStrategy.exponentialDelay(
                                        options.backoffBase(), options.backoffMax()))
                                // Failures of one repository must not make the client refuse to
                                // retry later: the store decides what to do with an outage.
                                .circuitBreakerEnabled(false)
                                .build()));
    options.endpoint().ifPresent(builder::endpointOverride);
    return builder.build();
  }
}
