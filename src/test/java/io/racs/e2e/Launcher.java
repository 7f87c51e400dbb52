package io.racs.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs {@code ./racs} as a user would, in a separate process, and captures what it prints. */
final class Launcher {
  private static final long TIMEOUT_SECONDS = 300;

  private Launcher() {}

  /** The repository root (where {@code ./racs} lives). */
  static Path root() {
    String root = System.getProperty("racs.root");
    if (root == null) {
      throw new IllegalStateException("racs.root is not set (run through Maven: ./racs test)");
    }
    return Path.of(root).toAbsolutePath().normalize();
  }

  /** The version {@code scripts/versions.env} pins as {@code NAME=VERSION}. */
  static String pinned(String name) {
    try {
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("(?m)^" + name + "=(\\S+)$")
              .matcher(Files.readString(root().resolve("scripts/versions.env")));
      if (!m.find()) {
        throw new IllegalStateException(name + " is not in scripts/versions.env");
      }
      return m.group(1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What a finished process printed and returned. */
  record Result(int exitCode, String stdout, String stderr) {}

  /** Runs {@code ./racs args...} with extra environment variables (a null value removes one). */
  static Result run(Map<String, String> env, String... args) {
    List<String> command = new ArrayList<>();
    command.add(root().resolve("racs").toString());
    command.addAll(List.of(args));
    return exec(command, env);
  }

  /** Runs any command from the repository root. */
  static Result exec(List<String> command, Map<String, String> env) {
    try {
      Path out = Files.createTempFile("racs-out", ".txt");
      Path err = Files.createTempFile("racs-err", ".txt");
      try {
        ProcessBuilder pb = new ProcessBuilder(command).directory(root().toFile());
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        env.forEach(
            (name, value) -> {
              if (value == null) {
                pb.environment().remove(name);
              } else {
                pb.environment().put(name, value);
              }
            });
        Process process = pb.start();
        if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          process.destroyForcibly();
          throw new IllegalStateException(command + " did not finish in " + TIMEOUT_SECONDS + " s");
        }
        return new Result(
            process.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
