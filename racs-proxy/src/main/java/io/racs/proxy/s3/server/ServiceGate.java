package io.racs.proxy.s3.server;

import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.handler.S3Dispatcher;
import java.util.Objects;

/**
 * Where admitted requests go: the dispatcher, once there is one. A proxy that started while its
 * array could not be opened yet (too few repositories answer) has none, and answers every request
 * that passes routing and authentication {@code 503 ServiceUnavailable}, with {@code Retry-After},
 * before any body is read or {@code 100 Continue} sent; SDKs retry it. The reason stays on the
 * admin port ({@code /health/ready}): it names repositories and endpoints, which are no business of
 * S3 clients.
 *
 * <p>The dispatcher is set once, and then stays; thread-safe.
 */
public final class ServiceGate {
  private volatile S3Dispatcher dispatcher;

  private ServiceGate(S3Dispatcher dispatcher) {
    this.dispatcher = dispatcher;
  }

  /** A gate open to {@code dispatcher} from the start. */
  public static ServiceGate open(S3Dispatcher dispatcher) {
    return new ServiceGate(Objects.requireNonNull(dispatcher, "dispatcher"));
  }

  /** A gate that answers 503 until {@link #open(S3Dispatcher) opened}. */
  public static ServiceGate closed() {
    return new ServiceGate(null);
  }

  /**
   * Sends requests to {@code to} from now on.
   *
   * @throws IllegalStateException when the gate is open already
   */
  public void openTo(S3Dispatcher to) {
    Objects.requireNonNull(to, "dispatcher");
    synchronized (this) {
      if (dispatcher != null) {
        throw new IllegalStateException("the service gate is open already");
      }
      dispatcher = to;
    }
  }

  /** Whether requests reach a dispatcher. */
  public boolean isOpen() {
    return dispatcher != null;
  }

  /**
   * The dispatcher.
   *
   * @throws S3Exception {@code ServiceUnavailable} while there is none
   */
  S3Dispatcher dispatcher() {
    S3Dispatcher d = dispatcher;
    if (d == null) {
      throw notOpen();
    }
    return d;
  }

  /**
   * Returns when the gate is open.
   *
   * @throws S3Exception {@code ServiceUnavailable} while it is not
   */
  void requireOpen() {
    if (dispatcher == null) {
      throw notOpen();
    }
  }

  private static S3Exception notOpen() {
    return S3Exception.of(
        S3ErrorCode.SERVICE_UNAVAILABLE,
        "The proxy is starting: too few of its repositories answer yet for the array to open.");
  }
}
