package io.racs.repos.memory;

import io.racs.repos.Bodies;
import io.racs.repos.Keys;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
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

  /** An object: its bytes in the arrays they were written in (none empty), never copied again. */
  private record Entry(byte[][] chunks, long size, Instant lastModified) {}

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
    Chunks content = new Chunks();
    try {
      // The body writes its arrays into ours: one copy, and no zero-filling of an array first.
      Bodies.checked(body, lengthBytes, name, key).transferTo(content);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // Chunks never throws; CheckedBody reports unchecked.
    }
    Entry entry = new Entry(content.chunks(), content.size, clock.instant());
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
    long from = Math.min(offset, entry.size);
    long to = lengthBytes < 0 ? entry.size : from + Math.min(lengthBytes, entry.size - from);
    return new ObjectStream(info(key, entry), new ChunkStream(entry.chunks, from, to));
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
    return ObjectInfo.of(key, entry.size, entry.lastModified);
  }

  /**
   * Collects a body's writes. A large write becomes a chunk of its own by {@link
   * Arrays#copyOfRange} (which the JIT does not zero-fill before copying); small writes are
   * gathered into shared chunks, so a body written a byte at a time does not become a chunk per
   * byte.
   */
  private static final class Chunks extends OutputStream {
    private static final int SMALL_BYTES = 8192;
    private static final int GATHER_BYTES = 64 * 1024;

    private final List<byte[]> chunks = new ArrayList<>();
    private final ByteArrayOutputStream gathered = new ByteArrayOutputStream();
    private long size;

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return;
      }
      if (len >= SMALL_BYTES) {
        endGathered();
        chunks.add(Arrays.copyOfRange(b, off, off + len));
      } else {
        gathered.write(b, off, len);
        if (gathered.size() >= GATHER_BYTES) {
          endGathered();
        }
      }
      size += len;
    }

    private void endGathered() {
      if (gathered.size() > 0) {
        chunks.add(gathered.toByteArray());
        gathered.reset();
      }
    }

    byte[][] chunks() {
      endGathered();
      return chunks.toArray(new byte[0][]);
    }
  }

  /** Reads {@code [from, to)} of an object's chunks, sharing them. */
  private static final class ChunkStream extends InputStream {
    private final byte[][] chunks;
    private int index;
    private int position;
    private long remaining;

    ChunkStream(byte[][] chunks, long from, long to) {
      this.chunks = chunks;
      this.remaining = to - from;
      long skip = from;
      while (index < chunks.length && skip >= chunks[index].length) {
        skip -= chunks[index].length;
        index++;
      }
      this.position = (int) skip;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      Objects.checkFromIndexSize(off, len, b.length);
      if (len == 0) {
        return 0;
      }
      if (remaining == 0) {
        return -1;
      }
      byte[] chunk = current();
      int n = (int) Math.min(Math.min(len, chunk.length - position), remaining);
      System.arraycopy(chunk, position, b, off, n);
      position += n;
      remaining -= n;
      return n;
    }

    @Override
    public long transferTo(OutputStream out) throws IOException {
      long total = 0;
      while (remaining > 0) {
        byte[] chunk = current();
        int n = (int) Math.min(chunk.length - position, remaining);
        out.write(chunk, position, n);
        position += n;
        remaining -= n;
        total += n;
      }
      return total;
    }

    @Override
    public long skip(long n) {
      long skipped = Math.clamp(n, 0, remaining);
      for (long left = skipped; left > 0; ) {
        byte[] chunk = current();
        int step = (int) Math.min(chunk.length - position, left);
        position += step;
        left -= step;
      }
      remaining -= skipped;
      return skipped;
    }

    @Override
    public int available() {
      return remaining == 0 ? 0 : (int) Math.min(current().length - position, remaining);
    }

    /** The chunk holding the next byte; only while bytes remain. */
    private byte[] current() {
      while (position == chunks[index].length) {
        index++;
        position = 0;
      }
      return chunks[index];
    }
  }
}
