package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.minio.MinioServer;
import io.racs.testkit.SeededBytes;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.Tag;

/**
 * One array of the reshape tests: its own bucket on each of the six MinIO servers, a 4x2 file and a
 * 3x3 file over the same repositories (both joined to one ZooKeeper, whose acknowledgements end the
 * mover's fence as soon as the proxy has re-read the array record), the proxy process over it, and
 * the {@code racs reshape} commands run as processes, as an operator runs them.
 */
final class ReshapeArray {
  static final String FROM = "4x2";
  static final String TO = "3x3";
  static final String BUCKET = "versioned";

  /** How long a reshape of the tests' data may take, from start to COMPLETE. */
  static final Duration MOVE_LIMIT = Duration.ofSeconds(300);

  private static final Pattern MOVED = Pattern.compile("\"versionsMoved\":(\\d+)");
  private static final Pattern MOVING = Pattern.compile("\"moving\":(true|false)");
  private static final Pattern STATE = Pattern.compile("\"reshape\":\\{\"state\":\"(\\w+)\"");

  final Path dir;
  final Path from;
  final Path to;
  ProxyProcess proxy;

  private ReshapeArray(Path dir, Path from, Path to) {
    this.dir = dir;
    this.from = from;
    this.to = to;
  }

  /**
   * Creates bucket {@code name} on every server, writes the two files under {@code dir} and starts
   * the proxy on the 4x2 one.
   */
  static ReshapeArray start(Path dir, String name, List<MinioServer> servers, String zookeeper)
      throws IOException, InterruptedException {
    for (MinioServer server : servers) {
      try (S3Client minio = io.racs.testkit.MinioExtension.newClient(server)) {
        minio.createBucket(b -> b.bucket(name));
      }
    }
    // The proxy's id defaults to host and port: a restarted proxy is a new member, so the killed
    // one's session (6 s) never holds the leadership or the fence for it.
    String coordination =
        "coordination:\n  zookeeper: "
            + zookeeper
            + "\n  namespace: "
            + name
            + "\n  sessionTimeout: 6s\n";
    String old = FaultConfig.minio(servers, name) + coordination;
    String reshaped = old.replace("geometry: " + FROM + "\n", "geometry: " + TO + "\n");
    assertThat(reshaped).isNotEqualTo(old);
    Path proxyDir = Files.createDirectories(dir.resolve(name));
    ReshapeArray array =
        new ReshapeArray(
            proxyDir,
            Files.writeString(proxyDir.resolve("from.yaml"), old),
            Files.writeString(proxyDir.resolve("to.yaml"), reshaped));
    array.proxy = array.startProxy(array.from);
    return array;
  }

  /** Starts a proxy on {@code file} (the fault suite's environment: requests in its log). */
  ProxyProcess startProxy(Path file) throws IOException, InterruptedException {
    return FaultConfig.startProxy(dir, Files.readString(file));
  }

  /** {@code racs reshape ARGS --config FROM}, printed. */
  static Launcher.Result reshape(Path config, String... args) {
    List<String> command = new ArrayList<>(List.of("reshape"));
    command.addAll(List.of(args));
    command.addAll(List.of("--config", config.toString()));
    Launcher.Result r = Launcher.run(Map.of("RACS_NO_BUILD", "1"), command.toArray(String[]::new));
    System.out.println(
        "racs " + String.join(" ", command) + " -> " + r.exitCode() + "\n" + r.stdout().strip());
    return r;
  }

  /** {@code racs reshape start --to 3x3}; it must be recorded. */
  void startReshape() {
    Launcher.Result start = reshape(from, "start", "--to", to.toString());
    assertThat(start.exitCode()).as("reshape start: %s", start.stderr()).isZero();
    assertThat(start.stdout()).contains("reshape start: recorded on array");
  }

  /** {@code racs reshape status} on the 4x2 file. */
  Launcher.Result status() {
    return reshape(from, "status");
  }

  /**
   * Polls {@code racs reshape status} until it exits 0 (complete); every earlier answer must be 3
   * (running). Returns how many answers said running.
   */
  int awaitComplete(Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    int running = 0;
    while (true) {
      Launcher.Result s = status();
      if (s.exitCode() == 0) {
        assertThat(s.stdout()).contains("reshape status: complete: the array is " + TO);
        return running;
      }
      assertThat(s.exitCode())
          .as("reshape status while it runs: %s%s", s.stdout(), s.stderr())
          .isEqualTo(3);
      running++;
      assertThat(System.nanoTime() - deadline)
          .as("reshape complete within %s; proxy log:\n%s", limit, proxy.log())
          .isNegative();
      TimeUnit.MILLISECONDS.sleep(500); // a poll of the array record, by the operator's command
    }
  }

  /** The proxy's {@code /health/ready} body. */
  String health() throws IOException, InterruptedException {
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + proxy.adminPort() + "/health/ready"))
                  .build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    }
  }

  /** The versions the proxy's mover reports moved, -1 while it does not move. */
  long versionsMovedWhileMoving() throws IOException, InterruptedException {
    return versionsMovedWhileMoving(health());
  }

  /** What {@code health} (a {@code /health/ready} body) says the mover moved, -1: not moving. */
  static long versionsMovedWhileMoving(String h) {
    Matcher moving = MOVING.matcher(h);
    Matcher moved = MOVED.matcher(h);
    Matcher state = STATE.matcher(h);
    if (!moving.find() || !moving.group(1).equals("true") || !state.find()) {
      return -1;
    }
    return state.group(1).equals("running") && moved.find() ? Long.parseLong(moved.group(1)) : -1;
  }

  /** Polls the proxy's report until {@code done} holds of what it says the mover moved. */
  long awaitMover(Predicate<Long> done, Duration limit) throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    while (true) {
      long moved = versionsMovedWhileMoving();
      if (done.test(moved)) {
        return moved;
      }
      assertThat(System.nanoTime() - deadline)
          .as("the mover within %s: %s; proxy log:\n%s", limit, health(), proxy.log())
          .isNegative();
      TimeUnit.MILLISECONDS.sleep(20); // a poll of the proxy's own report
    }
  }

  /**
   * Writes the data the reshape is to move under {@code pre/}: {@code keys} keys of one or two
   * versions (a quarter small enough to be inline, the rest striped over two stripes), every fifth
   * key then deleted (a delete marker on top), every fourth tagged, and one multipart object of two
   * parts.
   */
  static void populate(S3Client s3, long seed, int keys) {
    s3.createBucket(b -> b.bucket(BUCKET));
    s3.putBucketVersioning(
        b ->
            b.bucket(BUCKET)
                .versioningConfiguration(v -> v.status(BucketVersioningStatus.ENABLED)));
    Random random = new Random(seed);
    for (int i = 0; i < keys; i++) {
      String key = String.format("pre/k%02d", i);
      int versions = 1 + random.nextInt(2);
      for (int v = 0; v < versions; v++) {
        int size =
            random.nextInt(4) == 0
                ? random.nextInt(64 * 1024)
                : (1 << 20) + random.nextInt(256 << 10);
        s3.putObject(
            b -> b.bucket(BUCKET).key(key),
            RequestBody.fromBytes(SeededBytes.bytes(random.nextLong(), size)));
      }
      if (i % 4 == 0) {
        s3.putObjectTagging(
            b ->
                b.bucket(BUCKET)
                    .key(key)
                    .tagging(t -> t.tagSet(Tag.builder().key("n").value("v" + key).build())));
      }
      if (i % 5 == 4) {
        s3.deleteObject(b -> b.bucket(BUCKET).key(key));
      }
    }
    String key = "pre/multipart";
    String upload = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(key)).uploadId();
    List<CompletedPart> parts = new ArrayList<>();
    for (int p = 1; p <= 2; p++) {
      int number = p;
      byte[] part = SeededBytes.bytes(random.nextLong(), p == 1 ? 5 << 20 : 1 << 20);
      String etag =
          s3.uploadPart(
                  b -> b.bucket(BUCKET).key(key).uploadId(upload).partNumber(number),
                  RequestBody.fromBytes(part))
              .eTag();
      parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
    }
    s3.completeMultipartUpload(
        b -> b.bucket(BUCKET).key(key).uploadId(upload).multipartUpload(m -> m.parts(parts)));
  }

  /** One version as a client sees it: listed fields, the body's MD5 and the tags. */
  record SeenVersion(
      String key,
      String versionId,
      boolean latest,
      boolean deleteMarker,
      String etag,
      long size,
      String md5,
      List<String> tags) {}

  /** Every version under {@code prefix}, each read back by its id. */
  static List<SeenVersion> versions(S3Client s3, String prefix) {
    List<SeenVersion> seen = new ArrayList<>();
    var pages = s3.listObjectVersionsPaginator(b -> b.bucket(BUCKET).prefix(prefix));
    for (var page : pages) {
      for (var marker : page.deleteMarkers()) {
        seen.add(
            new SeenVersion(
                marker.key(), marker.versionId(), marker.isLatest(), true, "", 0, "", List.of()));
      }
      for (ObjectVersion v : page.versions()) {
        byte[] body =
            s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(v.key()).versionId(v.versionId()))
                .asByteArray();
        List<String> tags =
            s3
                .getObjectTagging(b -> b.bucket(BUCKET).key(v.key()).versionId(v.versionId()))
                .tagSet()
                .stream()
                .map(t -> t.key() + "=" + t.value())
                .toList();
        seen.add(
            new SeenVersion(
                v.key(),
                v.versionId(),
                v.isLatest(),
                false,
                v.eTag(),
                v.size(),
                Clients.md5Hex(body),
                tags));
      }
    }
    seen.sort(
        java.util.Comparator.comparing(SeenVersion::key).thenComparing(SeenVersion::versionId));
    return seen;
  }
}
