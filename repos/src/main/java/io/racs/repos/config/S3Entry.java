package io.racs.repos.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.repos.s3.S3Credentials;
import io.racs.repos.s3.S3Options;
import java.time.Duration;
import java.util.Optional;

/** {@code type: s3} and {@code type: minio}: a bucket on AWS S3 or any S3-compatible store. */
record S3Entry(
    String name,
    String type,
    JsonNode decorators,
    String bucket,
    String region,
    String endpoint,
    String prefix,
    Boolean pathStyle,
    JsonNode credentials,
    String connectTimeout,
    String readTimeout,
    Long retries,
    String backoff,
    String backoffMax,
    Long maxConnections,
    String partSize,
    String keyEncoding,
    String checksums,
    String expectContinue,
    Boolean create)
    implements BackendEntry {

  @Override
  public BackendConfig backend(ConfigSection entry, String type) {
    return new BackendConfig.S3(type, options(entry, type));
  }

  private S3Options options(ConfigSection entry, String type) {
    boolean minio = type.equals("minio");
    S3Options.Builder b = S3Options.builder(entry.required("bucket", bucket()));
    if (minio && endpoint() == null) {
      throw entry.error(
          "endpoint", "missing (expected: the MinIO URL, e.g. http://127.0.0.1:9000)");
    }
    if (endpoint() != null) {
      b.endpoint(entry.url("endpoint", endpoint(), "http://host:9000"));
    }
    Optional.ofNullable(region()).ifPresent(b::region);
    Optional.ofNullable(prefix()).ifPresent(b::keyPrefix);
    b.pathStyle(pathStyle() == null ? minio : pathStyle());
    b.credentials(credentials(entry, credentials()));
    entry
        .duration("connectTimeout", connectTimeout(), DURATION_EXAMPLE)
        .ifPresent(b::connectTimeout);
    entry.duration("readTimeout", readTimeout(), DURATION_EXAMPLE).ifPresent(b::readTimeout);
    b.maxAttempts((int) entry.range("retries", retries(), 2, 0, 100) + 1);
    b.backoff(
        entry.duration("backoff", backoff(), DURATION_EXAMPLE).orElse(Duration.ofMillis(100)),
        entry.duration("backoffMax", backoffMax(), DURATION_EXAMPLE).orElse(Duration.ofSeconds(5)));
    b.maxConnections((int) entry.range("maxConnections", maxConnections(), 64, 1, 10_000));
    long partSize =
        entry
            .size("partSize", partSize(), 0, Long.MAX_VALUE, "a size such as 8MiB")
            .orElse(8L << 20);
    if (partSize < S3Options.MIN_PART_SIZE_BYTES || partSize > 1L << 30) {
      throw entry.error("partSize", partSize + " bytes (expected: 5MiB to 1GiB)");
    }
    b.partSizeBytes((int) partSize);
    String encoding = keyEncoding() == null ? "escaped" : keyEncoding();
    switch (encoding) {
      case "escaped" -> b.keyEncoding(S3Options.KeyEncoding.ESCAPED);
      case "raw" -> b.keyEncoding(S3Options.KeyEncoding.RAW);
      default -> throw entry.error("keyEncoding", "'" + encoding + "' (expected: escaped or raw)");
    }
    String checksumMode = checksums() == null ? "when_supported" : checksums();
    switch (checksumMode) {
      case "when_supported" -> b.checksums(S3Options.Checksums.WHEN_SUPPORTED);
      case "when_required" -> b.checksums(S3Options.Checksums.WHEN_REQUIRED);
      default ->
          throw entry.error(
              "checksums", "'" + checksumMode + "' (expected: when_supported or when_required)");
    }
    if ("off".equals(expectContinue())) {
      b.expectContinueBytes(S3Options.EXPECT_CONTINUE_NEVER);
    } else {
      entry
          .size(
              "expectContinue",
              expectContinue(),
              0,
              Long.MAX_VALUE - 1,
              "a size such as 1MiB, or off")
          .ifPresent(b::expectContinueBytes);
    }
    b.createBucket(create() != null && create());
    try {
      return b.build();
    } catch (IllegalArgumentException e) {
      throw entry.error("", e.getMessage());
    }
  }

  private static S3Credentials credentials(ConfigSection entry, JsonNode value) {
    if (value == null || value.isNull()) {
      return S3Credentials.defaultChain();
    }
    if (value.isTextual()) {
      String text = entry.bind("credentials", value, String.class, "field");
      return switch (text) {
        case "env", "environment" -> S3Credentials.environment();
        case "default" -> S3Credentials.defaultChain();
        default ->
            throw entry.error(
                "credentials",
                "'"
                    + text
                    + "' (expected: env, default, {profile: name} or {accessKey, secretKey})");
      };
    }
    if (!value.isObject()) {
      throw entry.error(
          "credentials", "expected env, default, {profile: name} or {accessKey, secretKey}");
    }
    Keys keys = entry.bind("credentials", value, Keys.class, "field");
    if (keys.profile() != null) {
      return S3Credentials.profile(keys.profile());
    }
    return S3Credentials.of(
        entry.required("credentials.accessKey", keys.accessKey()),
        entry.required("credentials.secretKey", keys.secretKey()));
  }

  record Keys(String profile, String accessKey, String secretKey) {}
}
