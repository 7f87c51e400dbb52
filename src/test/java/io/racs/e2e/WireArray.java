package io.racs.e2e;

import io.racs.repos.emulator.Toxic;
import io.racs.repos.emulator.Toxiproxy;
import io.racs.testkit.MinioExtension;
import io.racs.testkit.ToxiproxyExtension;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The proxy process as a 4x2 array over {@link FaultConfig#N} real MinIO servers, each reached
 * through its own Toxiproxy link: what the wire-fault classes share. The repositories' SDK settings
 * are a 1 s connect timeout, a 5 s read timeout and one retry.
 */
final class WireArray implements AutoCloseable {
  static final String REPOSITORY_BUCKET = "racs";
  static final String BUCKET = "wire";
  private static final String CLIENT_SETTINGS =
      "connectTimeout: 1s\n    readTimeout: 5s\n    retries: 1";

  /** Every link's latency each way while "healthy", and its jitter: a WAN. */
  static final Duration BASE_LATENCY = Duration.ofMillis(20);

  static final Duration BASE_JITTER = Duration.ofMillis(10);

  private final String name;
  private final List<Toxiproxy.Proxy> links;
  private final Path proxyDir;
  private final ProxyProcess proxy;

  private WireArray(String name, List<Toxiproxy.Proxy> links, Path proxyDir, ProxyProcess proxy) {
    this.name = name;
    this.links = List.copyOf(links);
    this.proxyDir = proxyDir;
    this.proxy = proxy;
  }

  /**
   * Links to every server of {@code minio}, the proxy over them, and the bucket {@link #BUCKET}.
   */
  static WireArray start(String name, MinioExtension minio, ToxiproxyExtension toxiproxy)
      throws Exception {
    List<Toxiproxy.Proxy> links = new ArrayList<>();
    List<URI> endpoints = new ArrayList<>();
    for (int i = 0; i < FaultConfig.N; i++) {
      minio.client(i).createBucket(b -> b.bucket(REPOSITORY_BUCKET));
      Toxiproxy.Proxy link = toxiproxy.proxyTo("minio-" + i, minio.server(i).endpoint());
      links.add(link);
      endpoints.add(link.httpEndpoint());
    }
    String config =
        FaultConfig.minio(minio.servers(), endpoints, REPOSITORY_BUCKET, CLIENT_SETTINGS);
    Path proxyDir = Files.createTempDirectory("racs-wire-");
    ProxyProcess proxy = FaultConfig.startProxy(proxyDir, config);
    try (S3Client s3 = FaultLoad.client(proxy.endpoint())) {
      s3.createBucket(b -> b.bucket(BUCKET));
    }
    return new WireArray(name, links, proxyDir, proxy);
  }

  ProxyProcess proxy() {
    return proxy;
  }

  /** The links' ports on 127.0.0.1, in repository order. */
  List<Integer> ports() {
    return links.stream().map(l -> l.listen().getPort()).toList();
  }

  /** Every link late by {@link #BASE_LATENCY} ± {@link #BASE_JITTER} each way. */
  void wan() {
    for (Toxiproxy.Proxy link : links) {
      Toxic late = Toxic.latency(BASE_LATENCY, BASE_JITTER);
      link.add(late);
      link.add(late.upstream());
    }
  }

  /** {@code count} links chosen by {@code seed}. */
  List<Toxiproxy.Proxy> victims(long seed, int count) {
    return Faults.pick(new Random(seed), FaultConfig.N, count).stream().map(links::get).toList();
  }

  /** Adds {@code toxics} to every link of {@code links} under load, and takes them off after. */
  static FaultScenario.Fault on(List<Toxiproxy.Proxy> links, Toxic... toxics) {
    return FaultScenario.Fault.of(
        () -> {
          for (Toxiproxy.Proxy link : links) {
            for (Toxic toxic : toxics) {
              link.add(toxic);
            }
          }
        },
        () -> {
          for (Toxiproxy.Proxy link : links) {
            for (Toxic toxic : toxics) {
              try {
                link.remove(toxic);
              } catch (IllegalStateException e) {
                // Never added: the injection failed half-way.
              }
            }
          }
        });
  }

  /** The latencies of the successful operations {@code op} of a phase, sorted. */
  static long[] sortedNanos(FaultLoad load, String phase, FaultLoad.Op op) {
    return load.results(phase).stream()
        .filter(r -> r.op() == op && r.succeeded())
        .mapToLong(FaultLoad.Result::latencyNanos)
        .sorted()
        .toArray();
  }

  /** The nearest-rank 99th percentile of {@code sorted} (not empty). */
  static long p99(long[] sorted) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)];
  }

  /** "p50 X ms, p99 Y ms (n N)" of the successful operations {@code op} of a phase. */
  static String percentiles(FaultLoad load, String phase, FaultLoad.Op op) {
    long[] sorted = sortedNanos(load, phase, op);
    if (sorted.length == 0) {
      return "none";
    }
    return "p50 "
        + TimeUnit.NANOSECONDS.toMillis(sorted[(sorted.length - 1) / 2])
        + " ms, p99 "
        + TimeUnit.NANOSECONDS.toMillis(p99(sorted))
        + " ms (n "
        + sorted.length
        + ")";
  }

  /** Stops the proxy and keeps its logs under {@code target/fault-logs}. */
  @Override
  public void close() throws IOException {
    proxy.close();
    FaultScenario.keepLogs(name, proxyDir);
  }
}
