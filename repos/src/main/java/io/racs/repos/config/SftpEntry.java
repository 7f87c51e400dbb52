package io.racs.repos.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.racs.repos.sftp.SftpOptions;
import java.nio.file.Path;
import java.util.Optional;

/** {@code type: sftp}: a directory on an SSH server, over SFTP. */
record SftpEntry(
    String name,
    String type,
    JsonNode decorators,
    String host,
    Long port,
    String user,
    String path,
    String password,
    String privateKeyFile,
    String privateKeyPassphrase,
    String knownHostsFile,
    Boolean trustOnFirstUse,
    String connectTimeout,
    String requestTimeout,
    Long sessions,
    Long channels,
    Boolean durable)
    implements BackendEntry {

  @Override
  public BackendConfig backend(ConfigSection entry, String type) {
    SftpOptions.Builder b =
        SftpOptions.builder(
                entry.required("host", host()),
                entry.required("user", user()),
                entry.required("path", path()))
            .port((int) entry.range("port", port(), 22, 1, 65535))
            .sessions((int) entry.range("sessions", sessions(), 1, 1, 64))
            .channels((int) entry.range("channels", channels(), 4, 1, 1024))
            .trustOnFirstUse(Boolean.TRUE.equals(trustOnFirstUse()))
            .durable(!Boolean.FALSE.equals(durable()));
    if (password() == null && privateKeyFile() == null) {
      throw entry.error("", "expected password, privateKeyFile, or both");
    }
    Optional.ofNullable(password()).ifPresent(b::password);
    Optional.ofNullable(privateKeyFile()).map(SftpEntry::home).ifPresent(b::privateKeyFile);
    Optional.ofNullable(privateKeyPassphrase()).ifPresent(b::privateKeyPassphrase);
    Optional.ofNullable(knownHostsFile()).map(SftpEntry::home).ifPresent(b::knownHostsFile);
    entry
        .duration("connectTimeout", connectTimeout(), DURATION_EXAMPLE)
        .ifPresent(b::connectTimeout);
    entry
        .duration("requestTimeout", requestTimeout(), DURATION_EXAMPLE)
        .ifPresent(b::requestTimeout);
    try {
      return new BackendConfig.Sftp(b.build());
    } catch (IllegalArgumentException e) {
      throw entry.error("", e.getMessage());
    }
  }

  /** A path with a leading {@code ~/} taken as the user's home directory, as ssh reads its own. */
  private static Path home(String path) {
    if (path.equals("~") || path.startsWith("~/")) {
      return Path.of(System.getProperty("user.home") + path.substring(1));
    }
    return Path.of(path);
  }
}
