package io.racs.repos.fs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.ObjectStream;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves what only the {@code fs} backend must guarantee: no key and no planted symbolic link can
 * read or write outside the root, a crash between the temporary write and the rename leaves no
 * visible object and its leftovers are purged, durable writes call fsync on the file and the
 * directory (observed through a counting {@link Syncer}), and deletes tidy empty directories
 * without breaking concurrent puts.
 */
class FsRepositorySafetyTest {
  @TempDir Path temp;
  private Path root;
  private Path outside;

  @BeforeEach
  void setUp() throws IOException {
    root = Files.createDirectory(temp.resolve("root"));
    outside = Files.createDirectory(temp.resolve("outside"));
    Files.writeString(outside.resolve("secret!"), "secret");
    Files.writeString(outside.resolve("passwd"), "root:x:0:0");
  }

  private FsRepository repository() {
    return FsRepository.builder(root).name("safety").build();
  }

  @Test
  void put_whenRootMovedAwayAfterUse_failsUnavailableAndWorksAgainOnceBack() throws IOException {
    try (FsRepository repository = repository()) {
      repository.put("a/b", new ByteArrayInputStream(new byte[] {1}), 1);
      Path away = Files.move(root, temp.resolve("away"));
      assertThatThrownBy(() -> repository.put("a/c", new ByteArrayInputStream(new byte[] {2}), 1))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
      assertThatThrownBy(() -> repository.get("a/b"))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
      Files.move(away, root);
      repository.put("a/c", new ByteArrayInputStream(new byte[] {2}), 1);
      assertThat(repository.list("a/", "", 10).objects()).hasSize(2);
    }
  }

  @Test
  void put_whenTraversalKeys_staysUnderRoot() throws IOException {
    List<String> keys =
        List.of(
            "../../etc/passwd",
            "../outside/passwd",
            "/etc/passwd",
            "..",
            "../",
            "a/../../..",
            "..\\..\\x",
            "%2E%2E/%2E%2E/x",
            "/../outside/secret");
    try (FsRepository repository = repository()) {
      for (String key : keys) {
        assertThatThrownBy(() -> repository.get(key))
            .as("key %s", key)
            .isInstanceOfSatisfying(
                RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND));
        byte[] body = key.getBytes(UTF_8);
        repository.put(key, new ByteArrayInputStream(body), body.length);
        try (ObjectStream in = repository.get(key)) {
          assertThat(in.readAllBytes()).isEqualTo(body);
        }
      }
      try (Stream<Path> files = Files.walk(temp)) {
        assertThat(files.filter(Files::isRegularFile))
            .allSatisfy(
                file ->
                    assertThat(file.startsWith(root) || file.getParent().equals(outside))
                        .as("file %s", file)
                        .isTrue());
      }
      try (Stream<Path> files = Files.list(outside)) {
        assertThat(files.map(p -> p.getFileName().toString()))
            .containsExactlyInAnyOrder("secret!", "passwd");
      }
      assertThat(Files.readString(outside.resolve("passwd"))).isEqualTo("root:x:0:0");
      for (String key : keys) {
        repository.delete(key);
      }
      try (Stream<Path> entries = Files.list(root)) {
        assertThat(entries.map(p -> p.getFileName().toString()))
            .containsExactly(FsRepository.ROOT_MARKER);
      }
    }
  }

  @Test
  void everyCall_whenSymlinkPlantedUnderRoot_neitherReadsNorWritesOutside() throws IOException {
    // "evil" is a directory and "link!" an object file in the safe-name layout.
    Files.createSymbolicLink(root.resolve("evil"), outside);
    Files.createSymbolicLink(root.resolve("link!"), outside.resolve("secret!"));
    try (FsRepository repository = repository()) {
      for (String key : List.of("evil/secret", "link")) {
        assertThatThrownBy(() -> repository.get(key))
            .isInstanceOfSatisfying(
                RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND));
        assertThat(repository.head(key)).isEmpty();
      }
      assertThat(repository.list("", "", 100).objects()).isEmpty();
      // A prefix naming the link's directory is resolved straight to it: still not followed.
      assertThat(repository.list("evil/", "", 100).objects()).isEmpty();
      assertThat(repository.list("evil/sec", "", 100).objects()).isEmpty();

      assertThatThrownBy(
              () -> repository.put("evil/new", new ByteArrayInputStream(new byte[] {1}), 1))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.ACCESS_DENIED));
      repository.delete("evil/secret");

      // A put of "link" replaces the link itself (rename does not follow), never its target.
      repository.put("link", new ByteArrayInputStream(new byte[] {2}), 1);
      assertThat(Files.isSymbolicLink(root.resolve("link!"))).isFalse();
    }
    assertThat(Files.readString(outside.resolve("secret!"))).isEqualTo("secret");
    try (Stream<Path> files = Files.list(outside)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("secret!", "passwd");
    }
  }

  @Test
  void list_whenCrashLeftTemporaryFile_showsNothingAndPurgeRemovesIt() throws IOException {
    // What a crash between the temporary write and the rename leaves: a temp file beside where
    // the object would be, in a directory the put created.
    Path directory = Files.createDirectories(root.resolve("a"));
    Path leftover = directory.resolve(FsRepository.TEMP_PREFIX + "deadbeef");
    Files.write(leftover, SeededBytes.bytes(1, 1000));
    Path fresh = root.resolve(FsRepository.TEMP_PREFIX + "0123");
    Files.write(fresh, new byte[10]);
    Files.setLastModifiedTime(leftover, FileTime.from(Instant.now().minus(Duration.ofHours(2))));

    try (FsRepository repository =
        FsRepository.builder(root).name("crash").tempGrace(Duration.ofHours(1)).build()) {
      // The first call purges stale leftovers; the fresh one may belong to a live writer.
      assertThat(repository.list("", "", 100).objects()).isEmpty();
      assertThat(leftover).doesNotExist();
      assertThat(directory).doesNotExist();
      assertThat(fresh).exists();
      assertThat(repository.head(FsRepository.TEMP_PREFIX + "0123")).isEmpty();
      assertThat(repository.purgeTemporaryFiles(Duration.ZERO)).isEqualTo(1);
      assertThat(fresh).doesNotExist();
    }
  }

  @Test
  void put_whenDurable_syncsFileAndDirectories() {
    CountingSyncer syncer = new CountingSyncer();
    try (FsRepository repository = FsRepository.builder(root).syncer(syncer).build()) {
      repository.put("a/b/c", new ByteArrayInputStream(new byte[] {1, 2}), 2);
      assertThat(syncer.files.get()).isEqualTo(1);
      // root (for its marker, on first use), root (for a), a (for b), b (for the rename).
      assertThat(syncer.directories.get()).isEqualTo(4);
      assertThat(repository.describe()).containsEntry("durable", "true");

      repository.put("a/b/c", new ByteArrayInputStream(new byte[] {3}), -1);
      assertThat(syncer.files.get()).isEqualTo(2);
      assertThat(syncer.directories.get()).isEqualTo(5);

      repository.delete("a/b/c");
      // b (unlink), then a and root as b and a are removed.
      assertThat(syncer.directories.get()).isEqualTo(8);
    }
  }

  @Test
  void put_ofALargeObject_writesItsDataOutEveryFourMebibytesAsItArrives() throws IOException {
    CountingSyncer syncer = new CountingSyncer();
    try (FsRepository repository = FsRepository.builder(root).syncer(syncer).build()) {
      repository.put("small", new ByteArrayInputStream(new byte[4096]), 4096);
      assertThat(syncer.data.get()).isZero();
      byte[] large = SeededBytes.bytes(7, (10 << 20) + 1);
      repository.put("large", new ByteArrayInputStream(large), -1);
      assertThat(syncer.data.get()).isEqualTo(2); // at 4 and 8 MiB; the rest with the file
      assertThat(syncer.files.get()).isEqualTo(2); // one final sync per object
      try (ObjectStream in = repository.get("large")) {
        assertThat(in.readAllBytes()).isEqualTo(large);
      }
    }
  }

  @Test
  void discard_whenDurable_removesWithoutSyncingAnyDirectory() {
    CountingSyncer syncer = new CountingSyncer();
    try (FsRepository repository = FsRepository.builder(root).syncer(syncer).build()) {
      repository.put("a/b/c", new ByteArrayInputStream(new byte[] {1, 2}), 2);
      int directories = syncer.directories.get();
      repository.discard("a/b/c");
      assertThat(repository.head("a/b/c")).isEmpty();
      assertThat(root.resolve("a")).doesNotExist(); // emptied directories are tidied all the same
      assertThat(syncer.directories.get()).isEqualTo(directories);
    }
  }

  @Test
  void put_whenNotDurable_neverSyncsAndSaysSo() {
    CountingSyncer syncer = new CountingSyncer();
    try (FsRepository repository =
        FsRepository.builder(root).syncer(syncer).durable(false).build()) {
      repository.put("a/b", new ByteArrayInputStream(new byte[] {1}), 1);
      repository.delete("a/b");
      assertThat(syncer.files.get() + syncer.directories.get()).isZero();
      assertThat(repository.describe()).containsEntry("durable", "false");
    }
  }

  @Test
  void delete_whenConcurrentPutsInSameDirectory_putsSurviveTidying() throws Exception {
    try (FsRepository repository = FsRepository.builder(root).durable(false).build();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> tasks = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        tasks.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < 300; i++) {
                    String key = "d/e/" + thread + "-" + i;
                    repository.put(key, new ByteArrayInputStream(new byte[] {1}), 1);
                    assertThat(repository.head(key)).as(key).isPresent();
                    repository.delete(key);
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> task : tasks) {
        task.get();
      }
      assertThat(repository.list("", "", 10).objects()).isEmpty();
    }
    try (Stream<Path> entries = Files.list(root)) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .containsExactly(FsRepository.ROOT_MARKER);
    }
  }

  @Test
  void everyCall_whenRootMissing_unavailable() {
    try (FsRepository repository = FsRepository.builder(temp.resolve("nope")).build()) {
      assertThatThrownBy(repository::probe)
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
      assertThatThrownBy(() -> repository.put("k", new ByteArrayInputStream(new byte[0]), 0))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
      assertThatThrownBy(() -> repository.get("k"))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
      assertThatThrownBy(() -> repository.list("", "", 1))
          .isInstanceOfSatisfying(
              RepositoryException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE));
    }
  }

  @Test
  void get_whenObjectReplacedWhileOpen_keepsReadingOldBody() throws IOException {
    byte[] first = SeededBytes.bytes(3, 300_000);
    try (FsRepository repository = repository()) {
      repository.put("k", new ByteArrayInputStream(first), first.length);
      try (ObjectStream in = repository.get("k")) {
        byte[] head = in.readNBytes(1000);
        repository.put("k", new ByteArrayInputStream(new byte[] {9}), 1);
        repository.delete("k");
        byte[] rest = in.readAllBytes();
        assertThat(head.length + rest.length).isEqualTo(first.length);
        assertThat(rest[rest.length - 1]).isEqualTo(first[first.length - 1]);
      }
    }
  }

  @Test
  void put_whenConcurrentDeleteRemovesItsDirectoryBeforeTheSync_succeeds() throws IOException {
    // The store's collector deletes superseded versions while a newer put of the same name's
    // directory is committing: the delete can empty and remove the directory between the put's
    // rename and its directory sync. That put happened (and the delete after it).
    AtomicReference<FsRepository> self = new AtomicReference<>();
    Syncer deleteFirst =
        new Syncer() {
          @Override
          public void syncFile(FileChannel file) {}

          @Override
          public void syncDirectory(Path directory) throws IOException {
            if (directory.endsWith("dir") && Files.exists(directory.resolve("obj!"))) {
              self.get().delete("dir/obj"); // removes the file, then the emptied directory
            }
            Syncer.FSYNC.syncDirectory(directory);
          }
        };
    try (FsRepository repository = FsRepository.builder(root).syncer(deleteFirst).build()) {
      self.set(repository);
      repository.put("dir/obj", new ByteArrayInputStream(new byte[] {7}), 1);
      assertThat(repository.head("dir/obj")).isEmpty();
      assertThat(root.resolve("dir")).doesNotExist();
      repository.put("dir/other", new ByteArrayInputStream(new byte[] {8}), 1);
      assertThat(repository.head("dir/other")).isPresent();
    }
  }

  /** Counts sync calls instead of making them. */
  static final class CountingSyncer implements Syncer {
    final AtomicInteger files = new AtomicInteger();
    final AtomicInteger data = new AtomicInteger();
    final AtomicInteger directories = new AtomicInteger();

    @Override
    public void syncFile(FileChannel file) {
      files.incrementAndGet();
    }

    @Override
    public void syncData(FileChannel file) {
      data.incrementAndGet();
    }

    @Override
    public void syncDirectory(Path directory) {
      directories.incrementAndGet();
    }
  }
}
