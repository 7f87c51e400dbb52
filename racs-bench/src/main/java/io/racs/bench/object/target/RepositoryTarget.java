package io.racs.bench.object.target;

import io.racs.repos.Repository;
import io.racs.repos.decorator.LatencyRepository;
import java.io.InputStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A repository measured directly through the SPI. Clients share the repository (it is thread-safe).
 * {@link #withDelay(Duration)} wraps it in the {@code latency} decorator, half the round trip on
 * the way in and half on the way out.
 */
public final class RepositoryTarget implements Target {
  private final Repository repository;
  private final Duration delay;
  private final boolean owner;

  private RepositoryTarget(Repository repository, Duration delay, boolean owner) {
    this.repository = repository;
    this.delay = delay;
    this.owner = owner;
  }

  /** A target over {@code repository}, which {@link #close()} closes. */
  public static RepositoryTarget of(Repository repository) {
    return new RepositoryTarget(repository, Duration.ZERO, true);
  }

  @Override
  public String name() {
    return repository.name();
  }

  @Override
  public String kind() {
    return "repository";
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> d = new LinkedHashMap<>(repository.describe());
    if (!delay.isZero()) {
      d.put("injectedDelay", delay.toMillis() + "ms");
    }
    return d;
  }

  @Override
  public Optional<Target> withDelay(Duration delay) {
    if (delay.isZero()) {
      return Optional.of(this);
    }
    Duration in = delay.dividedBy(2);
    LatencyRepository delayed =
        new LatencyRepository(
            repository,
            new LatencyRepository.Delay(in, Duration.ZERO),
            new LatencyRepository.Delay(delay.minus(in), Duration.ZERO),
            1);
    return Optional.of(new RepositoryTarget(delayed, delay, false));
  }

  @Override
  public Client client(int index) {
    return new Client() {
      @Override
      public void put(String key, InputStream body, long lengthBytes) {
        repository.put(key, body, lengthBytes);
      }

      @Override
      public InputStream get(String key, long offset, long lengthBytes) {
        return repository.get(key, offset, lengthBytes);
      }

      @Override
      public boolean head(String key) {
        return repository.head(key).isPresent();
      }

      @Override
      public int list(String prefix, int maxKeys) {
        return repository.list(prefix, "", maxKeys).objects().size();
      }

      @Override
      public void delete(String key) {
        repository.delete(key);
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public void close() {
    // A delayed view does not own the repository it wraps.
    if (owner) {
      repository.close();
    }
  }
}
