package io.racs.repos;

import io.racs.repos.RepositoryException.Kind;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * The one rule by which every remote backend reads a network-level exception from its HTTP client
 * as an error kind; each backend walks its own cause chain and adds what only its SDK says.
 */
public final class NetworkFailures {
  private NetworkFailures() {}

  /**
   * {@code TIMEOUT} for a socket or I/O timeout (an {@link InterruptedIOException}, which {@link
   * java.net.SocketTimeoutException} is), {@code UNAVAILABLE} for a host that cannot be reached or
   * a connection refused or reset; empty for anything else, including {@code cause}'s causes.
   */
  public static Optional<Kind> kindOf(Throwable cause) {
    if (cause instanceof InterruptedIOException) {
      return Optional.of(Kind.TIMEOUT);
    }
    if (cause instanceof ConnectException
        || cause instanceof NoRouteToHostException
        || cause instanceof UnknownHostException
        || cause instanceof SocketException) {
      return Optional.of(Kind.UNAVAILABLE);
    }
    return Optional.empty();
  }
}
