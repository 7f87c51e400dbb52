package io.racs.repos.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.RepositoryException;
import io.racs.testkit.OpenSshServerExtension;
import io.racs.testkit.SeededBytes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves that calls abandoned midway — their virtual thread interrupted, as the store does to the
 * losers of a hedged read and to stragglers it stops waiting for — cost only themselves: on
 * Debian's OpenSSH server, many concurrent gets, puts, heads and lists share one SSH session while
 * a random subset is cancelled at random moments; every call left alone succeeds with the right
 * bytes, the session is never closed or reconnected (a late reply to an abandoned request is no
 * protocol error that kills it), an abandoned put leaves the old object or the whole new one, and
 * the repository keeps working afterwards. Seeded: {@code -Dsftp.abandon.seed=...} replays a run.
 */
class SftpAbandonedCallsIT {
  @RegisterExtension static final OpenSshServerExtension OPENSSH = new OpenSshServerExtension();

  private static final int OBJECTS = 16;
  private static final int CALLS = 400;
  private static final int MAX_BYTES = 256 * 1024;

  @Test
  void concurrentCalls_whenSomeAreInterrupted_othersSucceedAndSessionSurvives() throws Exception {
    long seed = Long.getLong("sftp.abandon.seed", System.nanoTime());
    System.out.println("SftpAbandonedCallsIT seed: -Dsftp.abandon.seed=" + seed);
    Random random = new Random(seed);
    Path root = Files.createDirectory(OPENSSH.files().resolve("abandon-" + seed));
    try (SftpRepository repository =
        SftpRepository.create(
            "openssh-abandon",
            SftpOptions.builder("127.0.0.1", OPENSSH.user(), root.toString())
                .port(OPENSSH.port())
                .privateKeyFile(OPENSSH.clientKeyFile())
                .knownHostsFile(OPENSSH.knownHostsFile())
                .requestTimeout(Duration.ofSeconds(20))
                .sessions(1)
                .channels(4)
                .build())) {
      int[] sizes = new int[OBJECTS];
      for (int i = 0; i < OBJECTS; i++) {
        sizes[i] = random.nextInt(MAX_BYTES);
        repository.put("r/" + i, SeededBytes.stream(seed + i, sizes[i]), sizes[i]);
      }
      assertThat(repository.connections().sessionsConnected()).isEqualTo(1);

      List<Call> calls = new ArrayList<>();
      try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();
          ExecutorService cancellers = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int c = 0; c < CALLS; c++) {
          Call call = Call.random(c, random, seed, sizes);
          call.future = callers.submit(() -> call.run(repository, seed, sizes));
          if (call.abandoned) {
            long delayMicros = random.nextInt(30_000);
            cancellers.submit(
                () -> {
                  TimeUnit.MICROSECONDS.sleep(delayMicros); // a random moment, not a handshake
                  return call.future.cancel(true);
                });
          }
          calls.add(call);
        }
        for (Call call : calls) {
          if (call.abandoned) {
            awaitQuietly(call.future);
          } else {
            assertThat(call.future.get(60, TimeUnit.SECONDS)).as(call.toString()).isTrue();
          }
        }
      }

      assertThat(repository.connections().sessionsClosed()).as("sessions closed").isZero();
      assertThat(repository.connections().sessionsConnected())
          .as("sessions connected")
          .isEqualTo(1);
      // Afterwards: every object reads back whole, and every abandoned put is all or nothing.
      for (int i = 0; i < OBJECTS; i++) {
        assertThat(read(repository, "r/" + i)).isEqualTo(SeededBytes.sha256(seed + i, sizes[i]));
      }
      for (Call call : calls) {
        if (call.operation == Operation.PUT) {
          Optional<ObjectInfo> head = repository.head(call.key());
          if (call.abandoned && head.isEmpty()) {
            continue;
          }
          assertThat(head).as(call.toString()).isPresent();
          assertThat(head.get().sizeBytes()).as(call.toString()).isEqualTo(call.putBytes);
          assertThat(read(repository, call.key()))
              .as(call.toString())
              .isEqualTo(SeededBytes.sha256(call.putSeed(seed), call.putBytes));
        }
      }
      assertThat(repository.connections().sessionsClosed()).as("sessions closed").isZero();
    }
  }

  private static void awaitQuietly(Future<Boolean> future) throws InterruptedException {
    try {
      future.get(60, TimeUnit.SECONDS);
    } catch (CancellationException | ExecutionException e) {
      // Abandoned: whatever it did or threw is not what this test asserts.
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("an abandoned call did not end within 60 s", e);
    }
  }

  private static String read(SftpRepository repository, String key) throws IOException {
    try (ObjectStream stream = repository.get(key, 0, -1)) {
      return SeededBytes.sha256(stream);
    }
  }

  private enum Operation {
    GET,
    RANGE,
    PUT,
    HEAD,
    LIST
  }

  private static final class Call {
    final int number;
    final Operation operation;
    final int object;
    final int putBytes;
    final boolean abandoned;
    Future<Boolean> future;

    private Call(int number, Operation operation, int object, int putBytes, boolean abandoned) {
      this.number = number;
      this.operation = operation;
      this.object = object;
      this.putBytes = putBytes;
      this.abandoned = abandoned;
    }

    static Call random(int number, Random random, long seed, int[] sizes) {
      Operation operation = Operation.values()[random.nextInt(Operation.values().length)];
      return new Call(
          number,
          operation,
          random.nextInt(sizes.length),
          random.nextInt(MAX_BYTES),
          random.nextInt(100) < 40);
    }

    String key() {
      return operation == Operation.PUT ? "w/" + number : "r/" + object;
    }

    long putSeed(long seed) {
      return seed * 31 + number;
    }

    /** Runs the call; true when it did what was asked, with the right bytes. */
    boolean run(SftpRepository repository, long seed, int[] sizes) throws IOException {
      try {
        return switch (operation) {
          case GET ->
              read(repository, key()).equals(SeededBytes.sha256(seed + object, sizes[object]));
          case RANGE -> {
            long offset = sizes[object] / 3;
            long length = sizes[object] / 2;
            try (ObjectStream stream = repository.get(key(), offset, length)) {
              yield SeededBytes.sha256(stream)
                  .equals(SeededBytes.sha256(seed + object, sizes[object], offset, length));
            }
          }
          case PUT ->
              repository
                      .put(key(), SeededBytes.stream(putSeed(seed), putBytes), putBytes)
                      .sizeBytes()
                  == putBytes;
          case HEAD ->
              repository.head(key()).map(ObjectInfo::sizeBytes).orElse(-1L) == sizes[object];
          case LIST -> repository.list("r/", "", 1000).objects().size() == sizes.length;
        };
      } catch (RepositoryException e) {
        if (abandoned) {
          throw e;
        }
        throw new AssertionError(this + " failed although nobody interrupted it", e);
      }
    }

    @Override
    public String toString() {
      return "call " + number + " " + operation + " " + key() + (abandoned ? " (abandoned)" : "");
    }
  }
}
