package io.racs.repos.s3;

import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * Where an {@code s3} repository gets its credentials. {@link #toString()} never shows a secret.
 */
public sealed interface S3Credentials {
  /** The SDK provider for these credentials. */
  AwsCredentialsProvider provider();

  /** A fixed access key and secret key. */
  static S3Credentials of(String accessKey, String secretKey) {
    return new Static(accessKey, secretKey);
  }

  /** {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY} from the environment. */
  static S3Credentials environment() {
    return new Environment();
  }

  /** A named profile of {@code ~/.aws/credentials} and {@code ~/.aws/config}. */
  static S3Credentials profile(String profile) {
    return new Profile(profile);
  }

  /** The SDK's default chain: environment, system properties, profile, container, instance. */
  static S3Credentials defaultChain() {
    return new DefaultChain();
  }

  /** Static keys; the secret is masked in {@link #toString()}. */
  record Static(String accessKey, String secretKey) implements S3Credentials {
    /** Checks the keys. */
    public Static {
      if (accessKey == null || accessKey.isEmpty()) {
        throw new IllegalArgumentException("accessKey: empty (expected: a key)");
      }
      if (secretKey == null || secretKey.isEmpty()) {
        throw new IllegalArgumentException("secretKey: empty (expected: a key)");
      }
    }

    @Override
    public AwsCredentialsProvider provider() {
      return StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey));
    }

    @Override
    public String toString() {
      return "static(accessKey=" + accessKey + ", secretKey=****)";
    }
  }

  /** Credentials from the environment. */
  record Environment() implements S3Credentials {
    @Override
    public AwsCredentialsProvider provider() {
      return EnvironmentVariableCredentialsProvider.create();
    }

    @Override
    public String toString() {
      return "environment";
    }
  }

  /** Credentials from a named profile. */
  record Profile(String profile) implements S3Credentials {
    /** Checks the name. */
    public Profile {
      Objects.requireNonNull(profile, "profile");
    }

    @Override
    public AwsCredentialsProvider provider() {
      return ProfileCredentialsProvider.create(profile);
    }

    @Override
    public String toString() {
      return "profile(" + profile + ")";
    }
  }

  /** The SDK's default chain. */
  record DefaultChain() implements S3Credentials {
    @Override
    public AwsCredentialsProvider provider() {
      return DefaultCredentialsProvider.builder().build();
    }

    @Override
    public String toString() {
      return "default";
    }
  }
}
