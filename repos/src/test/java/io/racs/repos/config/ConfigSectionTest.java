package io.racs.repos.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Proves the binding rules every section of a configuration file shares: a top-level section binds
 * to a record with nested records and lists, scalars arrive as written and resolve {@code
 * ${env:NAME}} through the loader's environment, absent sections bind as all-absent records, and
 * every problem is one line naming the file, the section and the field path (list indexes and
 * nested fields included).
 */
class ConfigSectionTest {
  private static final Map<String, String> ENV = Map.of("SECRET", "s3cr3t");

  record Key(String accessKey, String secretKey) {}

  record Tls(String cert, String key) {}

  record Section(String listen, List<Key> keys, Tls tls, Boolean enabled, Integer count) {}

  private static ConfigSection section(String yaml) {
    return RepositoryConfigLoader.withEnvironment(ENV::get)
        .parse("repositories: []\n" + yaml, "f.yaml")
        .configSection("section");
  }

  @Test
  void bind_whenWellFormed_bindsNestedRecordsAndListsWithTextAsWritten() {
    Section s =
        section(
                """
                section:
                  listen: off
                  keys: [{accessKey: 0123, secretKey: '${env:SECRET}'}]
                  tls: {cert: c.pem, key: k.pem}
                  enabled: yes
                  count: 12
                """)
            .bind(Section.class);
    assertThat(s)
        .isEqualTo(
            new Section(
                "off", List.of(new Key("0123", "s3cr3t")), new Tls("c.pem", "k.pem"), true, 12));
  }

  @Test
  void bind_whenSectionAbsentOrEmpty_bindsRecordWithEveryComponentAbsent() {
    Section none = new Section(null, null, null, null, null);
    assertThat(section("").bind(Section.class)).isEqualTo(none);
    assertThat(section("section:\n").bind(Section.class)).isEqualTo(none);
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of(
            "section:\n  lisen: x\n",
            "f.yaml: section: field 'lisen': unknown field (expected one of: count, enabled, keys,"
                + " listen, tls)"),
        Arguments.of(
            "section:\n  tls: {cert: c, certificate: d}\n",
            "f.yaml: section: field 'tls.certificate': unknown field (expected one of: cert, key)"),
        Arguments.of(
            "section:\n  keys: [{accessKey: a, secretKey: b}, {accessKey: a, secretKey: '${env:NO}'}]\n",
            "f.yaml: section: field 'keys[1].secretKey': environment variable NO is not set"),
        Arguments.of("section:\n  keys: a\n", "f.yaml: section: field 'keys': expected a list"),
        Arguments.of(
            "section:\n  tls: c.pem\n", "f.yaml: section: field 'tls': expected a mapping"),
        Arguments.of(
            "section:\n  listen: [a, b]\n",
            "f.yaml: section: field 'listen': expected a single value"),
        Arguments.of(
            "section:\n  enabled: maybe\n",
            "f.yaml: section: field 'enabled': expected true or false, got 'maybe'"),
        Arguments.of(
            "section:\n  count: 0x10\n",
            "f.yaml: section: field 'count': expected a whole number, got '0x10'"),
        Arguments.of(
            "section:\n  count: 99999999999\n",
            "f.yaml: section: field 'count': expected a whole number, got '99999999999'"),
        Arguments.of("section: [a]\n", "f.yaml: section: expected a mapping"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void bind_whenMalformed_failsWithOneLineNamingFileSectionAndField(String yaml, String message) {
    assertThatThrownBy(() -> section(yaml).bind(Section.class))
        .isInstanceOf(ConfigException.class)
        .hasMessage(message);
  }

  @Test
  void unitsAndRanges_whenMalformed_nameTheFieldWithTheCallersWording() {
    ConfigSection s = section("section: {}\n");
    assertThat(s.duration("t", "30s", "30s")).contains(Duration.ofSeconds(30));
    assertThat(s.duration("t", null, "30s")).isEmpty();
    assertThatThrownBy(() -> s.duration("t", "soon", "30s"))
        .hasMessage("f.yaml: section: field 't': expected a duration such as 30s, got 'soon'");
    assertThat(s.size("b", "4KiB", 1, 1 << 20, "a size")).hasValue(4096);
    assertThatThrownBy(() -> s.size("b", "2MiB", 1, 1 << 20, "a size up to 1MiB"))
        .hasMessage("f.yaml: section: field 'b': expected a size up to 1MiB, got '2MiB'");
    assertThat(s.range("n", null, 3, 1, 5)).isEqualTo(3);
    assertThatThrownBy(() -> s.range("n", 6L, 3, 1, 5))
        .hasMessage("f.yaml: section: field 'n': 6 (expected: 1 to 5)");
    assertThatThrownBy(() -> s.required("r", " ")).hasMessage("f.yaml: section: field 'r': empty");
    assertThatThrownBy(() -> s.required("r", null))
        .hasMessage("f.yaml: section: field 'r': missing");
  }
}
