package io.racs.bench.object.target;

import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * An S3 endpoint (the RACS proxy, a MinIO server) driven with the AWS SDK v2, path-style, with one
 * SDK client and connection pool per benchmark client, and SDK retries off so that every failure is
 * counted. The bucket is created on first use when missing. Delay injection is not available:
 * {@link #withDelay(Duration)} answers empty for any non-zero delay.
 */
public final class S3EndpointTarget implements Target {
  /** How to reach the endpoint. */
  public record Endpoint(
      String name, URI uri, String accessKey, String secretKey, String region, String bucket) {
    /** Checks the fields. */
    public Endpoint {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(accessKey, "accessKey");
      Objects.requireNonNull(secretKey, "secretKey");
      Objects.requireNonNull(region, "region");
      Objects.requireNonNull(bucket, "bucket");
    }

    @Override
    public String toString() {
      return "Endpoint[name=" + name + ", uri=" + uri + ", bucket=" + bucket + "]";
    }
  }

  private final Endpoint endpoint;
  private volatile boolean bucketChecked;

  private S3EndpointTarget(Endpoint endpoint) {
    this.endpoint = endpoint;
  }

  /** A target for {@code endpoint}; does no I/O. */
  public static S3EndpointTarget of(Endpoint endpoint) {
    return new S3EndpointTarget(endpoint);
  }

  @Override
  public String name() {
    return endpoint.name();
  }

  @Override
  public String kind() {
    return "endpoint";
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("type", "s3-endpoint");
    d.put("location", endpoint.uri() + "/" + endpoint.bucket());
    d.put("region", endpoint.region());
    d.put("addressing", "path-style");
    d.put("delayInjection", "not applied");
    return d;
  }

  @Override
  public Optional<Target> withDelay(Duration delay) {
    return delay.isZero() ? Optional.of(this) : Optional.empty();
  }

  private S3Client newClient() {
    return S3Client.builder()
        .endpointOverride(endpoint.uri())
        .region(Region.of(endpoint.region()))
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(endpoint.accessKey(), endpoint.secretKey())))
        .httpClientBuilder(Apache5HttpClient.builder().maxConnections(4))
        .overrideConfiguration(c -> c.retryStrategy(r -> r.maxAttempts(1)))
        .build();
  }

  private synchronized void ensureBucket(S3Client s3) {
    if (bucketChecked) {
      return;
    }
    try {
      s3.headBucket(b -> b.bucket(endpoint.bucket()));
    } catch (S3Exception e) {
      if (e.statusCode() != 404) {
        throw e;
      }
      try {
        s3.createBucket(b -> b.bucket(endpoint.bucket()));
      } catch (BucketAlreadyOwnedByYouException raced) {
        // Another client made it first: fine.
      }
    }
    bucketChecked = true;
  }

  @Override
  public Client client(int index) {
    S3Client s3 = newClient();
    ensureBucket(s3);
    String bucket = endpoint.bucket();
    return new Client() {
      @Override
      public void put(String key, InputStream body, long lengthBytes) {
        s3.putObject(
            b -> b.bucket(bucket).key(key).contentLength(lengthBytes),
            RequestBody.fromInputStream(body, lengthBytes));
      }

      @Override
      public InputStream get(String key, long offset, long lengthBytes) {
        if (lengthBytes == 0) {
          // S3 cannot express an empty range; an empty read needs no request body.
          s3.headObject(b -> b.bucket(bucket).key(key));
          return InputStream.nullInputStream();
        }
        String range =
            lengthBytes < 0
                ? (offset == 0 ? null : "bytes=" + offset + "-")
                : "bytes=" + offset + "-" + (offset + lengthBytes - 1);
        return s3.getObject(b -> b.bucket(bucket).key(key).range(range));
      }

      @Override
      public boolean head(String key) {
        try {
          s3.headObject(b -> b.bucket(bucket).key(key));
          return true;
        } catch (NoSuchKeyException e) {
          return false;
        } catch (S3Exception e) {
          if (e.statusCode() == 404) {
            return false;
          }
          throw e;
        }
      }

      @Override
      public int list(String prefix, int maxKeys) {
        return s3.listObjectsV2(b -> b.bucket(bucket).prefix(prefix).maxKeys(maxKeys))
            .contents()
            .size();
      }

      @Override
      public void delete(String key) {
        s3.deleteObject(b -> b.bucket(bucket).key(key));
      }

      @Override
      public void close() {
        s3.close();
      }
    };
  }

  @Override
  public void close() {}
}
