package io.racs.repos.decorator;

import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A repository that forwards every call to another one: the base of the decorators, which override
 * only the calls they change. It keeps the {@link Repository} contract as long as its subclasses
 * do: in particular they throw only what the contract allows.
 */
public abstract class ForwardingRepository implements Repository {
  private final Repository delegate;

  /** Forwards to {@code delegate}. */
  protected ForwardingRepository(Repository delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /** The repository this one forwards to. */
  public Repository delegate() {
    return delegate;
  }

  /**
   * Finds a repository of type {@code type} in a chain of decorators: {@code repository} itself, or
   * one of the repositories it forwards to, outermost first. The benchmark uses it to reach a
   * {@link MeteredRepository} inside a configured chain.
   */
  public static <T extends Repository> Optional<T> find(Repository repository, Class<T> type) {
    Repository current = repository;
    while (current != null) {
      if (type.isInstance(current)) {
        return Optional.of(type.cast(current));
      }
      current = current instanceof ForwardingRepository forwarding ? forwarding.delegate() : null;
    }
    return Optional.empty();
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public Map<String, String> describe() {
    return delegate.describe();
  }

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    return delegate.put(key, body, lengthBytes);
  }

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    return delegate.get(key, offset, lengthBytes);
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    return delegate.head(key);
  }

  @Override
  public void delete(String key) {
    delegate.delete(key);
  }

  @Override
  public void discard(String key) {
    delegate.discard(key);
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    return delegate.list(prefix, startAfter, maxKeys);
  }

  @Override
  public long purgeLeftovers(Duration grace, boolean dryRun) {
    return delegate.purgeLeftovers(grace, dryRun);
  }

  @Override
  public void probe() {
    delegate.probe();
  }

  @Override
  public boolean accepts(String key) {
    return delegate.accepts(key);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
