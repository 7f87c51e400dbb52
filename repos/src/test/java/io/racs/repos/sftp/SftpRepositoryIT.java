package io.racs.repos.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.KeyCodec;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryContract;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositoryFactory;
import io.racs.repos.config.RepositorySetConfig;
import io.racs.testkit.SeededBytes;
import io.racs.testkit.SftpServerExtension;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves the {@code sftp} backend keeps the whole repository contract on a real SSH server with the
 * SFTP subsystem (Apache MINA SSHD's, over a temporary directory; each test in a fresh root), and
 * what only it must: the host key is checked against known_hosts (an unknown or changed key is
 * refused with {@code ACCESS_DENIED} naming host and fingerprint, trust on first use records an
 * unknown one only when configured), a wrong password or key is {@code ACCESS_DENIED}, a root that
 * is missing is {@code UNAVAILABLE} for every call, no key writes outside the root, a server that
 * goes away mid-call is {@code UNAVAILABLE} and is reconnected to once it is back, a server that
 * stalls is {@code TIMEOUT} (and its late replies, once it answers, do not close the session),
 * "create if absent" refuses an existing object, leftovers of crashed writes are purged, and a YAML
 * {@code type: sftp} entry builds a working repository.
 *
 * <p>What MINA's server cannot show, compared with OpenSSH's {@code sftp-server}: its protocol
 * version 3 rename checks for the target and then renames (OpenSSH links and unlinks), so {@code
 * putIfAbsent} is not atomic against a racing creator here; and it answers a full disk with
 * statuses OpenSSH never sends in version 3.
 */
class SftpRepositoryIT extends RepositoryContract {
  @RegisterExtension static final SftpServerExtension SFTP = new SftpServerExtension();

  private static final AtomicInteger ROOTS = new AtomicInteger();

  private Path rootDirectory;

  @Override
  protected Repository createRepository() throws IOException {
    String root = "/contract-" + ROOTS.incrementAndGet();
    rootDirectory = Files.createDirectory(SFTP.files().resolve(root.substring(1)));
    return SftpRepository.create("sftp-test", options(root).build());
  }

  /** Removes the test's root directory, objects and all. */
  @Override
  protected boolean loseStorage() throws IOException {
    deleteTree(rootDirectory);
    return true;
  }

  private static SftpOptions.Builder options(String root) {
    return SftpOptions.builder("127.0.0.1", SftpServerExtension.USER, root)
        .port(SFTP.port())
        .privateKeyFile(SFTP.clientKeyFile())
        .knownHostsFile(SFTP.knownHostsFile())
        .connectTimeout(Duration.ofSeconds(10))
        .requestTimeout(Duration.ofSeconds(10));
  }

  private SftpOptions.Builder here() {
    return options("/" + rootDirectory.getFileName());
  }

  private static void assertKind(ThrowingCallable call, Kind kind, String... messageParts) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> {
              assertThat(e.kind()).as(e.getMessage()).isEqualTo(kind);
              for (String part : messageParts) {
                assertThat(e.getMessage()).contains(part);
              }
            });
  }

  private static void withRepository(SftpOptions options, Consumer<SftpRepository> test) {
    try (SftpRepository repository = SftpRepository.create("sftp-extra", options)) {
      test.accept(repository);
    }
  }

  // ---- host keys ---------------------------------------------------------------------------

  @Test
  void connect_whenHostKeyUnknown_accessDeniedNamingHostAndFingerprint() throws IOException {
    Path empty = SFTP.writeFile("known_hosts_empty", "");
    withRepository(
        here().knownHostsFile(empty).build(),
        r -> assertKind(r::probe, Kind.ACCESS_DENIED, "127.0.0.1", "SHA256:", "not in"));
  }

  @Test
  void connect_whenHostKeyChanged_accessDeniedEvenWithTrustOnFirstUse() throws Exception {
    String otherKey =
        PublicKeyEntry.toString(
            KeyUtils.generateKeyPair(KeyPairProvider.ECDSA_SHA2_NISTP256, 256).getPublic());
    Path changed =
        SFTP.writeFile("known_hosts_changed", "[127.0.0.1]:" + SFTP.port() + " " + otherKey + "\n");
    for (boolean trust : new boolean[] {false, true}) {
      withRepository(
          here().knownHostsFile(changed).trustOnFirstUse(trust).build(),
          r -> assertKind(r::probe, Kind.ACCESS_DENIED, "CHANGED", "SHA256:"));
    }
    assertThat(Files.readString(changed)).doesNotContain(SFTP.knownHostsLine().strip());
  }

  @Test
  void connect_whenTrustOnFirstUse_acceptsUnknownHostAndRecordsItsKey() throws IOException {
    Path file = SFTP.writeFile("known_hosts_tofu", "");
    withRepository(here().knownHostsFile(file).trustOnFirstUse(true).build(), Repository::probe);
    String recorded = Files.readString(file);
    String key = SFTP.knownHostsLine().strip().split(" ", 2)[1];
    assertThat(recorded).contains(key);
    // The recorded entry is enough without trust on first use.
    withRepository(here().knownHostsFile(file).build(), Repository::probe);
  }

  // ---- authentication ----------------------------------------------------------------------

  @Test
  void connect_whenPasswordWrongOrRightWithoutKey_deniedOrWorking() {
    SftpOptions.Builder passwordOnly =
        SftpOptions.builder(
                "127.0.0.1", SftpServerExtension.USER, "/" + rootDirectory.getFileName())
            .port(SFTP.port())
            .knownHostsFile(SFTP.knownHostsFile());
    withRepository(
        passwordOnly.password("wrong").build(),
        r -> assertKind(r::probe, Kind.ACCESS_DENIED, "authentication"));
    withRepository(passwordOnly.password(SftpServerExtension.PASSWORD).build(), Repository::probe);
  }

  @Test
  void connect_whenKeyNotAuthorized_accessDenied() throws Exception {
    Path stranger = SFTP.files().getParent().resolve("id_stranger");
    try (OutputStream out = Files.newOutputStream(stranger)) {
      OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(
          KeyUtils.generateKeyPair(KeyPairProvider.SSH_ED25519, 256), "stranger", null, out);
    }
    withRepository(
        here().privateKeyFile(stranger).build(),
        r -> assertKind(r::probe, Kind.ACCESS_DENIED, "authentication"));
  }

  @Test
  void connect_whenKeyEncrypted_needsItsPassphrase() {
    withRepository(
        here()
            .privateKeyFile(SFTP.encryptedClientKeyFile())
            .privateKeyPassphrase(SftpServerExtension.KEY_PASSPHRASE)
            .build(),
        Repository::probe);
    withRepository(
        here().privateKeyFile(SFTP.encryptedClientKeyFile()).privateKeyPassphrase("wrong").build(),
        r -> assertKind(r::probe, Kind.ACCESS_DENIED, "private key"));
  }

  // ---- the root ----------------------------------------------------------------------------

  @Test
  void everyCall_whenRootNeverCreated_unavailable() {
    withRepository(
        options("/never-created").build(),
        missing -> {
          Map<String, ThrowingCallable> calls =
              Map.of(
                  "probe", missing::probe,
                  "get", () -> missing.get("k").close(),
                  "head", () -> missing.head("k"),
                  "delete", () -> missing.delete("k"),
                  "list", () -> missing.list("", "", 10),
                  "put", () -> missing.put("k", new ByteArrayInputStream(new byte[] {1}), 1));
          calls.forEach(
              (call, callable) -> assertKind(callable, Kind.UNAVAILABLE, "/never-created"));
        });
  }

  @Test
  void put_whenKeysTryToEscape_everyFileStaysUnderTheRootAndDecodes() throws IOException {
    List<String> keys =
        List.of(
            "..",
            "../../outside",
            "/etc/passwd",
            "//",
            "a/../../b",
            "\u0000\u0001\n",
            "..\\..\\win",
            "~root",
            "x".repeat(1024),
            "../".repeat(341));
    for (String key : keys) {
      repository.put(key, new ByteArrayInputStream(new byte[] {7}), 1);
    }
    try (Stream<Path> all = Files.walk(SFTP.files())) {
      for (Path path : all.toList()) {
        Path relative = SFTP.files().relativize(path);
        if (relative.toString().isEmpty() || !Files.isRegularFile(path)) {
          continue;
        }
        if (relative.startsWith(rootDirectory.getFileName())) {
          Path inRoot = rootDirectory.relativize(path);
          if (!inRoot.toString().equals(SftpRoot.MARKER)) {
            assertThat(KeyCodec.decode(inRoot.toString().replace('\\', '/'))).isPresent();
          }
        } else {
          // Only other tests' roots live beside this one.
          assertThat(relative.getName(0).toString()).startsWith("contract-");
        }
      }
    }
    assertThat(listAllKeys("")).containsExactlyInAnyOrderElementsOf(keys);
  }

  // ---- failures of the server --------------------------------------------------------------

  @Test
  void get_whenServerStopsMidStream_unavailableThenReconnectsOnceBack() throws Exception {
    int size = 8 << 20;
    repository.put("big", SeededBytes.stream(SEED, size), size);
    try (ObjectStream in = repository.get("big")) {
      assertThat(in.readNBytes(1000)).hasSize(1000);
      SFTP.stop();
      try {
        assertThatThrownBy(in::readAllBytes)
            .isInstanceOfSatisfying(
                RepositoryException.class,
                e -> assertThat(e.kind()).isIn(Kind.UNAVAILABLE, Kind.TIMEOUT));
        assertKind(() -> repository.head("big"), Kind.UNAVAILABLE, "connect");
      } finally {
        SFTP.start();
      }
    }
    try (ObjectStream in = repository.get("big")) {
      assertThat(SeededBytes.sha256(in)).isEqualTo(SeededBytes.sha256(SEED, size));
    }
  }

  @Test
  void get_whenServerStalls_timeout() throws IOException {
    repository.put("slow", new ByteArrayInputStream(new byte[] {1, 2, 3}), 3);
    withRepository(
        here().requestTimeout(Duration.ofSeconds(1)).build(),
        impatient -> {
          SFTP.holdReads();
          try (ObjectStream in = impatient.get("slow")) {
            assertKind(in::readAllBytes, Kind.TIMEOUT);
          } catch (IOException e) {
            throw new AssertionError(e);
          } finally {
            SFTP.release();
          }
        });
  }

  @Test
  void get_whenReplyComesAfterTimeout_sessionSurvivesAndLaterCallsWork() {
    repository.put("late", new ByteArrayInputStream(new byte[] {4, 5, 6}), 3);
    // One channel: the server answers its requests in order, so the head below returns only after
    // the late replies to the read and close that timed out have reached the client.
    withRepository(
        here().requestTimeout(Duration.ofSeconds(1)).sessions(1).channels(1).build(),
        impatient -> {
          impatient.probe();
          SFTP.holdReads();
          try (ObjectStream in = impatient.get("late")) {
            assertKind(in::readAllBytes, Kind.TIMEOUT);
          } catch (IOException e) {
            throw new AssertionError(e);
          } finally {
            SFTP.release();
          }
          assertThat(impatient.head("late")).isPresent();
          assertThat(impatient.connections().sessionsClosed()).isZero();
          assertThat(impatient.connections().sessionsConnected()).isEqualTo(1);
        });
  }

  @Test
  void close_whenCalledTwice_idempotentAndLaterCallsAreIllegalState() {
    SftpRepository sftp = SftpRepository.create("closing", here().build());
    sftp.probe();
    sftp.close();
    sftp.close();
    assertThatThrownBy(() -> sftp.head("k")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(sftp::probe).isInstanceOf(IllegalStateException.class);
  }

  // ---- what only this backend has ----------------------------------------------------------

  @Test
  void putIfAbsent_whenObjectExists_preconditionFailedAndUnchanged() throws IOException {
    SftpRepository sftp = (SftpRepository) repository;
    sftp.putIfAbsent("k/one", new ByteArrayInputStream(new byte[] {1, 2}), 2);
    assertKind(
        () -> sftp.putIfAbsent("k/one", new ByteArrayInputStream(new byte[] {3}), 1),
        Kind.PRECONDITION_FAILED);
    assertThat(read("k/one")).containsExactly(1, 2);
    assertThat(repository.list("", "", 10).objects()).hasSize(1);
  }

  @Test
  void purgeLeftovers_whenCrashedWriteLeftTemporaryFile_removesOnlyOldOnes() throws IOException {
    repository.put("dir/kept", new ByteArrayInputStream(new byte[] {1}), 1);
    Path directory = rootDirectory.resolve(KeyCodec.encode("dir/kept")).getParent();
    Path old = Files.write(directory.resolve(SftpWriter.TEMP_PREFIX + "old"), new byte[] {9});
    Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
    Files.write(directory.resolve(SftpWriter.TEMP_PREFIX + "young"), new byte[] {9});
    assertThat(repository.purgeLeftovers(Duration.ofMinutes(15), true)).isEqualTo(1);
    assertThat(repository.purgeLeftovers(Duration.ofMinutes(15), false)).isEqualTo(1);
    assertThat(old).doesNotExist();
    assertThat(directory.resolve(SftpWriter.TEMP_PREFIX + "young")).exists();
    assertThat(keys(repository.list("", "", 10))).containsExactly("dir/kept");
  }

  @Test
  void describe_afterFirstCall_namesAtomicReplaceAndNoSecret() {
    repository.probe();
    Map<String, String> description = repository.describe();
    assertThat(description)
        .containsEntry("type", "sftp")
        .containsEntry("replace", "posix-rename@openssh.com (atomic)")
        .containsEntry("durable", "fsync@openssh.com");
    assertThat(description.get("location")).startsWith("sftp://racs@127.0.0.1:");
  }

  @Test
  void loader_whenSftpEntry_buildsWorkingRepository() throws IOException {
    String yaml =
        """
        repositories:
          - name: nas
            type: sftp
            host: 127.0.0.1
            port: %d
            user: %s
            path: /%s
            password: "${env:SFTP_PASSWORD}"
            knownHostsFile: %s
            trustOnFirstUse: false
            connectTimeout: 5s
            requestTimeout: 20s
            sessions: 2
            channels: 4
        """
            .formatted(
                SFTP.port(),
                SftpServerExtension.USER,
                rootDirectory.getFileName(),
                SFTP.knownHostsFile());
    RepositorySetConfig set =
        RepositoryConfigLoader.withEnvironment(
                name -> name.equals("SFTP_PASSWORD") ? SftpServerExtension.PASSWORD : null)
            .parse(yaml, "test.yaml");
    try (Repository nas = RepositoryFactory.create(set.repository("nas").orElseThrow())) {
      assertThat(nas).isInstanceOf(SftpRepository.class);
      assertThat(nas.describe()).containsEntry("sessions", "2");
      assertThat(nas.describe().toString()).doesNotContain(SftpServerExtension.PASSWORD);
      nas.put("hello", new ByteArrayInputStream("hi".getBytes(StandardCharsets.UTF_8)), 2);
      try (ObjectStream in = nas.get("hello")) {
        assertThat(in.readAllBytes()).isEqualTo("hi".getBytes(StandardCharsets.UTF_8));
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
