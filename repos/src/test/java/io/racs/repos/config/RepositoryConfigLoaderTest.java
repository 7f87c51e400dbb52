package io.racs.repos.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.repos.Repository;
import io.racs.repos.decorator.ForwardingRepository;
import io.racs.repos.decorator.LatencyRepository;
import io.racs.repos.decorator.MeteredRepository;
import io.racs.repos.fs.FsRepository;
import io.racs.repos.memory.MemoryRepository;
import io.racs.repos.s3.S3Credentials;
import io.racs.repos.s3.S3Options;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Proves the repository-set file format: the shipped example loads with every field, environment
 * references resolve and never show in {@code toString}, other top-level sections stay available,
 * the factory builds the configured backends inside their decorators in order, and every malformed
 * file fails with one line naming the file, the repository and the field.
 */
class RepositoryConfigLoaderTest {
  private static final Map<String, String> ENV =
      Map.of("RACS_MINIO_ACCESS", "minio-access", "RACS_MINIO_SECRET", "very-secret-value");
  private final RepositoryConfigLoader loader = RepositoryConfigLoader.withEnvironment(ENV::get);

  @TempDir Path temp;

  private static String example() throws IOException {
    try (InputStream in = RepositoryConfigLoader.class.getResourceAsStream("/examples/racs.yaml")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void load_whenShippedExample_readsEveryFieldAndKeepsOtherSections() throws IOException {
    Path file = temp.resolve("racs.yaml");
    Files.writeString(file, example() + "geometry: 4x2\nlisten: {port: 9000}\n");
    RepositorySetConfig set = loader.load(file);

    assertThat(set.source()).isEqualTo(file.toString());
    assertThat(set.repositories())
        .extracting(RepositoryConfig::name)
        .containsExactly("local-a", "minio-1", "aws-eu", "slow-memory");
    assertThat(set.repository("local-a").orElseThrow().backend())
        .isEqualTo(new BackendConfig.Fs(Path.of("/var/lib/racs/a"), true));

    S3Options minio =
        ((BackendConfig.S3) set.repository("minio-1").orElseThrow().backend()).options();
    assertThat(minio.pathStyle()).isTrue();
    assertThat(minio.endpoint()).hasValueSatisfying(u -> assertThat(u.getPort()).isEqualTo(9000));
    assertThat(minio.keyPrefix()).isEqualTo("shards/");
    assertThat(minio.credentials())
        .isEqualTo(S3Credentials.of("minio-access", "very-secret-value"));
    assertThat(minio.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(minio.maxAttempts()).isEqualTo(3);
    assertThat(minio.partSizeBytes()).isEqualTo(8 << 20);
    assertThat(minio.checksums()).isEqualTo(S3Options.Checksums.WHEN_SUPPORTED);
    assertThat(minio.expectContinueBytes()).isEqualTo(1 << 20);
    assertThat(minio.createBucket()).isFalse();

    S3Options aws = ((BackendConfig.S3) set.repository("aws-eu").orElseThrow().backend()).options();
    assertThat(aws.pathStyle()).isFalse();
    assertThat(aws.endpoint()).isEmpty();
    assertThat(aws.region()).isEqualTo("eu-west-1");

    assertThat(set.repository("slow-memory").orElseThrow().decorators())
        .containsExactly(
            new DecoratorConfig.Latency(
                new LatencyRepository.Delay(Duration.ofMillis(10), Duration.ofMillis(2)),
                new LatencyRepository.Delay(Duration.ofMillis(10), Duration.ofMillis(2)),
                1),
            new DecoratorConfig.Metered());

    assertThat(set.toString()).doesNotContain("very-secret-value").contains("****");
    assertThat(set.section("geometry").orElseThrow().asText()).isEqualTo("4x2");
    assertThat(set.section("listen").orElseThrow().get("port").asInt()).isEqualTo(9000);
    assertThat(set.document().toString()).doesNotContain("very-secret-value");
  }

  @Test
  void createAll_whenConfigured_buildsBackendsInsideDecoratorsInOrder() {
    String yaml =
        """
        repositories:
          - name: disk
            type: fs
            path: %s
            durable: false
          - name: mem
            type: memory
            decorators: [{latency: {delay: 1ms}}, metered]
        """
            .formatted(temp);
    Map<String, Repository> repositories =
        RepositoryFactory.createAll(loader.parse(yaml, "inline.yaml"));
    assertThat(repositories.keySet()).containsExactly("disk", "mem");
    try (Repository disk = repositories.get("disk");
        Repository mem = repositories.get("mem")) {
      assertThat(disk).isInstanceOf(FsRepository.class);
      assertThat(disk.describe()).containsEntry("durable", "false");
      assertThat(mem).isInstanceOf(MeteredRepository.class);
      assertThat(((ForwardingRepository) mem).delegate()).isInstanceOf(LatencyRepository.class);
      assertThat(ForwardingRepository.find(mem, MemoryRepository.class)).isPresent();
      assertThat(mem.name()).isEqualTo("mem");
      mem.probe();
    }
  }

  @Test
  void parse_whenYaml11WordsOrNumbersWhereTextIsExpected_keepsTheTextAsWritten() {
    String yaml =
        """
        repositories:
          - name: no
            type: s3
            bucket: yes
            region: off
            prefix: on
            credentials: {accessKey: 0123, secretKey: 1.10}
          - {name: d, type: fs, path: /x, durable: 'false'}
        """;
    RepositorySetConfig set = loader.parse(yaml, "words.yaml");

    S3Options s3 = ((BackendConfig.S3) set.repository("no").orElseThrow().backend()).options();
    assertThat(s3.bucket()).isEqualTo("yes");
    assertThat(s3.region()).isEqualTo("off");
    assertThat(s3.keyPrefix()).isEqualTo("on");
    assertThat(s3.credentials()).isEqualTo(S3Credentials.of("0123", "1.10"));
    assertThat(set.repository("d").orElseThrow().backend())
        .isEqualTo(new BackendConfig.Fs(Path.of("/x"), false));
  }

  @ParameterizedTest(name = "durable: {0}")
  @MethodSource("booleanWords")
  void parse_whenBooleanFieldHoldsYaml11Word_readsItsMeaning(String word, boolean meaning) {
    String yaml = "repositories:\n  - {name: d, type: fs, path: /x, durable: " + word + "}\n";
    assertThat(loader.parse(yaml, "b.yaml").repository("d").orElseThrow().backend())
        .isEqualTo(new BackendConfig.Fs(Path.of("/x"), meaning));
  }

  static Stream<Arguments> booleanWords() {
    return Stream.of(
        Arguments.of("true", true),
        Arguments.of("TRUE", true),
        Arguments.of("yes", true),
        Arguments.of("On", true),
        Arguments.of("false", false),
        Arguments.of("No", false),
        Arguments.of("OFF", false),
        Arguments.of("'no'", false));
  }

  @Test
  void parse_whenAnyValueReferencesEnvironment_resolvesItBeforeReadingTheValue() {
    Map<String, String> env = Map.of("RETRIES", "7", "DURABLE", "no", "BUCKET", "from-env");
    String yaml =
        """
        repositories:
          - {name: s, type: s3, bucket: '${env:BUCKET}', retries: '${env:RETRIES}'}
          - {name: d, type: fs, path: /x, durable: '${env:DURABLE}'}
        """;
    RepositorySetConfig set =
        RepositoryConfigLoader.withEnvironment(env::get).parse(yaml, "e.yaml");
    S3Options s3 = ((BackendConfig.S3) set.repository("s").orElseThrow().backend()).options();
    assertThat(s3.bucket()).isEqualTo("from-env");
    assertThat(s3.maxAttempts()).isEqualTo(8);
    assertThat(set.repository("d").orElseThrow().backend())
        .isEqualTo(new BackendConfig.Fs(Path.of("/x"), false));
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of(
            "unknown type",
            "repositories:\n  - {name: a, type: ftp}\n",
            "bad.yaml: repository 'a': field 'type': unknown type 'ftp' (expected one of: fs, s3, minio, azure, gcs, sftp, memory)"),
        Arguments.of(
            "missing field",
            "repositories:\n  - {name: a, type: fs}\n",
            "bad.yaml: repository 'a': field 'path': missing"),
        Arguments.of(
            "missing name",
            "repositories:\n  - {name: a, type: memory}\n  - {type: memory}\n",
            "bad.yaml: repository #2: field 'name': missing"),
        Arguments.of(
            "bad number",
            "repositories:\n  - {name: m, type: minio, endpoint: 'http://h:1', bucket: b, retries: many}\n",
            "bad.yaml: repository 'm': field 'retries': expected a whole number, got 'many'"),
        Arguments.of(
            "bad duration",
            "repositories:\n  - {name: m, type: s3, bucket: b, readTimeout: 10}\n",
            "bad.yaml: repository 'm': field 'readTimeout': expected a duration such as 10ms or 2s, got '10'"),
        Arguments.of(
            "bad boolean",
            "repositories:\n  - {name: a, type: fs, path: /x, durable: maybe}\n",
            "bad.yaml: repository 'a': field 'durable': expected true or false, got 'maybe'"),
        Arguments.of(
            "duplicate name",
            "repositories:\n  - {name: a, type: memory}\n  - {name: a, type: memory}\n",
            "bad.yaml: repository 'a': field 'name': duplicate name"),
        Arguments.of(
            "unknown decorator",
            "repositories:\n  - {name: a, type: memory, decorators: [metered, laggy]}\n",
            "bad.yaml: repository 'a': field 'decorators[1]': unknown decorator 'laggy' (expected one of: latency, faulty, metered)"),
        Arguments.of(
            "unknown decorator option",
            "repositories:\n  - {name: a, type: memory, decorators: [{latency: {dealy: 1ms}}]}\n",
            "bad.yaml: repository 'a': field 'decorators[0].latency.dealy': unknown option (expected one of: delay, jitter, lateDelay, lateRate, responseDelay, responseJitter, seed)"),
        Arguments.of(
            "unknown field",
            "repositories:\n  - {name: a, type: fs, path: /x, bucket: b}\n",
            "bad.yaml: repository 'a': field 'bucket': unknown field for type fs (expected one of: decorators, durable, name, path, type)"),
        Arguments.of(
            "missing environment variable",
            "repositories:\n  - name: s\n    type: s3\n    bucket: b\n    credentials: {accessKey: a, secretKey: '${env:NOPE}'}\n",
            "bad.yaml: repository 's': field 'credentials.secretKey': environment variable NOPE is not set"),
        Arguments.of(
            "part size too small",
            "repositories:\n  - {name: s, type: s3, bucket: b, partSize: 1MiB}\n",
            "bad.yaml: repository 's': field 'partSize': 1048576 bytes (expected: 5MiB to 1GiB)"),
        Arguments.of(
            "unknown credentials field",
            "repositories:\n  - {name: s, type: s3, bucket: b, credentials: {accessKey: a, secret: b}}\n",
            "bad.yaml: repository 's': field 'credentials.secret': unknown field (expected one of: accessKey, profile, secretKey)"),
        Arguments.of(
            "unknown faulty option",
            "repositories:\n  - {name: a, type: memory, decorators: [{faulty: {rate: 1}}]}\n",
            "bad.yaml: repository 'a': field 'decorators[0].faulty.rate': unknown option (expected one of: corruptReads, failCall, failKeys, failRate, kind, outage, seed)"),
        Arguments.of(
            "metered with options",
            "repositories:\n  - {name: a, type: memory, decorators: [{metered: {x: 1}}]}\n",
            "bad.yaml: repository 'a': field 'decorators[0].metered.x': unknown option (metered takes none)"),
        Arguments.of(
            "bad decorator seed",
            "repositories:\n  - {name: a, type: memory, decorators: [{latency: {seed: x1}}]}\n",
            "bad.yaml: repository 'a': field 'decorators[0].latency.seed': expected a whole number, got 'x1'"),
        Arguments.of(
            "mapping where a value is expected",
            "repositories:\n  - {name: s, type: s3, bucket: {name: b}}\n",
            "bad.yaml: repository 's': field 'bucket': expected a single value"),
        Arguments.of(
            "retries out of range",
            "repositories:\n  - {name: s, type: s3, bucket: b, retries: 101}\n",
            "bad.yaml: repository 's': field 'retries': 101 (expected: 0 to 100)"),
        Arguments.of(
            "unknown checksums mode",
            "repositories:\n  - {name: s, type: s3, bucket: b, checksums: never}\n",
            "bad.yaml: repository 's': field 'checksums': 'never' (expected: when_supported or when_required)"),
        Arguments.of(
            "bad expectContinue",
            "repositories:\n  - {name: s, type: s3, bucket: b, expectContinue: never}\n",
            "bad.yaml: repository 's': field 'expectContinue': expected a size such as 1MiB, or off, got 'never'"),
        Arguments.of(
            "no repositories",
            "geometry: 4x2\n",
            "bad.yaml: field 'repositories': missing or not a list (expected: a list of repositories)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void parse_whenMalformed_failsWithOneLineNamingFileRepositoryAndField(
      String what, String yaml, String message) {
    assertThatThrownBy(() -> loader.parse(yaml, "bad.yaml"))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void parse_whenExpectContinueIsASizeOrOff_readsTheThreshold() {
    String yaml =
        """
        repositories:
          - {name: a, type: s3, bucket: b, expectContinue: 64KiB}
          - {name: b, type: s3, bucket: b, expectContinue: "off"}
          - {name: c, type: s3, bucket: b, expectContinue: 0}
        """;
    RepositorySetConfig set = loader.parse(yaml, "expect.yaml");
    assertThat(
            List.of("a", "b", "c").stream()
                .map(n -> ((BackendConfig.S3) set.repository(n).orElseThrow().backend()).options())
                .map(S3Options::expectContinueBytes))
        .containsExactly(64L << 10, S3Options.EXPECT_CONTINUE_NEVER, 0L);
  }

  @Test
  void parse_whenLatencyHasALateTail_readsRateAndDelay() {
    String yaml =
        """
        repositories:
          - name: far
            type: memory
            decorators:
              - latency: {jitter: 40ms, lateRate: 0.02, lateDelay: 200ms, seed: 9}
        """;
    assertThat(loader.parse(yaml, "late.yaml").repository("far").orElseThrow().decorators())
        .containsExactly(
            new DecoratorConfig.Latency(
                new LatencyRepository.Delay(Duration.ZERO, Duration.ofMillis(40)),
                LatencyRepository.Delay.NONE,
                new LatencyRepository.Late(0.02, Duration.ofMillis(200)),
                9));
    assertThatThrownBy(
            () -> loader.parse(yaml.replace("lateRate: 0.02", "lateRate: 2%"), "late.yaml"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("lateRate")
        .hasMessageContaining("expected: a number from 0 to 1");
  }

  @Test
  void parse_whenDuplicateYamlKey_failsWithLine() {
    assertThatThrownBy(
            () ->
                loader.parse(
                    "repositories:\n  - name: a\n    name: b\n    type: memory\n", "dup.yaml"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("dup.yaml: line 3: ")
        .hasMessageContaining("name")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void load_whenFileMissing_namesFile() {
    Path missing = temp.resolve("none.yaml");
    assertThatThrownBy(() -> loader.load(missing))
        .isInstanceOf(ConfigException.class)
        .hasMessage(missing + ": no such file");
  }
}
