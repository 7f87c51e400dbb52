package io.racs.repos.sftp;

import io.racs.repos.Keys;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Runs the SFTP requests of one repository call on a virtual thread of their own, which nobody
 * interrupts, so that the caller may leave while they finish.
 *
 * <p>The store interrupts the losers of a hedged read and the stragglers it gives up on. An
 * interrupt that reaches MINA midway does harm beyond the call: a request whose wait it ends leaves
 * a reply nobody expects (see {@link SftpChannel}), and one that ends the wait for an earlier write
 * in {@code DefaultSftpClient.write} lets the next request be written over it, failing a call
 * nobody interrupted ({@code WritePendingException}). So the caller only waits here: interrupted,
 * it fails at once with {@code TIMEOUT} (its interrupt status kept), while the requests complete on
 * their own thread, and what they produced for nobody (an open stream) is discarded there.
 */
final class SftpCalls {
  /** Work that may ask whether its caller has left, to stop reading what the caller owns. */
  @FunctionalInterface
  interface Work<T> {
    T run(BooleanSupplier callerLeft);
  }

  private final String name;

  SftpCalls(String name) {
    this.name = name;
  }

  /**
   * Runs {@code work} on its own thread and waits for it; {@code discard} releases a result that
   * was produced after the caller left.
   *
   * @throws RepositoryException what {@code work} threw, or {@code TIMEOUT} when the caller was
   *     interrupted first
   */
  <T> T call(String operation, String key, Work<T> work, Consumer<? super T> discard) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread.ofVirtual()
        .name("sftp-" + name + "-" + operation)
        .start(
            () -> {
              T value;
              try {
                value = work.run(result::isCancelled);
              } catch (Throwable e) {
                result.completeExceptionally(e);
                return;
              }
              if (!result.complete(value) && value != null) {
                discard.accept(value); // the caller left meanwhile
              }
            });
    try {
      return result.get();
    } catch (InterruptedException e) {
      if (!result.cancel(false)) {
        Thread.currentThread().interrupt();
        return finished(result, operation, key); // finished as the interrupt came
      }
      Thread.currentThread().interrupt();
      throw new RepositoryException(
          Kind.TIMEOUT,
          name
              + ": "
              + operation
              + (key.isEmpty() ? "" : " " + Keys.abbreviate(key))
              + ": interrupted; its requests finish on their own",
          e);
    } catch (ExecutionException e) {
      throw rethrow(e.getCause(), operation, key);
    }
  }

  /** As {@link #call}, for work whose result needs no releasing. */
  <T> T call(String operation, String key, Work<T> work) {
    return call(operation, key, work, value -> {});
  }

  private <T> T finished(CompletableFuture<T> result, String operation, String key) {
    try {
      return result.getNow(null);
    } catch (CancellationException e) {
      throw new IllegalStateException("cancelled by nobody", e);
    } catch (CompletionException e) {
      throw rethrow(e.getCause(), operation, key);
    }
  }

  private RuntimeException rethrow(Throwable cause, String operation, String key) {
    if (cause instanceof RuntimeException r) {
      return r; // RepositoryException, or IllegalArgumentException / IllegalStateException
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return SftpErrors.translate(name, cause, operation, key);
  }
}
