package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.e2e.AcknowledgedWrites.Value;
import io.racs.testkit.SeededBytes;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A bounded, seeded, concurrent load of PUT, GET, DELETE and LIST on a few keys under one prefix,
 * through one or more proxy endpoints, every answer judged by an {@link AcknowledgedWrites} model.
 * The fault tests start it, label the operations that follow with a phase ("healthy", "fault",
 * "recovered"), wait for enough operations of each phase to finish (a condition, never a fixed
 * sleep), stop it, and assert on what each phase saw.
 *
 * <p>Every client has a request timeout ({@link #CLIENT_TIMEOUT}, retries off) well below the
 * proxy's slow-shard timeout in the fault configurations, so a request that waits for a stalled
 * repository until the slow-shard timeout shows as a client timeout rather than as a slow success.
 *
 * <p>Bodies are drawn from the seed: a third under 4 KiB, a third up to the inline limit (128 KiB),
 * a third striped (up to 1.25 MiB, so two stripes of 1 MiB). The model knows them by MD5 and size.
 */
final class FaultLoad implements AutoCloseable {
  /** Well below the 30 s slow-shard timeout the fault configurations use. */
  static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(10);

  /** A pseudo-status: no answer within {@link #CLIENT_TIMEOUT}. */
  static final int TIMED_OUT = -1;

  /**
   * A pseudo-status: the connection failed before an answer came (refused, reset, or closed while
   * the request body was still being sent, so the client never read the response).
   */
  static final int CLOSED = -2;

  /** The operations of the load. */
  enum Op {
    PUT,
    GET,
    DELETE,
    LIST
  }

  /** Relative weights of the operations. */
  record Mix(int put, int get, int delete, int list) {
    static final Mix MIXED = new Mix(35, 45, 10, 10);
    static final Mix OVERWRITE = new Mix(40, 60, 0, 0);
    static final Mix PUT_ONLY = new Mix(1, 0, 0, 0);

    Op pick(Random random) {
      int r = random.nextInt(put + get + delete + list);
      if (r < put) {
        return Op.PUT;
      }
      if (r < put + get) {
        return Op.GET;
      }
      return r < put + get + delete ? Op.DELETE : Op.LIST;
    }
  }

  /**
   * One finished operation: its phase, what it did, the HTTP status it got ({@link #TIMED_OUT} or
   * {@link #CLOSED} for none), the S3 error code or exception, when it was sent and answered
   * ({@link System#nanoTime()}), and the model's verdict (null: fine).
   */
  record Result(
      String phase,
      Op op,
      String key,
      int status,
      String error,
      long startedNanos,
      long endedNanos,
      String violation) {
    boolean succeeded() {
      return status >= 200 && status < 300 || (op == Op.GET && status == 404);
    }

    long latencyNanos() {
      return endedNanos - startedNanos;
    }
  }

  private final List<S3Client> clients = new ArrayList<>();
  private final String bucket;
  private final String prefix;
  private final int keys;
  private final Mix mix;
  private final long seed;
  private final AcknowledgedWrites model;
  private final ConcurrentLinkedQueue<Result> results = new ConcurrentLinkedQueue<>();
  private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
  private final List<Thread> workers = new ArrayList<>();
  private volatile String phase = "healthy";
  private volatile boolean running;
  private final java.util.concurrent.atomic.AtomicInteger putsOnTheWire =
      new java.util.concurrent.atomic.AtomicInteger();

  /**
   * A load on {@code keys} keys named {@code prefix + "k" + i} in {@code bucket}, spread over the
   * {@code endpoints} (each operation picks one at random), judged by {@code model}.
   */
  FaultLoad(
      List<URI> endpoints,
      String bucket,
      String prefix,
      int keys,
      Mix mix,
      long seed,
      AcknowledgedWrites model) {
    for (URI endpoint : endpoints) {
      clients.add(client(endpoint));
    }
    this.bucket = bucket;
    this.prefix = prefix;
    this.keys = keys;
    this.mix = mix;
    this.seed = seed;
    this.model = model;
  }

  /** An SDK v2 client for a proxy endpoint: path style, no retries, {@link #CLIENT_TIMEOUT}. */
  static S3Client client(URI endpoint) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(ProxyProcess.ACCESS_KEY, ProxyProcess.SECRET_KEY)))
        .overrideConfiguration(
            o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()).apiCallTimeout(CLIENT_TIMEOUT))
        .httpClientBuilder(Apache5HttpClient.builder().maxConnections(64))
        .build();
  }

  String key(int i) {
    return prefix + String.format("k%02d", i);
  }

  /** Writes every key once, sequentially, through the first endpoint; each must succeed. */
  void populate() {
    Random random = new Random(seed);
    for (int i = 0; i < keys; i++) {
      Result r = put("populate", clients.get(0), key(i), random.nextLong());
      assertThat(r.status()).as("populating %s: %s", r.key(), r.error()).isEqualTo(200);
    }
  }

  /** Starts {@code count} worker threads, each with its own stream of the seed. */
  void start(int count) {
    running = true;
    for (int w = 0; w < count; w++) {
      Random random = new Random(seed * 1_000_003L + w + 1);
      workers.add(Thread.ofPlatform().name("fault-load-" + w).start(() -> work(random)));
    }
  }

  /**
   * Labels the operations that begin from now on, and waits until every operation of the previous
   * phase has finished, so that what the test does next (inject or lift a fault) happens after all
   * of them.
   */
  void phase(String name) throws InterruptedException {
    String previous;
    synchronized (this) {
      previous = phase;
      phase = name;
    }
    AtomicInteger active = inFlight.computeIfAbsent(previous, p -> new AtomicInteger());
    long deadline = System.nanoTime() + 3 * CLIENT_TIMEOUT.toNanos();
    while (active.get() > 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            active.get() + " operations of phase " + previous + " still running: " + summary());
      }
      // A poll of a counter the workers lower as the proxy answers them.
      TimeUnit.MILLISECONDS.sleep(5);
    }
  }

  /** The phase of an operation that begins now, counted in flight until {@link #leave}. */
  private synchronized String enter() {
    inFlight.computeIfAbsent(phase, p -> new AtomicInteger()).incrementAndGet();
    return phase;
  }

  private void leave(String phaseName) {
    inFlight.get(phaseName).decrementAndGet();
  }

  /**
   * Waits until {@code count} operations of the current phase have finished; fails if that takes
   * longer than {@code limit} (the load made no progress: requests hang).
   */
  void awaitOps(int count, Duration limit) throws InterruptedException {
    String current = phase;
    long deadline = System.nanoTime() + limit.toNanos();
    while (finished(current) < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "only "
                + finished(current)
                + " of "
                + count
                + " operations of phase "
                + current
                + " finished in "
                + limit
                + ": "
                + summary());
      }
      // A poll of a counter the workers raise; the proxy's answers are what the test waits for.
      TimeUnit.MILLISECONDS.sleep(20);
    }
  }

  private long finished(String phaseName) {
    return results.stream().filter(r -> r.phase().equals(phaseName)).count();
  }

  /** Stops the workers after their current operation and waits for them. */
  void stop() throws InterruptedException {
    running = false;
    for (Thread worker : workers) {
      worker.join(CLIENT_TIMEOUT.toMillis() * 3);
      assertThat(worker.isAlive()).as("%s stopped", worker.getName()).isFalse();
    }
    workers.clear();
  }

  private void work(Random random) {
    while (running) {
      S3Client client = clients.get(random.nextInt(clients.size()));
      Op op = mix.pick(random);
      String key = key(random.nextInt(keys));
      long bodySeed = random.nextLong();
      String currentPhase = enter();
      long started = System.nanoTime();
      try {
        results.add(
            switch (op) {
              case PUT -> put(currentPhase, client, key, bodySeed);
              case GET -> get(currentPhase, client, key);
              case DELETE -> delete(currentPhase, client, key);
              case LIST -> list(currentPhase, client);
            });
      } catch (RuntimeException e) {
        // Not an answer of the proxy's (the SDK's own exceptions are); recorded so that it fails
        // the test as an unexpected error instead of silently ending this worker.
        results.add(
            new Result(currentPhase, op, key, 0, e.toString(), started, System.nanoTime(), null));
      } finally {
        leave(currentPhase);
      }
    }
  }

  /** Bodies from a seed: small, inline-sized or striped, in equal parts. */
  static byte[] body(long bodySeed) {
    Random random = new Random(bodySeed);
    int size =
        switch (random.nextInt(3)) {
          case 0 -> random.nextInt(4096);
          case 1 -> 4096 + random.nextInt(124 * 1024);
          default -> 128 * 1024 + random.nextInt(1152 * 1024);
        };
    return SeededBytes.bytes(random.nextLong(), size);
  }

  private Result put(String currentPhase, S3Client client, String key, long bodySeed) {
    byte[] data = body(bodySeed);
    AcknowledgedWrites.Write write =
        model.beginPut(key, new Value(Clients.md5Hex(data), data.length));
    long started = System.nanoTime();
    putsOnTheWire.incrementAndGet();
    try {
      client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(data));
      write.acknowledged();
      return new Result(currentPhase, Op.PUT, key, 200, null, started, System.nanoTime(), null);
    } catch (S3Exception e) {
      write.failed();
      return failure(currentPhase, Op.PUT, key, e, started);
    } catch (SdkClientException e) {
      write.unknown();
      return noAnswer(currentPhase, Op.PUT, key, e, started);
    } finally {
      putsOnTheWire.decrementAndGet();
    }
  }

  /**
   * Waits until at least one PUT has been sent and not answered (at most {@code limit}), so that a
   * fault injected next meets a PUT in flight: on a fast machine the writers can otherwise all be
   * between requests, making their bodies, at the moment it strikes.
   */
  void awaitPutInFlight(Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (putsOnTheWire.get() == 0 && System.nanoTime() - deadline < 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(200_000); // a condition, polled
    }
  }

  private Result delete(String currentPhase, S3Client client, String key) {
    AcknowledgedWrites.Write write = model.beginDelete(key);
    long started = System.nanoTime();
    try {
      client.deleteObject(b -> b.bucket(bucket).key(key));
      write.acknowledged();
      return new Result(currentPhase, Op.DELETE, key, 204, null, started, System.nanoTime(), null);
    } catch (S3Exception e) {
      write.failed();
      return failure(currentPhase, Op.DELETE, key, e, started);
    } catch (SdkClientException e) {
      write.unknown();
      return noAnswer(currentPhase, Op.DELETE, key, e, started);
    }
  }

  private Result get(String currentPhase, S3Client client, String key) {
    long begin = model.now();
    long started = System.nanoTime();
    Value observed;
    int status;
    try {
      byte[] data = client.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
      observed = new Value(Clients.md5Hex(data), data.length);
      status = 200;
    } catch (S3Exception e) {
      if (e.statusCode() != 404 || !"NoSuchKey".equals(code(e))) {
        return failure(currentPhase, Op.GET, key, e, started);
      }
      observed = Value.ABSENT;
      status = 404;
    } catch (SdkClientException e) {
      return noAnswer(currentPhase, Op.GET, key, e, started);
    }
    long end = model.now();
    String violation = model.checkGet(key, begin, end, observed);
    return new Result(
        currentPhase, Op.GET, key, status, null, started, System.nanoTime(), violation);
  }

  private Result list(String currentPhase, S3Client client) {
    long begin = model.now();
    long started = System.nanoTime();
    List<String> listed = new ArrayList<>();
    try {
      for (S3Object o :
          client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents()) {
        listed.add(o.key());
      }
    } catch (S3Exception e) {
      return failure(currentPhase, Op.LIST, prefix, e, started);
    } catch (SdkClientException e) {
      return noAnswer(currentPhase, Op.LIST, prefix, e, started);
    }
    long end = model.now();
    List<String> violations = model.checkList(prefix, begin, end, listed);
    return new Result(
        currentPhase,
        Op.LIST,
        prefix,
        200,
        null,
        started,
        System.nanoTime(),
        violations.isEmpty() ? null : String.join("\n", violations));
  }

  private static String code(S3Exception e) {
    return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
  }

  private static Result failure(String phase, Op op, String key, S3Exception e, long started) {
    return new Result(
        phase,
        op,
        key,
        e.statusCode(),
        e.statusCode() + " " + code(e) + ": " + e.getMessage(),
        started,
        System.nanoTime(),
        null);
  }

  private static Result noAnswer(
      String phase, Op op, String key, SdkClientException e, long started) {
    boolean timedOut = false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      timedOut |=
          t instanceof ApiCallTimeoutException
              || t instanceof ApiCallAttemptTimeoutException
              || t instanceof SocketTimeoutException;
    }
    return new Result(
        phase,
        op,
        key,
        timedOut ? TIMED_OUT : CLOSED,
        e.getClass().getSimpleName() + ": " + e.getMessage(),
        started,
        System.nanoTime(),
        null);
  }

  /**
   * With no load running: reads every key and lists the prefix through the first endpoint, each
   * answer judged by the model. A 503 is retried until {@code limit} has passed (the proxy may not
   * have noticed yet that a repository is back); any other error, and a 503 past the limit, fails.
   */
  void verifyQuiescent(Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    S3Client client = clients.get(0);
    for (int i = 0; i <= keys; i++) {
      String key = i < keys ? key(i) : null;
      while (true) {
        Result r = key == null ? list("verify", client) : get("verify", client, key);
        if (r.status() == 503 && System.nanoTime() < deadline) {
          // Not yet: the suspended repositories are probed in the background.
          TimeUnit.MILLISECONDS.sleep(100);
          continue;
        }
        results.add(r);
        assertThat(r.status())
            .as("after the fault, %s %s: %s", r.op(), r.key(), r.error())
            .isIn(200, 404);
        assertThat(r.violation()).as("after the fault").isNull();
        break;
      }
    }
  }

  /** Every result so far. */
  List<Result> results() {
    return List.copyOf(results);
  }

  /** The results of one phase. */
  List<Result> results(String phaseName) {
    return results.stream().filter(r -> r.phase().equals(phaseName)).toList();
  }

  /** Fails if any answer was one the model does not allow. */
  void assertNoWrongAnswer() {
    List<String> violations =
        results.stream().map(Result::violation).filter(v -> v != null).toList();
    assertThat(violations).as("wrong answers (%s)", summary()).isEmpty();
  }

  /**
   * Fails if any request went unanswered for {@link #CLIENT_TIMEOUT}: it waited for something the
   * proxy should have given up on.
   */
  void assertNoTimeout() {
    List<String> unanswered =
        results.stream()
            .filter(r -> r.status() == TIMED_OUT)
            .map(
                r ->
                    r.phase()
                        + " "
                        + r.op()
                        + " "
                        + r.key()
                        + " after "
                        + TimeUnit.NANOSECONDS.toMillis(r.latencyNanos())
                        + " ms: "
                        + r.error())
            .toList();
    assertThat(unanswered).as("requests that timed out (%s)", summary()).isEmpty();
  }

  /** Fails unless every operation of {@code phaseName} succeeded. */
  void assertAllSucceeded(String phaseName) {
    assertFailuresOnly(phaseName, r -> false);
  }

  /**
   * Fails unless every operation of {@code phaseName} succeeded or is a failure {@code allowed}.
   */
  void assertFailuresOnly(String phaseName, Predicate<Result> allowed) {
    List<String> unexpected =
        results(phaseName).stream()
            .filter(r -> !r.succeeded() && !allowed.test(r))
            .map(r -> r.op() + " " + r.key() + ": " + r.error())
            .toList();
    assertThat(unexpected).as("unexpected errors in phase %s (%s)", phaseName, summary()).isEmpty();
  }

  /** How many operations {@code op} of {@code phaseName} succeeded. */
  long succeeded(String phaseName, Op op) {
    return results(phaseName).stream().filter(r -> r.op() == op && r.succeeded()).count();
  }

  /** The longest operation of a phase, in milliseconds. */
  long maxMillis(String phaseName) {
    return TimeUnit.NANOSECONDS.toMillis(
        results(phaseName).stream().mapToLong(Result::latencyNanos).max().orElse(0));
  }

  /** One line per phase: operations by kind and status, p99 and max latency. */
  String summary() {
    Map<String, List<Result>> byPhase =
        results.stream()
            .collect(Collectors.groupingBy(Result::phase, TreeMap::new, Collectors.toList()));
    StringBuilder out = new StringBuilder();
    byPhase.forEach(
        (name, list) -> {
          Map<Op, Map<Integer, Long>> counts = new EnumMap<>(Op.class);
          for (Result r : list) {
            counts.computeIfAbsent(r.op(), o -> new TreeMap<>()).merge(r.status(), 1L, Long::sum);
          }
          long[] sorted = list.stream().mapToLong(Result::latencyNanos).sorted().toArray();
          long p99 = sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)];
          out.append(out.isEmpty() ? "" : "; ")
              .append(name)
              .append(": ")
              .append(list.size())
              .append(" ops ")
              .append(counts)
              .append(" p99 ")
              .append(TimeUnit.NANOSECONDS.toMillis(p99))
              .append(" ms max ")
              .append(TimeUnit.NANOSECONDS.toMillis(sorted[sorted.length - 1]))
              .append(" ms");
        });
    return out.toString();
  }

  @Override
  public void close() {
    try {
      if (running) {
        stop();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      clients.forEach(S3Client::close);
    }
  }
}
