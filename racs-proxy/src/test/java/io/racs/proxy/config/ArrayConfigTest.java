package io.racs.proxy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.proxy.codec.Geometry;
import io.racs.repos.config.ConfigException;
import io.racs.repos.config.RepositoryConfig;
import io.racs.repos.config.RepositoryConfigLoader;
import io.racs.repos.config.RepositorySetConfig;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Proves the {@code array:} section: every field reaches the store configuration, slots name
 * repositories as written (also names YAML 1.1 would read as booleans), values may come from the
 * loader's environment, and every malformed section fails with one line naming the file, the
 * section and the field.
 */
class ArrayConfigTest {
  private static final String REPOSITORIES =
      "repositories:\n"
          + "  - {name: a, type: memory}\n"
          + "  - {name: no, type: memory}\n"
          + "  - {name: off, type: memory}\n";

  private static RepositorySetConfig file(String array) {
    return RepositoryConfigLoader.withEnvironment(Map.of("GEOMETRY", "2x1")::get)
        .parse(REPOSITORIES + array, "racs.yaml");
  }

  @Test
  void from_whenEveryFieldGiven_configuresTheStoreAndSlotsInOrder() {
    ArrayConfig array =
        ArrayConfig.from(
            file(
                """
                array:
                  geometry: ${env:GEOMETRY}
                  slots: [off, a, no]
                  blockSize: 64KiB
                  writeQuorum: 3
                  slowShardTimeout: 2s
                  stallGrace: 300ms
                  gcGrace: 1h
                  inlineSize: 0
                  hedge: {enabled: off, percentile: 99.5, minDelay: 5ms, maxDelay: 1s}
                """));
    assertThat(array.slots()).extracting(RepositoryConfig::name).containsExactly("off", "a", "no");
    assertThat(array.store().geometry()).isEqualTo(Geometry.parse("2x1"));
    assertThat(array.store().blockBytes()).isEqualTo(64 << 10);
    assertThat(array.store().writeQuorum()).isEqualTo(3);
    assertThat(array.store().slowShardTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(array.store().stallGrace()).isEqualTo(Duration.ofMillis(300));
    assertThat(array.store().gcGrace()).isEqualTo(Duration.ofHours(1));
    assertThat(array.store().inlineBytes()).isZero();
    assertThat(array.store().hedge())
        .isEqualTo(
            new io.racs.proxy.store.api.StoreConfig.Hedge(
                false, 99.5, Duration.ofMillis(5), Duration.ofSeconds(1)));
  }

  @Test
  void from_whenHedgeAbsentOrPartial_usesTheDefaultsForWhatIsMissing() {
    assertThat(ArrayConfig.from(file("array: {geometry: 2x1}\n")).store().hedge())
        .isEqualTo(io.racs.proxy.store.api.StoreConfig.Hedge.DEFAULT);
    assertThat(
            ArrayConfig.from(file("array: {geometry: 2x1, hedge: {percentile: 90}}\n"))
                .store()
                .hedge())
        .isEqualTo(
            new io.racs.proxy.store.api.StoreConfig.Hedge(
                true, 90, Duration.ofMillis(2), Duration.ofMillis(250)));
  }

  @Test
  void from_whenSlotsAbsent_usesEveryRepositoryInFileOrder() {
    ArrayConfig array = ArrayConfig.from(file("array: {geometry: 2x1, inlineSize: 32KiB}\n"));
    assertThat(array.slots()).extracting(RepositoryConfig::name).containsExactly("a", "no", "off");
    assertThat(array.store().inlineBytes()).isEqualTo(32 << 10);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void from_whenMalformed_failsWithOneLineNamingFileSectionAndField(String yaml, String message) {
    // The file itself is well formed: only the array section fails.
    assertThatThrownBy(() -> ArrayConfig.from(file(yaml)))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of(
            "geometry: 2x1\n",
            "racs.yaml: array: missing section 'array' (expected: geometry, slots...)"),
        Arguments.of(
            "array: {geometry: 2x1, blocksize: 1MiB}\n",
            "racs.yaml: array: field 'blocksize': unknown field (expected one of: blockSize,"
                + " gcGrace, geometry, hedge, inlineSize, slots, slowShardTimeout, stallGrace,"
                + " writeQuorum)"),
        Arguments.of(
            "array: {geometry: 2x1, hedge: {percentile: 30}}\n",
            "racs.yaml: array: field 'hedge.percentile': expected a percentile from 50 to 99.9,"
                + " got '30'"),
        Arguments.of(
            "array: {geometry: 2x1, hedge: {percentile: p95}}\n",
            "racs.yaml: array: field 'hedge.percentile': expected a percentile from 50 to 99.9,"
                + " got 'p95'"),
        Arguments.of(
            "array: {geometry: 2x1, hedge: {minDelay: soon}}\n",
            "racs.yaml: array: field 'hedge.minDelay': expected a duration such as 2ms, got"
                + " 'soon'"),
        Arguments.of(
            "array: {geometry: 2x1, hedge: {minDelay: 1s, maxDelay: 10ms}}\n",
            "racs.yaml: array: field 'hedge.maxDelay': expected at least hedge.minDelay (PT1S),"
                + " got '10ms'"),
        Arguments.of(
            "array: {geometry: 2x1, hedge: {enabled: maybe}}\n",
            "racs.yaml: array: field 'hedge.enabled': expected true or false, got 'maybe'"),
        Arguments.of(
            "array: {geometry: 2y1}\n",
            "racs.yaml: array: field 'geometry': geometry: 2y1 (expected: DxP, data x parity"
                + " shards, e.g. 4x2)"),
        Arguments.of(
            "array: {geometry: 2x1, slots: [a, no, a]}\n",
            "racs.yaml: array: field 'slots': repository 'a' named twice"),
        Arguments.of(
            "array: {geometry: 2x1, slots: [a, no, yes]}\n",
            "racs.yaml: array: field 'slots': no repository named 'yes'"),
        Arguments.of(
            "array: {geometry: 2x1, slots: a}\n",
            "racs.yaml: array: field 'slots': expected a list"),
        Arguments.of(
            "array: {geometry: 2x2}\n",
            "racs.yaml: array: field 'slots': 3 repositories (expected: 4 for 2x2)"),
        Arguments.of(
            "array: {geometry: 2x1, blockSize: 2GiB}\n",
            "racs.yaml: array: field 'blockSize': expected a size such as 1MiB (at most 1GiB), got"
                + " '2GiB'"),
        Arguments.of(
            "array: {geometry: 2x1, writeQuorum: most}\n",
            "racs.yaml: array: field 'writeQuorum': expected a whole number, got 'most'"),
        Arguments.of(
            "array: {geometry: 2x1, writeQuorum: 1}\n",
            "racs.yaml: array: writeQuorum: 1 (expected: 2 to 3)"),
        Arguments.of(
            "array: {geometry: 2x1, gcGrace: later}\n",
            "racs.yaml: array: field 'gcGrace': expected a duration such as 30s, got 'later'"));
  }
}
