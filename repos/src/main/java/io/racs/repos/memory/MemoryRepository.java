package io.racs.repos.memory;

import io.racs.repos.Bodies;
import io.racs.repos.Keys;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A repository held in this JVM's heap: for unit tests, and for benchmarks of the CPU path where
 * storage should cost nothing. Bodies are copied in on put and shared (never copied) on get; an
 * object is replaced whole, so readers never see a mix. Nothing survives {@link #close()}, which
 * drops every object.
 */
public final class MemoryRepository implements Repository {
  private final String name;
  private final Clock clock;
  private final ConcurrentSkipListMap<String, Entry> objects =
      new ConcurrentSkipListMap<>(Keys.ORDER);
  private volatile boolean closed;

  private record Entry(byte[] data, Instant lastModified) {}

  private MemoryRepository(String name, Clock clock) {
    this.name = Objects.requireNonNull(name, "name");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** An empty repository called {@code name}. */
  public static MemoryRepository create(String name) {
    return new MemoryRepository(name, Clock.systemUTC());
  }

  /** An empty repository whose modification times come from {@code clock}. */
  public static MemoryRepository create(String name, Clock clock) {
    return new MemoryRepository(name, clock);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> description = new LinkedHashMap<>();
    description.put("type", "memory");
    description.put("location", "heap");
    return description;
  }

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    Keys.check(key);
    Keys.checkLength(lengthBytes);
    checkOpen();
    byte[] data;
    try {
      InputStream checked = Bodies.checked(body, lengthBytes, name, key);
      if (lengthBytes >= 0 && lengthBytes < Integer.MAX_VALUE - 8) {
        // The size is known: one copy into an array of that size (readAllBytes makes two).
        data = new byte[(int) lengthBytes];
        Bodies.readFully(checked, data, 0, data.length);
        checked.read(); // the checked body ends here, or throws: shorter or longer than declared
      } else {
        data = checked.readAllBytes();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // CheckedBody reports body failures unchecked.
    }
    Entry entry = new Entry(data, clock.instant());
    objects.put(key, entry);
    return info(key, entry);
  }

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    Keys.check(key);
    Keys.checkRange(offset, lengthBytes);
    checkOpen();
    Entry entry = objects.get(key);
    if (entry == null) {
      throw new RepositoryException(
          RepositoryException.Kind.NOT_FOUND, name + ": no object " + Keys.abbreviate(key));
    }
    int size = entry.data.length;
    int from = (int) Math.min(offset, size);
    int to = lengthBytes < 0 ? size : (int) Math.min(size, from + lengthBytes);
    return new ObjectStream(
        info(key, entry), new ByteArrayInputStream(entry.data, from, to - from));
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    Keys.check(key);
    checkOpen();
    Entry entry = objects.get(key);
    return entry == null ? Optional.empty() : Optional.of(info(key, entry));
  }

  @Override
  public void delete(String key) {
    Keys.check(key);
    checkOpen();
    objects.remove(key);
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    Keys.checkBound(prefix, "prefix");
    Keys.checkBound(startAfter, "startAfter");
    Keys.checkMaxKeys(maxKeys);
    checkOpen();
    String from = Keys.compare(startAfter, prefix) < 0 ? prefix : startAfter;
    boolean inclusive = Keys.compare(startAfter, prefix) < 0;
    List<ObjectInfo> page = new ArrayList<>();
    for (Map.Entry<String, Entry> e : objects.tailMap(from, inclusive).entrySet()) {
      if (!e.getKey().startsWith(prefix)) {
        break;
      }
      if (page.size() == maxKeys) {
        return new ListPage(page, true);
      }
      page.add(info(e.getKey(), e.getValue()));
    }
    return new ListPage(page, false);
  }

  @Override
  public void probe() {
    checkOpen();
  }

  @Override
  public void close() {
    closed = true;
    objects.clear();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(name + ": repository is closed");
    }
  }

  private static ObjectInfo info(String key, Entry entry) {
    return ObjectInfo.of(key, entry.data.length, entry.lastModified);
  }
}
