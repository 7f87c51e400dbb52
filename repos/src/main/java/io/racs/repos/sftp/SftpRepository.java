package io.racs.repos.sftp;

import io.racs.repos.Bodies;
import io.racs.repos.KeyCodec;
import io.racs.repos.Keys;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClient.Attributes;
import org.apache.sshd.sftp.client.SftpClient.CloseableHandle;
import org.apache.sshd.sftp.client.SftpClient.OpenMode;

/**
 * A repository in one directory of an SSH server, over SFTP (protocol version 3, the one OpenSSH
 * speaks), through Apache MINA SSHD's client.
 *
 * <p><b>Layout.</b> Exactly the {@code fs} backend's: a key becomes a path of {@link KeyCodec} safe
 * names under the root, whose components are letters, digits, escapes and non-ASCII characters,
 * never {@code .} or {@code ..}, never empty and never starting with a dot, so no key (whatever
 * {@code ..}, leading {@code /} or control characters it holds) names anything outside the root,
 * and the two backends' trees are interchangeable (an {@code fs} root copied to the server reads
 * back the same). A segment longer than the codec's chunk becomes chained directories, so no
 * component exceeds 250 bytes. The root is limited to {@value KeyCodec#MAX_ROOT_BYTES} bytes so
 * that the longest escaped key stays under Linux's PATH_MAX on the server.
 *
 * <p><b>Writes.</b> A put streams into a temporary file ({@code .racs-tmp-...}, created with {@code
 * O_EXCL}) next to the target, asks the server to fsync it ({@code fsync@openssh.com}, where the
 * server offers it and {@code durable} is set), checks that the file holds every byte sent, and
 * renames it onto the target with {@code posix-rename@openssh.com}, which is rename(2): readers see
 * the old object or the new one, never a mix, and of concurrent writers the last rename wins. A
 * server without that extension has only the protocol's own rename, which refuses an existing
 * target: new keys are still written atomically, but overwriting an existing key is refused ({@code
 * UNEXPECTED}) rather than done as remove-then-rename, whose window would show the key as missing
 * and whose crash would lose it; {@link #describe()} says which the server offers. The directory's
 * own fsync is not in the protocol: a rename is as durable as the server's file system makes it.
 * {@link #putIfAbsent} renames with the protocol's own rename, which fails on an existing target. A
 * write that dies midway leaves an invisible temporary file, which {@link #purgeLeftovers} finds.
 *
 * <p><b>Deletes</b> remove the file and then every directory left empty on its path; a put racing
 * that clean-up makes its directories again.
 *
 * <p><b>The root</b> must exist. On first use the repository writes an empty {@value
 * SftpRoot#MARKER} file in it; whenever a request finds nothing (a get or head of a missing key, a
 * delete, an empty listing, a put whose directory is missing) the root is checked before the answer
 * is given: a root that is missing, not a directory, or without its marker (another directory put
 * in its place) fails every method with {@code UNAVAILABLE}, never with "no such object" or an
 * empty listing. Requests that find what they look for cost no extra check.
 *
 * <p><b>Listing</b> walks the tree depth-first and sorts each directory by safe name, as the {@code
 * fs} backend does, which yields UTF-8 binary key order; see {@link SftpListing}.
 *
 * <p><b>Host keys</b> are checked against the configured {@code known_hosts} file. An unlisted host
 * is refused unless {@code trustOnFirstUse}, and a listed host presenting another key always is;
 * either refusal is {@code ACCESS_DENIED} naming the host and the key's fingerprint (not {@code
 * UNAVAILABLE}, which callers retry as an outage: a changed key needs an operator).
 *
 * <p><b>Connections</b> are a fixed set of SFTP channels over one or a few SSH sessions ({@link
 * SftpConnections}), opened on first use and reopened when found closed. Calls block the calling
 * thread (a virtual thread is fine), but their requests run on a thread of their own ({@link
 * SftpCalls}): a caller interrupted midway (the loser of a hedged read, a straggler given up on)
 * fails at once with {@code TIMEOUT} and keeps its interrupt status, while its requests finish, its
 * handles are closed and an abandoned put's temporary file is removed without it; no interrupt ever
 * reaches MINA, where it would break the channel for every other call. Every request waits at most
 * {@code requestTimeout} for its answer ({@code TIMEOUT} beyond; the late answer is dropped, see
 * {@link SftpChannel}); connecting and authenticating at most {@code connectTimeout}.
 *
 * <p><b>Errors</b> are translated once, in {@link SftpErrors}: "no such file" is {@code NOT_FOUND}
 * once the root is checked, "permission denied" {@code ACCESS_DENIED}, "no space" and "quota" (SFTP
 * versions above 3 only: OpenSSH reports a full disk as a plain failure) {@code FULL}, a refused
 * host key or login {@code ACCESS_DENIED}, an unanswered request {@code TIMEOUT}, a refused, reset
 * or closed connection {@code UNAVAILABLE}, anything else {@code UNEXPECTED}. Nothing is retried:
 * the next call reconnects.
 */
public final class SftpRepository implements Repository {
  private final String name;
  private final SftpOptions options;
  private final SftpConnections connections;
  private final SftpRoot root;
  private final SftpWriter writer;
  private final SftpListing listing;
  private final SftpCalls calls;
  private final AtomicBoolean rootChecked = new AtomicBoolean();

  private SftpRepository(String name, SftpOptions options) {
    this.name = Objects.requireNonNull(name, "name");
    this.options = Objects.requireNonNull(options, "options");
    this.connections = new SftpConnections(name, options);
    this.root = new SftpRoot(name, options.root());
    this.writer = new SftpWriter(name, root, connections, options.durable());
    this.listing = new SftpListing(root);
    this.calls = new SftpCalls(name);
  }

  /** A repository called {@code name} with {@code options}; connects on first use, no I/O here. */
  public static SftpRepository create(String name, SftpOptions options) {
    return new SftpRepository(name, options);
  }

  @Override
  public String name() {
    return name;
  }

  /** The options this repository was built with. */
  public SftpOptions options() {
    return options;
  }

  @Override
  public Map<String, String> describe() {
    Map<String, String> description = new LinkedHashMap<>();
    description.put("type", "sftp");
    description.put("location", "sftp://" + options.location());
    description.put(
        "auth",
        options.privateKeyFile().isPresent()
            ? (options.password().isPresent() ? "publickey,password" : "publickey")
            : "password");
    description.put("knownHostsFile", options.knownHostsFile().toString());
    description.put("trustOnFirstUse", Boolean.toString(options.trustOnFirstUse()));
    description.put("sessions", Integer.toString(options.sessions()));
    description.put("channels", Integer.toString(options.channels()));
    Optional<SftpConnections.Capabilities> capabilities = connections.capabilities();
    description.put(
        "replace",
        capabilities
            .map(
                c ->
                    c.posixRename()
                        ? "posix-rename@openssh.com (atomic)"
                        : "refused: the server has no posix-rename@openssh.com")
            .orElse("not yet connected"));
    description.put(
        "durable",
        !options.durable()
            ? "false"
            : capabilities
                .map(c -> c.fsync() ? "fsync@openssh.com" : "false: the server has no fsync")
                .orElse("true (if the server offers fsync@openssh.com)"));
    return description;
  }

  // ---- put ---------------------------------------------------------------------------------

  @Override
  public ObjectInfo put(String key, InputStream body, long lengthBytes) {
    return write(key, body, lengthBytes, false);
  }

  /**
   * Stores {@code body} under {@code key} only if no object is there: "create if absent". The
   * temporary file is created with {@code O_EXCL} and renamed with the protocol's own rename, which
   * refuses an existing target (see "Writes" above for which servers make that atomic). Otherwise
   * like {@link #put}.
   *
   * @throws RepositoryException {@code PRECONDITION_FAILED} when an object exists under {@code
   *     key}, which is then unchanged
   */
  public ObjectInfo putIfAbsent(String key, InputStream body, long lengthBytes) {
    return write(key, body, lengthBytes, true);
  }

  private ObjectInfo write(String key, InputStream body, long lengthBytes, boolean ifAbsent) {
    Keys.check(key);
    Keys.checkLength(lengthBytes);
    return calls.call(
        ifAbsent ? "put if absent" : "put",
        key,
        callerLeft ->
            writer.write(
                channel(),
                key,
                components(key),
                Bodies.checked(new CallerBody(body, callerLeft), lengthBytes, name, key),
                ifAbsent));
  }

  /** The caller's body, read on a request thread until the caller leaves; never closed. */
  private static final class CallerBody extends FilterInputStream {
    private final BooleanSupplier callerLeft;

    CallerBody(InputStream body, BooleanSupplier callerLeft) {
      super(body);
      this.callerLeft = callerLeft;
    }

    @Override
    public int read() throws IOException {
      checkCaller();
      return super.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      checkCaller();
      return super.read(b, off, len);
    }

    @Override
    public void close() {
      // The body belongs to the caller.
    }

    private void checkCaller() throws IOException {
      if (callerLeft.getAsBoolean()) {
        // Its caller was interrupted: the body may be closed or reused; the put stores nothing.
        throw new InterruptedIOException("the caller left; the put is abandoned");
      }
    }
  }

  // ---- get and head ------------------------------------------------------------------------

  @Override
  public ObjectStream get(String key, long offset, long lengthBytes) {
    Keys.check(key);
    Keys.checkRange(offset, lengthBytes);
    return calls.call(
        "get", key, callerLeft -> open(key, offset, lengthBytes), SftpRepository::closeQuietly);
  }

  private ObjectStream open(String key, long offset, long lengthBytes) {
    SftpClient channel = channel();
    String path = path(key);
    CloseableHandle handle;
    try {
      handle = channel.open(path, OpenMode.Read);
    } catch (IOException e) {
      if (SftpErrors.isNoSuchFile(e)) {
        throw root.notFound(channel, key);
      }
      throw root.translate(channel, e, "get", key);
    }
    try {
      // The open handle reads the file it opened even if the key is replaced meanwhile.
      Attributes attributes = channel.stat(handle);
      if (!attributes.isRegularFile()) {
        handle.close();
        throw root.notFound(channel, key);
      }
      long size = attributes.getSize();
      ObjectInfo info = ObjectInfo.of(key, size, SftpListing.modified(attributes));
      long from = Math.min(offset, size);
      long to = lengthBytes < 0 ? size : from + Math.min(lengthBytes, size - from);
      if (from == to) {
        handle.close();
        return new ObjectStream(info, InputStream.nullInputStream());
      }
      return new ObjectStream(
          info, new SftpRangeStream(name, key, calls, channel, path, handle, from, to));
    } catch (IOException | RuntimeException e) {
      closeQuietly(handle);
      if (e instanceof RepositoryException r) {
        throw r;
      }
      if (e instanceof IOException io) {
        throw root.translate(channel, io, "get", key);
      }
      throw SftpErrors.translate(name, e, "get", key);
    }
  }

  @Override
  public Optional<ObjectInfo> head(String key) {
    Keys.check(key);
    return calls.call("head", key, callerLeft -> stat(key));
  }

  private Optional<ObjectInfo> stat(String key) {
    SftpClient channel = channel();
    try {
      Attributes attributes = channel.lstat(path(key));
      if (!attributes.isRegularFile()) {
        return root.absent(channel);
      }
      return Optional.of(
          ObjectInfo.of(key, attributes.getSize(), SftpListing.modified(attributes)));
    } catch (IOException e) {
      if (SftpErrors.isNoSuchFile(e)) {
        return root.absent(channel);
      }
      throw root.translate(channel, e, "head", key);
    }
  }

  // ---- delete and list ---------------------------------------------------------------------

  @Override
  public void delete(String key) {
    Keys.check(key);
    calls.call(
        "delete",
        key,
        callerLeft -> {
          remove(key);
          return Boolean.TRUE;
        });
  }

  private void remove(String key) {
    SftpClient channel = channel();
    String[] components = components(key);
    try {
      channel.remove(path(key));
    } catch (IOException e) {
      if (SftpErrors.isNoSuchFile(e)) {
        root.check(channel); // deleting a missing key succeeds; under a missing root it must not
        return;
      }
      throw root.translate(channel, e, "delete", key);
    }
    removeEmptyDirectories(channel, components, components.length - 1);
  }

  /** Removes the directories of the first {@code count} components, deepest first, while empty. */
  private void removeEmptyDirectories(SftpClient channel, String[] components, int count) {
    for (int i = count; i > 0; i--) {
      try {
        channel.rmdir(writer.directory(components, i));
      } catch (IOException e) {
        return; // not empty (in use again), or gone: tidying is best-effort either way
      }
    }
  }

  @Override
  public ListPage list(String prefix, String startAfter, int maxKeys) {
    Keys.checkBound(prefix, "prefix");
    Keys.checkBound(startAfter, "startAfter");
    Keys.checkMaxKeys(maxKeys);
    return calls.call(
        "list", prefix, callerLeft -> listing.list(channel(), prefix, startAfter, maxKeys));
  }

  // ---- probe, purge, close -----------------------------------------------------------------

  /** Connects (if need be) and checks the root: one request when connected. */
  @Override
  public void probe() {
    calls.call(
        "probe",
        "",
        callerLeft -> {
          root.check(channel());
          return Boolean.TRUE;
        });
  }

  /**
   * Its leftovers are the temporary files of writes that died midway (the process, the connection),
   * found by walking the whole tree; younger than {@code grace} they may belong to a write still
   * running.
   */
  @Override
  public long purgeLeftovers(Duration grace, boolean dryRun) {
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace: " + grace + " (expected: >= 0)");
    }
    return calls.call("purge", "", callerLeft -> purge(grace, dryRun));
  }

  private long purge(Duration grace, boolean dryRun) {
    SftpClient channel = channel();
    Instant cutoff = Instant.now().minus(grace);
    List<String> stale = new ArrayList<>();
    listing.temporaryFiles(
        channel,
        file -> {
          if (file.modified().isBefore(cutoff)) {
            stale.add(file.path());
          }
        });
    if (dryRun) {
      return stale.size();
    }
    long removed = 0;
    for (String path : stale) {
      try {
        channel.remove(path);
        removed++;
      } catch (IOException e) {
        if (!SftpErrors.isNoSuchFile(e)) {
          throw root.translate(channel, e, "purge", "");
        }
      }
    }
    return removed;
  }

  @Override
  public void close() {
    connections.close();
  }

  // ---- helpers -----------------------------------------------------------------------------

  /** Its connections, for tests that count sessions. */
  SftpConnections connections() {
    return connections;
  }

  /** A channel, and on the repository's first use the root checked (and its marker written). */
  private SftpClient channel() {
    SftpClient channel = connections.channel();
    if (!rootChecked.get()) {
      root.check(channel);
      rootChecked.set(true);
    }
    return channel;
  }

  private String path(String key) {
    return root.resolve(KeyCodec.encode(key));
  }

  private static String[] components(String key) {
    return KeyCodec.encode(key).split("/", -1);
  }

  private static void closeQuietly(ObjectStream stream) {
    try {
      stream.close();
    } catch (IOException | RuntimeException e) {
      // Opened for a caller who left: nothing was read from it.
    }
  }

  private static void closeQuietly(CloseableHandle handle) {
    try {
      handle.close();
    } catch (IOException e) {
      // Nothing was written through it.
    }
  }
}
