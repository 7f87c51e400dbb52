package io.racs.repos.emulator;

import io.racs.repos.minio.ProvisionedTools;
import io.racs.repos.process.ServerProcess;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real fake-gcs-server (the Google Cloud Storage emulator, as {@code scripts/provision.sh} builds
 * it with Go) on 127.0.0.1 over plain HTTP, ready once its JSON API answers a bucket listing.
 *
 * <p>With {@link Backend#FILESYSTEM} it keeps its objects under its home directory, so a kill and a
 * restart bring back what it held, as a provider coming back would; {@link Backend#MEMORY} loses
 * everything with the process and is faster. What it cannot show of GCS is listed in the {@code
 * gcs} repository's package: generation preconditions are checked on uploads only, it never
 * throttles, and every 404 is a bare "Not Found".
 */
public final class FakeGcsServer implements AutoCloseable {
  /** Where the emulator keeps objects. */
  public enum Backend {
    MEMORY,
    FILESYSTEM
  }

  /** The project buckets are created in; the emulator checks none. */
  public static final String PROJECT = "racs-test";

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);

  private final ServerProcess process;

  private FakeGcsServer(Path home, Path binary, Backend backend) {
    this.process =
        new ServerProcess(
            "fake-gcs-server",
            home,
            port -> {
              List<String> command = new ArrayList<>();
              command.addAll(
                  List.of(
                      binary.toString(),
                      "-scheme",
                      "http",
                      "-host",
                      "127.0.0.1",
                      "-port",
                      Integer.toString(port),
                      "-log-level",
                      "warn"));
              if (backend == Backend.MEMORY) {
                command.addAll(List.of("-backend", "memory"));
              } else {
                command.addAll(
                    List.of(
                        "-backend",
                        "filesystem",
                        "-filesystem-root",
                        home.resolve("data").toString()));
              }
              return command;
            },
            READY_TIMEOUT,
            port ->
                ServerProcess.answersOk(URI.create("http://127.0.0.1:" + port + "/storage/v1/b")));
  }

  /** A server living under {@code home}, run from the provisioned binary. */
  public static FakeGcsServer create(Path home, Backend backend) {
    return new FakeGcsServer(home, ProvisionedTools.require("RACS_FAKE_GCS"), backend);
  }

  /** The process: start, stop, kill, its PIDs and log. */
  public ServerProcess process() {
    return process;
  }

  /** The server's root URL, the {@code endpoint} of a {@code gcs} repository. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + process.port());
  }

  @Override
  public void close() {
    process.close();
  }
}
