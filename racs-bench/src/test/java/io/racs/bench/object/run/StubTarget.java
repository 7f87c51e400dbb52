package io.racs.bench.object.run;

import io.racs.bench.object.target.Target;
import java.io.InputStream;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A target for tests of the run loop: a repository named as given, with no description and no
 * delayed view; a test says what its clients do, on top of {@link QuietClient}.
 */
abstract class StubTarget implements Target {
  private final String name;

  StubTarget(String name) {
    this.name = name;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String kind() {
    return "repository";
  }

  @Override
  public Map<String, String> describe() {
    return Map.of();
  }

  @Override
  public Optional<Target> withDelay(Duration delay) {
    return Optional.empty();
  }

  @Override
  public void close() {}

  /** A client whose every request succeeds at once: stores nothing, reads empty objects. */
  static class QuietClient implements Client {
    @Override
    public void put(String key, InputStream body, long lengthBytes) {}

    @Override
    public InputStream get(String key, long offset, long lengthBytes) {
      return InputStream.nullInputStream();
    }

    @Override
    public boolean head(String key) {
      return true;
    }

    @Override
    public int list(String prefix, int maxKeys) {
      return 0;
    }

    @Override
    public void delete(String key) {}

    @Override
    public void close() {}
  }
}
