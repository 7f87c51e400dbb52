package io.racs.bench.object.target;

import io.racs.bench.object.target.s3.S3HttpClient;
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
 * An S3 endpoint (the RACS proxy, a MinIO server), path-style, with one client and connection per
 * benchmark client and no retries, so that every failure is counted. How PUT bodies are signed and
 * checksummed is the endpoint's {@link Payload}: {@code signed} and {@code unsigned} go through the
 * bench's own {@link S3HttpClient} (no more client CPU per operation than warp), {@code sdk}
 * through the AWS SDK v2 with its defaults (one SDK client and connection pool per benchmark
 * client). The bucket is created on first use when missing. Delay injection is not available:
 * {@link #withDelay(Duration)} answers empty for any non-zero delay.
 */
public final class S3EndpointTarget implements Target {
  /**
   * How PUT bodies are signed and checksummed, and whether GETs check a stored checksum. It decides
   * what the client computes for every byte (and what the server verifies), so it is part of what a
   * point measures; reports show it in the target's description.
   */
  public enum Payload {
    /**
     * {@code STREAMING-AWS4-HMAC-SHA256-PAYLOAD}: aws-chunked, a SigV4 signature over the SHA-256
     * of every 64 KiB chunk, no checksum trailer, no {@code Expect: 100-continue}; GETs check
     * nothing. What warp v1.0.0 (minio-go) sends over plain HTTP by default. The default.
     */
    SIGNED("signed", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD, no checksum, no Expect: 100-continue"),
    /**
     * {@code UNSIGNED-PAYLOAD}: the body as it is with its Content-Length, no checksum, no {@code
     * Expect: 100-continue}; GETs check nothing. The least client CPU; what warp sends with {@code
     * --disable-sha256-payload}, and over HTTPS.
     */
    UNSIGNED("unsigned", "UNSIGNED-PAYLOAD, no checksum, no Expect: 100-continue"),
    /**
     * The AWS SDK for Java v2's own defaults, as an application built on it sends: over HTTP,
     * aws-chunked with signed chunks and a CRC32 trailer, {@code Expect: 100-continue} for bodies
     * of 1 MiB and more; GETs ask for the stored checksum and check it.
     */
    SDK("sdk", "AWS SDK v2 defaults: CRC32 trailer, Expect: 100-continue, GET checksum validation");

    private final String label;
    private final String description;

    Payload(String label, String description) {
      this.label = label;
      this.description = description;
    }

    /** The option value: {@code signed}, {@code unsigned} or {@code sdk}. */
    public String label() {
      return label;
    }

    /** What goes on the wire, for reports. */
    public String description() {
      return description;
    }

    /**
     * The payload named {@code label}.
     *
     * @throws IllegalArgumentException when there is none
     */
    public static Payload parse(String label) {
      for (Payload p : values()) {
        if (p.label.equals(label)) {
          return p;
        }
      }
      throw new IllegalArgumentException(
          "--payload: " + label + " (expected: signed, unsigned or sdk)");
    }
  }

  /** How to reach the endpoint, and how to sign what is sent to it. */
  public record Endpoint(
      String name,
      URI uri,
      String accessKey,
      String secretKey,
      String region,
      String bucket,
      Payload payload) {
    /** Checks the fields. */
    public Endpoint {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(uri, "uri");
      Objects.requireNonNull(accessKey, "accessKey");
      Objects.requireNonNull(secretKey, "secretKey");
      Objects.requireNonNull(region, "region");
      Objects.requireNonNull(bucket, "bucket");
      Objects.requireNonNull(payload, "payload");
    }

    @Override
    public String toString() {
      return "Endpoint[name="
          + name
          + ", uri="
          + uri
          + ", bucket="
          + bucket
          + ", payload="
          + payload.label()
          + "]";
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
    d.put("payload", endpoint.payload().label() + " (" + endpoint.payload().description() + ")");
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
    if (endpoint.payload() != Payload.SDK) {
      S3HttpClient client =
          new S3HttpClient(
              endpoint.uri(),
              endpoint.bucket(),
              endpoint.accessKey(),
              endpoint.secretKey(),
              endpoint.region(),
              endpoint.payload() == Payload.SIGNED);
      synchronized (this) {
        if (!bucketChecked) {
          try {
            client.ensureBucket();
          } catch (RuntimeException e) {
            client.close();
            throw e;
          }
          bucketChecked = true;
        }
      }
      return client;
    }
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
