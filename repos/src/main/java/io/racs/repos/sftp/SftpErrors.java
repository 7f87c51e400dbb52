package io.racs.repos.sftp;

import io.racs.repos.Keys;
import io.racs.repos.NetworkFailures;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.io.IOException;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.apache.sshd.common.SshConstants;
import org.apache.sshd.common.SshException;
import org.apache.sshd.sftp.common.SftpConstants;
import org.apache.sshd.sftp.common.SftpException;

/**
 * The one place an {@link SftpRepository}'s SSH and SFTP failures become the SPI's error kinds; see
 * "Errors" in {@link SftpRepository}.
 */
final class SftpErrors {
  private SftpErrors() {}

  /** Whether {@code e} is the server's answer that the path does not exist. */
  static boolean isNoSuchFile(Throwable e) {
    return e instanceof SftpException s
        && (s.getStatus() == SftpConstants.SSH_FX_NO_SUCH_FILE
            || s.getStatus() == SftpConstants.SSH_FX_NO_SUCH_PATH);
  }

  /** Translates a failure of {@code operation} on {@code key} in repository {@code name}. */
  static RepositoryException translate(String name, Throwable e, String operation, String key) {
    if (e instanceof RepositoryException r) {
      return r; // a body that failed or had the wrong length, or a failed connect
    }
    String message =
        name + ": " + operation + (key.isEmpty() ? "" : " " + Keys.abbreviate(key)) + ": " + e;
    return new RepositoryException(kindOf(e), message, e);
  }

  /**
   * Translates a failed connect, key exchange or authentication to {@code location}, naming the
   * reason the host key check recorded on the session ({@code refusal}) when there is one.
   */
  static RepositoryException connectFailure(
      String name, String location, Optional<String> refusal, Throwable e) {
    if (refusal.isPresent()) {
      // Not UNAVAILABLE: a host key that does not match is no outage that goes away by itself,
      // and retrying it would only hide a man in the middle; an operator must act, as for
      // credentials that are refused.
      return new RepositoryException(
          Kind.ACCESS_DENIED, name + ": connect " + location + ": " + refusal.get(), e);
    }
    Kind kind = kindOf(e);
    String detail =
        kind == Kind.ACCESS_DENIED ? "authentication refused (user, password or key): " : "";
    return new RepositoryException(kind, name + ": connect " + location + ": " + detail + e, e);
  }

  private static Kind kindOf(Throwable e) {
    if (e instanceof SftpException s) {
      return switch (s.getStatus()) {
        case SftpConstants.SSH_FX_NO_SUCH_FILE, SftpConstants.SSH_FX_NO_SUCH_PATH -> Kind.NOT_FOUND;
        case SftpConstants.SSH_FX_PERMISSION_DENIED, SftpConstants.SSH_FX_WRITE_PROTECT ->
            Kind.ACCESS_DENIED;
        case SftpConstants.SSH_FX_NO_SPACE_ON_FILESYSTEM, SftpConstants.SSH_FX_QUOTA_EXCEEDED ->
            Kind.FULL;
        case SftpConstants.SSH_FX_FILE_ALREADY_EXISTS -> Kind.PRECONDITION_FAILED;
        case SftpConstants.SSH_FX_NO_CONNECTION, SftpConstants.SSH_FX_CONNECTION_LOST ->
            Kind.UNAVAILABLE;
        default -> Kind.UNEXPECTED;
      };
    }
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SshException ssh) {
        int code = ssh.getDisconnectCode();
        if (code == SshConstants.SSH2_DISCONNECT_NO_MORE_AUTH_METHODS_AVAILABLE
            || code == SshConstants.SSH2_DISCONNECT_HOST_KEY_NOT_VERIFIABLE
            || code == SshConstants.SSH2_DISCONNECT_ILLEGAL_USER_NAME) {
          return Kind.ACCESS_DENIED;
        }
        if (isTimeout(ssh.getMessage())) {
          return Kind.TIMEOUT;
        }
      }
      if (cause instanceof TimeoutException) {
        return Kind.TIMEOUT;
      }
      Optional<Kind> network = NetworkFailures.kindOf(cause);
      if (network.isPresent()) {
        return network.get();
      }
    }
    // Anything else from the SSH layer (a channel or session closing under the call, an EOF from
    // a server that went away) is the connection failing, not the server refusing the request:
    // the next call reconnects.
    return e instanceof IOException ? Kind.UNAVAILABLE : Kind.UNEXPECTED;
  }

  /**
   * MINA reports an unanswered request ("Timeout expired while waiting for id=...") and an
   * unfinished future ("Failed to get operation result within specified timeout") as plain {@link
   * SshException}s, told apart only by their text.
   */
  private static boolean isTimeout(String message) {
    return message != null && message.toLowerCase(Locale.ROOT).contains("timeout");
  }
}
