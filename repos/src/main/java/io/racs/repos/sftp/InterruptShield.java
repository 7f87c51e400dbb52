package io.racs.repos.sftp;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.sshd.sftp.client.SftpClient;

/**
 * Keeps thread interrupts away from MINA SSHD's SFTP client. The store cancels the shard calls it
 * no longer needs with {@code Future.cancel(true)}; an interrupt that lands while MINA waits for a
 * request's write or reply leaves the shared channel broken for every other caller (its write still
 * pending: {@code WritePendingException}; its reply unclaimed: "received a reply ... for a request
 * never sent", which closes the session). So each request runs on a virtual thread nobody
 * interrupts, and the caller waits for it to end, interrupted or not, then keeps its interrupt
 * status: a cancelled call finishes within the request timeout instead of corrupting the channel.
 * Extensions ({@code fsync@openssh.com}, {@code posix-rename@openssh.com}) are shielded alike.
 */
final class InterruptShield {
  /** Calls that answer from local state at once: no request, nothing to shield. */
  private static final Set<String> LOCAL =
      Set.of("isOpen", "isClosing", "getClientSession", "getClientChannel", "getVersion");

  private static final ExecutorService REQUESTS = Executors.newVirtualThreadPerTaskExecutor();

  private InterruptShield() {}

  /** {@code channel}, with every request run out of reach of the caller's interrupts. */
  static SftpClient wrap(SftpClient channel) {
    return proxy(SftpClient.class, channel);
  }

  private static <T> T proxy(Class<T> type, Object target) {
    return type.cast(
        Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, new Handler(target)));
  }

  /** The client behind a {@link #wrap}ped channel, for MINA's async streams that need its class. */
  static SftpClient unwrap(SftpClient channel) {
    return Proxy.isProxyClass(channel.getClass())
            && Proxy.getInvocationHandler(channel) instanceof Handler handler
        ? (SftpClient) handler.target()
        : channel;
  }

  /** A request that may fail as MINA's calls do. */
  @FunctionalInterface
  interface Request<T> {
    T run() throws Exception;
  }

  /**
   * Runs {@code request} on a virtual thread that nobody interrupts and waits for it to end,
   * keeping the caller's interrupt status; its exceptions come back unchanged.
   */
  static <T> T call(Request<T> request) throws IOException {
    try {
      return shielded(request::run);
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IOException(t);
    }
  }

  private record Handler(Object target) implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class || LOCAL.contains(method.getName())) {
        return reflect(target, method, args);
      }
      Object result = shielded(() -> reflect(target, method, args));
      return method.getName().equals("getExtension") && result != null
          ? proxy(extensionType(method, args), result)
          : result;
    }
  }

  @FunctionalInterface
  private interface Body {
    Object run() throws Throwable;
  }

  @SuppressWarnings("unchecked")
  private static <T> T shielded(Body body) throws Throwable {
    CompletableFuture<Object> request =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return body.run();
              } catch (Throwable t) {
                throw new Failure(t);
              }
            },
            REQUESTS);
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return (T) request.get();
        } catch (InterruptedException e) {
          interrupted = true; // Wait on: the request must end before the channel is used again.
        } catch (ExecutionException e) {
          throw e.getCause() instanceof Failure f ? f.getCause() : e.getCause();
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The interface a caller of {@code getExtension} casts to: the class asked for, if any. */
  private static Class<?> extensionType(Method method, Object[] args) {
    return args != null && args[0] instanceof Class<?> asked && asked.isInterface()
        ? asked
        : method.getReturnType();
  }

  private static Object reflect(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** Carries a request's own exception, checked or not, back to the caller unchanged. */
  private static final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failure(Throwable cause) {
      super(cause);
    }
  }
}
