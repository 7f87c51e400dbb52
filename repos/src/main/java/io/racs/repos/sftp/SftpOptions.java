package io.racs.repos.sftp;

import io.racs.repos.KeyCodec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of an {@code sftp} repository; immutable, built with {@link #builder(String, String,
 * String)}. {@link #toString()} never shows the password or the key's passphrase.
 *
 * @param host the SSH server's host name or address, as {@code knownHostsFile} names it
 * @param port the SSH port
 * @param user the login user
 * @param root the repository's directory on the server, which must exist: absolute, or relative to
 *     the user's login directory
 * @param password the password, when the server is to be asked for password authentication
 * @param privateKeyFile the private key (OpenSSH or PEM format) for public-key authentication
 * @param privateKeyPassphrase the key's passphrase, when it is encrypted
 * @param knownHostsFile the OpenSSH {@code known_hosts} file the server's host key is checked
 *     against
 * @param trustOnFirstUse whether a host that the file does not list is accepted, and its key
 *     appended to the file; a listed host whose key changed is refused either way
 * @param connectTimeout the longest a TCP connect, key exchange and authentication may take
 * @param requestTimeout the longest any one SFTP request may wait for its answer
 * @param sessions the number of SSH sessions (TCP connections) the repository keeps open
 * @param channels the number of SFTP channels, spread over the sessions; every call uses one, and
 *     concurrent calls share them (an SFTP channel answers many requests at once)
 * @param durable whether a put asks the server to fsync the file ({@code fsync@openssh.com}) before
 *     renaming it into place, where the server offers that
 */
public record SftpOptions(
    String host,
    int port,
    String user,
    String root,
    Optional<String> password,
    Optional<Path> privateKeyFile,
    Optional<String> privateKeyPassphrase,
    Path knownHostsFile,
    boolean trustOnFirstUse,
    Duration connectTimeout,
    Duration requestTimeout,
    int sessions,
    int channels,
    boolean durable) {
  /** Checks the fields. */
  public SftpOptions {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(privateKeyFile, "privateKeyFile");
    Objects.requireNonNull(privateKeyPassphrase, "privateKeyPassphrase");
    Objects.requireNonNull(knownHostsFile, "knownHostsFile");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    if (host.isBlank()) {
      throw new IllegalArgumentException("host: \"\" (expected: a host name or address)");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port: " + port + " (expected: 1 to 65535)");
    }
    if (user.isEmpty()) {
      throw new IllegalArgumentException("user: \"\" (expected: the login user)");
    }
    root = trimTrailingSlashes(root);
    if (root.isEmpty() || root.indexOf('\0') >= 0) {
      throw new IllegalArgumentException(
          "root: " + root + " (expected: a directory path on the server)");
    }
    KeyCodec.checkRoot(root);
    if (password.isEmpty() && privateKeyFile.isEmpty()) {
      throw new IllegalArgumentException(
          "credentials: none (expected: a password, a private key file, or both)");
    }
    if (privateKeyPassphrase.isPresent() && privateKeyFile.isEmpty()) {
      throw new IllegalArgumentException(
          "privateKeyPassphrase: given (expected: only with a private key file)");
    }
    positive("connectTimeout", connectTimeout);
    positive("requestTimeout", requestTimeout);
    if (sessions < 1 || sessions > 64) {
      throw new IllegalArgumentException("sessions: " + sessions + " (expected: 1 to 64)");
    }
    if (channels < sessions || channels > 1024) {
      throw new IllegalArgumentException(
          "channels: " + channels + " (expected: " + sessions + " (sessions) to 1024)");
    }
  }

  /** Options for {@code user} at {@code host} in {@code root}, with defaults for the rest. */
  public static Builder builder(String host, String user, String root) {
    return new Builder(host, user, root);
  }

  /** {@code user@host:port:root}, for descriptions and messages. */
  public String location() {
    return user + "@" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port + root;
  }

  @Override
  public String toString() {
    return "SftpOptions["
        + location()
        + ", password="
        + (password.isPresent() ? "(set)" : "none")
        + ", privateKeyFile="
        + privateKeyFile.map(Path::toString).orElse("none")
        + (privateKeyPassphrase.isPresent() ? " (encrypted)" : "")
        + ", knownHostsFile="
        + knownHostsFile
        + ", trustOnFirstUse="
        + trustOnFirstUse
        + ", connectTimeout="
        + connectTimeout
        + ", requestTimeout="
        + requestTimeout
        + ", sessions="
        + sessions
        + ", channels="
        + channels
        + ", durable="
        + durable
        + "]";
  }

  private static String trimTrailingSlashes(String path) {
    int end = path.length();
    while (end > 1 && path.charAt(end - 1) == '/') {
      end--;
    }
    return path.substring(0, end);
  }

  private static void positive(String name, Duration value) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + ": " + value + " (expected: > 0)");
    }
  }

  /** Builds {@link SftpOptions}. */
  public static final class Builder {
    private final String host;
    private final String user;
    private final String root;
    private int port = 22;
    private String password;
    private Path privateKeyFile;
    private String privateKeyPassphrase;
    private Path knownHostsFile = Path.of(System.getProperty("user.home"), ".ssh", "known_hosts");
    private boolean trustOnFirstUse;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration requestTimeout = Duration.ofSeconds(30);
    private int sessions = 1;
    private int channels = 4;
    private boolean durable = true;

    private Builder(String host, String user, String root) {
      this.host = host;
      this.user = user;
      this.root = root;
    }

    /** The SSH port; default 22. */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** Authenticates with this password (as well as with a key, if one is given). */
    public Builder password(String password) {
      this.password = password;
      return this;
    }

    /** Authenticates with this private key file. */
    public Builder privateKeyFile(Path privateKeyFile) {
      this.privateKeyFile = privateKeyFile;
      return this;
    }

    /** The passphrase of an encrypted private key file. */
    public Builder privateKeyPassphrase(String privateKeyPassphrase) {
      this.privateKeyPassphrase = privateKeyPassphrase;
      return this;
    }

    /** The known_hosts file; default {@code ~/.ssh/known_hosts}. */
    public Builder knownHostsFile(Path knownHostsFile) {
      this.knownHostsFile = knownHostsFile;
      return this;
    }

    /** Accept and record an unlisted host's key; default false. */
    public Builder trustOnFirstUse(boolean trustOnFirstUse) {
      this.trustOnFirstUse = trustOnFirstUse;
      return this;
    }

    /** Connect, key exchange and authentication; default 10 s. */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = connectTimeout;
      return this;
    }

    /** The answer to any one SFTP request; default 30 s. */
    public Builder requestTimeout(Duration requestTimeout) {
      this.requestTimeout = requestTimeout;
      return this;
    }

    /** SSH sessions kept open; default 1. */
    public Builder sessions(int sessions) {
      this.sessions = sessions;
      return this;
    }

    /** SFTP channels over the sessions; default 4. */
    public Builder channels(int channels) {
      this.channels = channels;
      return this;
    }

    /** fsync before rename where the server offers it; default true. */
    public Builder durable(boolean durable) {
      this.durable = durable;
      return this;
    }

    /** Builds the options, checked. */
    public SftpOptions build() {
      return new SftpOptions(
          host,
          port,
          user,
          root,
          Optional.ofNullable(password),
          Optional.ofNullable(privateKeyFile),
          Optional.ofNullable(privateKeyPassphrase),
          knownHostsFile,
          trustOnFirstUse,
          connectTimeout,
          requestTimeout,
          sessions,
          channels,
          durable);
    }
  }
}
