package io.racs.repos.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.Repository;
import io.racs.repos.RepositoryContract;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import io.racs.testkit.OpenSshServerExtension;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Proves the {@code sftp} backend keeps the whole repository contract against Debian's OpenSSH
 * server (its own {@code internal-sftp}, the server most SFTP repositories will be), logging in
 * with an ed25519 key that {@code ssh-keygen} made and checking an ed25519 host key listed alone in
 * known_hosts while the server also offers an ECDSA one; and that OpenSSH's extensions are used:
 * {@code posix-rename@openssh.com} for atomic replaces, {@code fsync@openssh.com}, and its
 * link-based rename for "create if absent".
 */
class SftpOpenSshIT extends RepositoryContract {
  @RegisterExtension static final OpenSshServerExtension OPENSSH = new OpenSshServerExtension();

  private static final AtomicInteger ROOTS = new AtomicInteger();

  private Path rootDirectory;

  @Override
  protected Repository createRepository() throws IOException {
    rootDirectory =
        Files.createDirectory(OPENSSH.files().resolve("contract-" + ROOTS.incrementAndGet()));
    return SftpRepository.create(
        "openssh-test",
        SftpOptions.builder("127.0.0.1", OPENSSH.user(), rootDirectory.toString())
            .port(OPENSSH.port())
            .privateKeyFile(OPENSSH.clientKeyFile())
            .knownHostsFile(OPENSSH.knownHostsFile())
            .requestTimeout(Duration.ofSeconds(20))
            .build());
  }

  @Override
  protected boolean loseStorage() throws IOException {
    try (Stream<Path> paths = Files.walk(rootDirectory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
    return true;
  }

  @Test
  void describe_afterFirstCall_usesOpenSshExtensions() {
    repository.probe();
    assertThat(repository.describe())
        .containsEntry("replace", "posix-rename@openssh.com (atomic)")
        .containsEntry("durable", "fsync@openssh.com");
  }

  @Test
  void putIfAbsent_whenObjectExists_preconditionFailedAndUnchanged() throws IOException {
    SftpRepository sftp = (SftpRepository) repository;
    sftp.putIfAbsent("k", new ByteArrayInputStream(new byte[] {1, 2}), 2);
    assertThatThrownBy(() -> sftp.putIfAbsent("k", new ByteArrayInputStream(new byte[] {3}), 1))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED));
    assertThat(read("k")).containsExactly(1, 2);
  }
}
