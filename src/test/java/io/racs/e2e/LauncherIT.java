package io.racs.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.racs.testkit.SeededBytes;
import io.racs.testkit.TestSeed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the {@code ./racs} launcher works as a user meets it: usage with no arguments, its own JDK
 * discovery (and a clear refusal when only an old JDK exists), dispatch into both fat jars, no JVM
 * warning on any command (the Vector API's incubator notice, Netty's sun.misc.Unsafe notices) while
 * every other line of stderr passes unchanged, and honest "not built yet" answers for commands
 * still to come.
 */
class LauncherIT {
  private static final Map<String, String> NONE = Map.of();

  @Test
  void racs_whenNoArguments_printsUsageAndExits2() {
    Launcher.Result result = Launcher.run(NONE);
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr())
        .contains("usage: ./racs <command>", "server", "bench", "demo", "test", "heal");
  }

  @Test
  void racs_whenUnknownCommand_namesItAndExits2() {
    Launcher.Result result = Launcher.run(NONE, "frobnicate");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr()).contains("unknown command 'frobnicate'");
  }

  @Test
  void racs_whenOnlyJdk17Exists_namesTheJdkItNeeds(@TempDir Path dir) throws IOException {
    // A JVM directory holding one JDK 17, with JAVA_HOME pointing at it and no javac on the PATH.
    Path jdk17 = dir.resolve("jvm/jdk-17");
    Files.createDirectories(jdk17.resolve("bin"));
    Files.writeString(jdk17.resolve("release"), "JAVA_VERSION=\"17.0.15\"\n");
    for (String tool : List.of("java", "javac")) {
      Path script = jdk17.resolve("bin").resolve(tool);
      Files.writeString(script, "#!/bin/sh\necho 'openjdk version \"17.0.15\"' >&2\n");
      Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Map<String, String> env = new HashMap<>();
    env.put("JAVA_HOME", jdk17.toString());
    env.put("RACS_JVM_DIRS", dir.resolve("jvm").toString());
    env.put("PATH", "/usr/bin:/bin");
    Launcher.Result result = Launcher.run(env, "server");
    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.stderr())
        .contains("needs a JDK 21 or newer")
        .contains(jdk17 + " (17)")
        .contains("JAVA_HOME");
  }

  @Test
  void racs_whenJavaHomeIsOld_findsANewerJdkItself() {
    Launcher.Result result =
        Launcher.run(Map.of("JAVA_HOME", "/nonexistent/jdk-17"), "server", "--version");
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout()).contains("racs ");
    int feature = Integer.parseInt(result.stdout().replaceAll("(?s).*Java (\\d+).*", "$1"));
    assertThat(feature).isGreaterThanOrEqualTo(21);
  }

  /**
   * Scripts that start java themselves (the s3-tests runner, the fuzz corpus update) ask the
   * launcher for its JDK: with an old JAVA_HOME they got the machine's default java (17) and the
   * jar's class files (version 65) failed to load.
   */
  @Test
  void racs_whenJavaHomeAsked_printsAJdkOf21OrNewerEvenWhenJavaHomeIsOld() throws IOException {
    Launcher.Result result = Launcher.run(Map.of("JAVA_HOME", "/nonexistent/jdk-17"), "java-home");
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    Path home = Path.of(result.stdout().strip());
    assertThat(home.resolve("bin/java")).isExecutable();
    String release = Files.readString(home.resolve("release"));
    int feature = Integer.parseInt(release.replaceAll("(?s).*JAVA_VERSION=\"(\\d+).*", "$1"));
    assertThat(feature).isGreaterThanOrEqualTo(21);
  }

  @Test
  void racs_whenBench_dispatchesToTheBenchJar() {
    Launcher.Result result = Launcher.run(NONE, "bench", "--help");
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout()).contains("object", "block", "jmh", "Exit codes:");
  }

  @Test
  void racs_whenCommandsStart_printNoJvmWarning() {
    // The incubator notice of the Vector API comes first on every start that does not filter it.
    for (List<String> args :
        List.of(
            List.of("bench", "--help"),
            List.of("bench", "object", "--help"),
            List.of("demo", "--help"),
            List.of("server", "--help"),
            List.of("codec", "--help"),
            List.of("heal", "--help"),
            List.of("recover", "--help"))) {
      Launcher.Result result = Launcher.run(NONE, args.toArray(String[]::new));
      assertThat(result.exitCode()).as(args + ": " + result.stderr()).isZero();
      assertThat(result.stderr()).as(String.join(" ", args)).isEmpty();
      assertThat(result.stdout()).as(String.join(" ", args)).doesNotContain("WARNING");
    }
  }

  @Test
  void racs_whenJavaWritesToStderr_passesEveryOtherLineOnUnchanged() {
    Launcher.Result result = Launcher.run(NONE, "bench", "object", "--bogus");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr()).startsWith("Unknown option: '--bogus'\nUsage: racs bench object");
  }

  @Test
  void racsServer_whenServing_printsNoJvmWarningAndLogsEachRequest(@TempDir Path dir)
      throws Exception {
    // Netty's first buffer allocation is where JDK 24+ reports sun.misc.Unsafe in four lines.
    String id;
    try (ProxyProcess proxy = ProxyProcess.start(dir, ProxyProcess.fsConfig(dir, "4x2", null));
        java.net.http.HttpClient http =
            java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1)
                .build()) {
      java.net.http.HttpResponse<Void> denied =
          http.send(
              java.net.http.HttpRequest.newBuilder(proxy.endpoint().resolve("/bucket/k")).build(),
              java.net.http.HttpResponse.BodyHandlers.discarding());
      assertThat(denied.statusCode()).as(proxy.log()).isEqualTo(403);
      id = denied.headers().firstValue("x-amz-request-id").orElseThrow();
      assertThat(proxy.log())
          .doesNotContain("WARNING")
          .contains("access log: " + dir.resolve("racs-access.log"));
    }
    // The access log is on by default, beside the configuration file.
    assertThat(Files.readAllLines(dir.resolve("racs-access.log")))
        .singleElement()
        .asString()
        .contains(" GET bucket/k 403 ")
        .endsWith(" id=" + id + " user=anonymous");
  }

  @Test
  void racsCodec_whenShardsLost_recoversTheFileThroughTheLauncher(@TempDir Path dir)
      throws IOException {
    long seed = TestSeed.get();
    byte[] bytes = SeededBytes.bytes(seed, 300_001);
    Path file = dir.resolve("data.bin");
    Files.write(file, bytes);
    Path shards = dir.resolve("shards");
    Launcher.Result encoded =
        Launcher.run(
            NONE,
            "codec",
            "encode",
            "--geometry",
            "4x2",
            "--in",
            file.toString(),
            "--out",
            shards.toString());
    assertThat(encoded.exitCode()).as(encoded.stderr()).isZero();
    assertThat(encoded.stdout()).contains("into 6 shards", "vector");
    Files.delete(shards.resolve("shard-0"));
    Files.delete(shards.resolve("shard-4"));
    Path restored = dir.resolve("restored.bin");
    Launcher.Result decoded =
        Launcher.run(
            NONE,
            "codec",
            "decode",
            "--geometry",
            "4x2",
            "--in",
            shards.toString(),
            "--length",
            Integer.toString(bytes.length),
            "--out",
            restored.toString());
    assertThat(decoded.exitCode()).as(decoded.stderr()).isZero();
    assertThat(Files.readAllBytes(restored)).as("seed %d", seed).isEqualTo(bytes);
    assertThat(shards.resolve("shard-0")).exists();
  }

  @Test
  void fatJars_whenRunWithJavaJar_startWithoutTheLauncher() {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    for (String jar :
        List.of("racs-proxy/target/racs-proxy.jar", "racs-bench/target/racs-bench.jar")) {
      Launcher.Result result =
          Launcher.exec(
              List.of(
                  java.toString(), "-jar", Launcher.root().resolve(jar).toString(), "--version"),
              NONE);
      assertThat(result.exitCode()).as(jar + ": " + result.stderr()).isZero();
      assertThat(result.stdout()).startsWith("racs ");
    }
  }
}
